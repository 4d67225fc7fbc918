// Workload integrity: how much of what a run set out to measure was measured. A run that loses
// requests still exits 0 (AIPerf's contract), so the loss must be visible: the console box, the
// `workload_integrity` block of the JSON export, and (opt-in) exit code 1.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "records/request_record.hpp"

namespace inferperf::report {

// What the profiling phase set out to send, known before it started (kept in the run manifest so
// `inferperf analyze` rebuilds the block from the records).
struct WorkloadPlan {
  // Requests the phase was to send: --request-count, or every turn of a fixed-schedule replay;
  // nullopt for runs bounded by time or sessions.
  std::optional<std::int64_t> planned_requests;
  // File datasets: each conversation's id and turn count in file order (empty for synthetic
  // prompts). Row k is the k-th turn counted over the conversations in this order.
  std::vector<std::pair<std::string, int>> conversations;
  // The rows are sent in file order from row 0, wrapping (sequential sampling, fixed schedule):
  // the planned count then names which rows were planned.
  bool rows_in_order = false;
};

nlohmann::ordered_json plan_json(const WorkloadPlan& p);
WorkloadPlan plan_from_json(const nlohmann::ordered_json& j);

// The block: planned, sent, valid and failed requests, unsent ones, and for file datasets the rows
// that never produced a valid record (count and the first indexes). `complete` is false when
// anything planned is missing.
nlohmann::ordered_json workload_integrity_json(const std::vector<records::RequestRecord>& records,
                                               const WorkloadPlan& plan, bool was_cancelled);
// The same block built one record at a time (the plan must outlive the tally): counts, and one
// sent/valid flag pair per dataset row for file datasets.
class WorkloadTally {
 public:
  explicit WorkloadTally(const WorkloadPlan& plan);
  void add(const records::RequestRecord& r);
  nlohmann::ordered_json json(bool was_cancelled) const;

  // Per dataset row: whether it was sent and whether any send of it was valid.
  struct Row {
    bool sent = false;
    bool valid = false;
  };

 private:
  const WorkloadPlan& plan_;
  std::unordered_map<std::string_view, std::int64_t> first_;
  std::int64_t total_ = 0;
  std::vector<Row> rows_;
  std::int64_t sent_ = 0, valid_ = 0, failed_ = 0;
};

// The console box for an incomplete workload ("" when complete).
std::string render_workload_integrity(const nlohmann::ordered_json& block);

}  // namespace inferperf::report
