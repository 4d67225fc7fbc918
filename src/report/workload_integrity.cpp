#include "report/workload_integrity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "report/console_notes.hpp"

namespace inferperf::report {

using ojson = nlohmann::ordered_json;

namespace {

// Indexes listed in the JSON block; the count is always exact.
constexpr std::size_t kMaxListedRows = 1000;
// Indexes shown in the console box.
constexpr std::size_t kMaxShownRows = 12;

using RowState = WorkloadTally::Row;

// The flat row index of each conversation's first turn.
std::unordered_map<std::string_view, std::int64_t> first_rows(const WorkloadPlan& plan,
                                                              std::int64_t& total) {
  std::unordered_map<std::string_view, std::int64_t> out;
  total = 0;
  for (const auto& [id, turns] : plan.conversations) {
    out.emplace(id, total);
    total += std::max(turns, 0);
  }
  return out;
}

ojson row_block(const std::vector<RowState>& rows, std::int64_t total, const WorkloadPlan& plan) {
  // Planned rows: in order, the first planned_requests (wrapping) ; otherwise the rows sent.
  std::vector<bool> planned(rows.size(), false);
  const bool by_order = plan.rows_in_order && plan.planned_requests && total > 0;
  if (by_order) {
    const auto n = std::min<std::int64_t>(*plan.planned_requests, total);
    std::fill(planned.begin(), planned.begin() + n, true);
  } else {
    for (std::size_t k = 0; k < rows.size(); ++k) planned[k] = rows[k].sent;
  }
  ojson j;
  j["dataset_rows"] = total;
  std::int64_t planned_rows = 0, missing = 0, never_sent = 0;
  auto listed = ojson::array();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!planned[k]) continue;
    ++planned_rows;
    if (rows[k].valid) continue;
    ++missing;
    if (!rows[k].sent) ++never_sent;
    if (listed.size() < kMaxListedRows) listed.push_back(k);
  }
  j["planned_rows"] = planned_rows;
  j["planned_rows_basis"] = by_order ? "in file order" : "rows sent";
  j["rows_without_valid_record"] = missing;
  j["rows_never_sent"] = never_sent;
  j["missing_row_indexes"] = std::move(listed);
  return j;
}

}  // namespace

ojson plan_json(const WorkloadPlan& p) {
  ojson j;
  j["planned_requests"] = p.planned_requests ? ojson(*p.planned_requests) : ojson(nullptr);
  j["rows_in_order"] = p.rows_in_order;
  auto convs = ojson::array();
  for (const auto& [id, turns] : p.conversations) convs.push_back(ojson::array({id, turns}));
  j["conversations"] = std::move(convs);
  return j;
}

WorkloadPlan plan_from_json(const ojson& j) {
  WorkloadPlan p;
  if (j.contains("planned_requests") && j["planned_requests"].is_number_integer())
    p.planned_requests = j["planned_requests"].get<std::int64_t>();
  p.rows_in_order = j.value("rows_in_order", false);
  if (j.contains("conversations") && j["conversations"].is_array()) {
    for (const auto& c : j["conversations"]) {
      if (c.is_array() && c.size() == 2 && c[0].is_string() && c[1].is_number_integer())
        p.conversations.emplace_back(c[0].get<std::string>(), c[1].get<int>());
    }
  }
  return p;
}

WorkloadTally::WorkloadTally(const WorkloadPlan& plan) : plan_(plan) {
  if (plan.conversations.empty()) return;
  first_ = first_rows(plan, total_);
  rows_.resize(static_cast<std::size_t>(total_));
}

void WorkloadTally::add(const records::RequestRecord& r) {
  if (r.phase != records::Phase::kProfiling) return;
  ++sent_;
  (r.error ? failed_ : valid_) += 1;
  if (rows_.empty()) return;
  const auto it = first_.find(r.conversation_id);
  if (it == first_.end()) return;
  const auto k = static_cast<std::size_t>(it->second + r.turn_index);
  if (k >= rows_.size()) return;
  rows_[k].sent = true;
  rows_[k].valid = rows_[k].valid || !r.error;
}

ojson WorkloadTally::json(bool was_cancelled) const {
  ojson j;
  j["planned_requests"] = plan_.planned_requests ? ojson(*plan_.planned_requests) : ojson(nullptr);
  j["sent_requests"] = sent_;
  j["valid_requests"] = valid_;
  j["failed_requests"] = failed_;
  const std::int64_t unsent =
      plan_.planned_requests ? std::max<std::int64_t>(*plan_.planned_requests - sent_, 0) : 0;
  j["unsent_requests"] = unsent;
  j["was_cancelled"] = was_cancelled;
  bool complete = failed_ == 0 && unsent == 0;
  if (!plan_.conversations.empty()) {
    ojson rows = row_block(rows_, total_, plan_);
    complete = complete && rows["rows_without_valid_record"].get<std::int64_t>() == 0;
    for (auto& [k, v] : rows.items()) j[k] = v;
  }
  j["complete"] = complete;
  return j;
}

ojson workload_integrity_json(const std::vector<records::RequestRecord>& records,
                              const WorkloadPlan& plan, bool was_cancelled) {
  WorkloadTally tally(plan);
  for (const auto& r : records) tally.add(r);
  return tally.json(was_cancelled);
}

std::string render_workload_integrity(const ojson& b) {
  if (b.is_null() || b.value("complete", true)) return "";
  const auto n = [&](const char* key) { return b.value(key, std::int64_t{0}); };
  std::vector<std::string> lines;
  const std::int64_t valid = n("valid_requests");
  if (b["planned_requests"].is_number_integer()) {
    const std::int64_t planned = b["planned_requests"].get<std::int64_t>();
    lines.push_back(fmt::format(
        "{} request(s) planned, {} sent, {} valid, {} failed, {} never sent: the metrics describe "
        "{} of {} ({:.1f} %).",
        planned, n("sent_requests"), valid, n("failed_requests"), n("unsent_requests"), valid,
        planned, planned > 0 ? 100.0 * static_cast<double>(valid) / planned : 0.0));
  } else {
    lines.push_back(fmt::format("{} request(s) sent, {} valid, {} failed.", n("sent_requests"),
                                valid, n("failed_requests")));
  }
  if (b.contains("rows_without_valid_record") && n("rows_without_valid_record") > 0) {
    std::string shown;
    const auto& idx = b["missing_row_indexes"];
    for (std::size_t k = 0; k < idx.size() && k < kMaxShownRows; ++k)
      shown += (k ? ", " : "") + std::to_string(idx[k].get<std::int64_t>());
    if (static_cast<std::int64_t>(idx.size()) < n("rows_without_valid_record") ||
        idx.size() > kMaxShownRows)
      shown += ", ...";
    lines.push_back(fmt::format(
        "{} of {} planned dataset row(s) produced no valid record ({} never "
        "sent): rows {}.",
        n("rows_without_valid_record"), n("planned_rows"), n("rows_never_sent"), shown));
    lines.push_back("The measured workload is not the dataset's: compare runs with care.");
  }
  if (b.value("was_cancelled", false)) lines.push_back("The run was stopped before it finished.");
  lines.push_back(
      "--failed-request-threshold F stops a run once failures pass that fraction; "
      "--fail-on-incomplete-workload makes an incomplete run exit 1.");
  lines.push_back("Details: workload_integrity in the JSON export.");
  return panel("Incomplete Workload", lines);
}

}  // namespace inferperf::report
