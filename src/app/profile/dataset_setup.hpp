// The run's dataset: synthetic prompts or an input file, with per-turn max tokens and models,
// checked against what the chosen load mode needs.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "config/run_config.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "dataset/conversation.hpp"
#include "records/request_record.hpp"
#include "report/workload_check.hpp"
#include "tokenizer/tokenizer.hpp"

namespace inferperf::app {

struct PreparedDataset {
  dataset::Dataset dataset;
  double schedule_zero_ms = 0.0;  // fixed schedule: the trace time that maps to the phase start
  std::string type_name;          // the input file's format ("" for synthetic data)
  bool is_trace = false;
  // A timed trace switched the run to a fixed schedule (trace-formats §0 auto-promotion).
  bool promoted_fixed_schedule = false;
};

// `tok` may be null (--use-server-token-count): synthetic prompts are then word lists.
core::Result<PreparedDataset> prepare_dataset(const config::RunConfig& c,
                                              const core::RngFactory& rngs,
                                              const tokenizer::Tokenizer* tok);

// What the valid profiling requests of a trace run declared (input_length of self-contained rows
// and first turns, requested max tokens), for the workload check: fed one record at a time, so the
// records can be read back from disk instead of kept.
class ExpectedWorkload {
 public:
  ExpectedWorkload(const dataset::Dataset& ds, std::string dataset_type);
  void add(const records::RequestRecord& r);
  report::WorkloadExpectation result() const;

 private:
  const dataset::Dataset& ds_;
  std::unordered_map<std::string_view, const dataset::Conversation*> by_id_;
  report::WorkloadExpectation e_;
  double isl_ = 0, osl_ = 0;
  bool all_isl_ = true, all_osl_ = true;
};

report::WorkloadExpectation expected_workload(const dataset::Dataset& ds,
                                              const std::vector<records::RequestRecord>& recs,
                                              const std::string& dataset_type);

}  // namespace inferperf::app
