// The workload_integrity block: planned vs sent vs valid vs failed, and the dataset rows that
// never produced a valid record.
#include "report/workload_integrity.hpp"

#include <gtest/gtest.h>

namespace inferperf::report {
namespace {

records::RequestRecord rec(const std::string& conv, int turn, bool ok,
                           records::Phase phase = records::Phase::kProfiling) {
  records::RequestRecord r;
  r.phase = phase;
  r.conversation_id = conv;
  r.turn_index = turn;
  if (!ok)
    r.error = records::ErrorInfo{std::nullopt,
                                 inferperf::core::RequestErrorKind::kServerDisconnected, "x"};
  return r;
}

TEST(WorkloadIntegrity, CompleteWhenEveryPlannedRequestIsValid) {
  WorkloadPlan plan;
  plan.planned_requests = 2;
  const auto b = workload_integrity_json(
      {rec("a", 0, true), rec("b", 0, true), rec("w", 0, false, records::Phase::kWarmup)}, plan,
      false);
  EXPECT_EQ(b["planned_requests"], 2);
  EXPECT_EQ(b["sent_requests"], 2);  // warmup is not part of the workload
  EXPECT_EQ(b["valid_requests"], 2);
  EXPECT_EQ(b["failed_requests"], 0);
  EXPECT_EQ(b["unsent_requests"], 0);
  EXPECT_EQ(b["complete"], true);
  EXPECT_FALSE(b.contains("dataset_rows"));  // synthetic prompts: no rows
  EXPECT_EQ(render_workload_integrity(b), "");
}

TEST(WorkloadIntegrity, FailedAndUnsentRequestsMakeItIncomplete) {
  WorkloadPlan plan;
  plan.planned_requests = 5;
  const auto b = workload_integrity_json({rec("a", 0, true), rec("b", 0, false), rec("c", 0, true)},
                                         plan, true);
  EXPECT_EQ(b["sent_requests"], 3);
  EXPECT_EQ(b["valid_requests"], 2);
  EXPECT_EQ(b["failed_requests"], 1);
  EXPECT_EQ(b["unsent_requests"], 2);
  EXPECT_EQ(b["complete"], false);
  const std::string box = render_workload_integrity(b);
  EXPECT_NE(box.find("Incomplete Workload"), std::string::npos) << box;
  EXPECT_NE(box.find("5 request(s) planned, 3 sent, 2 valid, 1 failed, 2 never sent"),
            std::string::npos)
      << box;
  EXPECT_NE(box.find("2 of 5 (40.0 %)"), std::string::npos) << box;
  EXPECT_NE(box.find("--failed-request-threshold"), std::string::npos) << box;
  EXPECT_NE(box.find("stopped before it finished"), std::string::npos) << box;
}

TEST(WorkloadIntegrity, RowsInFileOrderNameTheRowsThatNeverProducedAValidRecord) {
  // Rows: a (0), b/0 (1), b/1 (2), c (3), d (4). Four planned in order: rows 0..3.
  WorkloadPlan plan;
  plan.planned_requests = 4;
  plan.rows_in_order = true;
  plan.conversations = {{"a", 1}, {"b", 2}, {"c", 1}, {"d", 1}};
  // b's first turn failed, then was sent again (wrapping would do that) and was valid; b/1 failed;
  // c never sent.
  const auto b = workload_integrity_json(
      {rec("a", 0, true), rec("b", 0, false), rec("b", 1, false), rec("b", 0, true)}, plan, false);
  EXPECT_EQ(b["dataset_rows"], 5);
  EXPECT_EQ(b["planned_rows"], 4);
  EXPECT_EQ(b["planned_rows_basis"], "in file order");
  EXPECT_EQ(b["rows_without_valid_record"], 2);
  EXPECT_EQ(b["rows_never_sent"], 1);
  EXPECT_EQ(b["missing_row_indexes"], nlohmann::json::array({2, 3}));
  EXPECT_EQ(b["complete"], false);
  const std::string box = render_workload_integrity(b);
  EXPECT_NE(box.find("2 of 4 planned dataset row(s) produced no valid record (1 never sent): rows "
                     "2, 3."),
            std::string::npos)
      << box;
}

TEST(WorkloadIntegrity, WithoutAnOrderThePlannedRowsAreTheRowsSent) {
  WorkloadPlan plan;  // shuffled sampling, bounded by time
  plan.conversations = {{"a", 1}, {"b", 1}, {"c", 1}};
  const auto b = workload_integrity_json({rec("c", 0, false), rec("a", 0, true)}, plan, false);
  EXPECT_TRUE(b["planned_requests"].is_null());
  EXPECT_EQ(b["planned_rows"], 2);
  EXPECT_EQ(b["planned_rows_basis"], "rows sent");
  EXPECT_EQ(b["missing_row_indexes"], nlohmann::json::array({2}));
  EXPECT_EQ(b["complete"], false);
}

TEST(WorkloadIntegrity, ThePlanSurvivesTheManifest) {
  WorkloadPlan plan;
  plan.planned_requests = 7;
  plan.rows_in_order = true;
  plan.conversations = {{"x", 3}, {"y", 1}};
  const WorkloadPlan back = plan_from_json(plan_json(plan));
  EXPECT_EQ(back.planned_requests, 7);
  EXPECT_TRUE(back.rows_in_order);
  EXPECT_EQ(back.conversations, plan.conversations);
  EXPECT_FALSE(plan_from_json(plan_json(WorkloadPlan{})).planned_requests);
}

}  // namespace
}  // namespace inferperf::report
