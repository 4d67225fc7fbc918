// The run's dataset: synthetic prompts or an input file, with per-turn max tokens and models,
// checked against what the chosen load mode needs.
#pragma once
#include <optional>
#include <string>
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
// and first turns, requested max tokens), for the workload check.
report::WorkloadExpectation expected_workload(const dataset::Dataset& ds,
                                              const std::vector<records::RequestRecord>& recs,
                                              const std::string& dataset_type);

}  // namespace inferperf::app
