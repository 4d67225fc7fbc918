// run_info (AIPerf 0.11): a plain run's fields, a repeated or swept run's identity from the
// orchestrator, and what a malformed identity does.
#include <gtest/gtest.h>

#include "app/profile/run_info.hpp"

namespace {

using inferperf::app::build_run_info;

TEST(RunInfo, PlainRunHasIdentitySeedTrialAndCommand) {
  EXPECT_EQ(
      build_run_info("b", 7, "inferperf profile -m 'm'", nullptr).dump(),
      R"({"benchmark_id":"b","random_seed":7,"trial":0,"cli_command":"inferperf profile -m 'm'"})");
  EXPECT_EQ(build_run_info("b", std::nullopt, "c", nullptr).dump(),
            R"({"benchmark_id":"b","trial":0,"cli_command":"c"})")
      << "absent values are dropped, never null";
}

TEST(RunInfo, PlannedRunTakesThePlansFieldsInAiperfOrder) {
  const char* plan =
      R"({"variation_values":{"phases.profiling.concurrency":4},"run_label":"run_0002",)"
      R"("trial":1,"sweep_id":"s-1","variation_label":"concurrency_4","variation_index":1})";
  EXPECT_EQ(build_run_info("b", 42, "c", plan).dump(),
            R"({"benchmark_id":"b","sweep_id":"s-1","random_seed":42,"trial":1,)"
            R"("run_label":"run_0002","variation_label":"concurrency_4","variation_index":1,)"
            R"("variation_values":{"phases.profiling.concurrency":4},"cli_command":"c"})");
}

TEST(RunInfo, MalformedPlanKeepsThePlainFields) {
  EXPECT_EQ(build_run_info("b", std::nullopt, "c", "not json").dump(),
            R"({"benchmark_id":"b","trial":0,"cli_command":"c"})");
  EXPECT_EQ(build_run_info("b", std::nullopt, "c", R"({"trial":"one","run_label":3})").dump(),
            R"({"benchmark_id":"b","trial":0,"cli_command":"c"})")
      << "a field of the wrong type is dropped";
}

// weka_trace subagents: a root starts a child, which starts a grandchild; depths 1 and 2.
TEST(AgentDepths, ChildSessionsAreOneDeeperThanTheirParent) {
  inferperf::dataset::Dataset ds;
  ds.conversations.resize(4);
  ds.conversations[0].session_id = "root";
  ds.conversations[1].session_id = "child";
  ds.conversations[1].child = true;
  ds.conversations[2].session_id = "grandchild";
  ds.conversations[2].child = true;
  ds.conversations[3].session_id = "other-root";
  ds.conversations[0].spawns.push_back({0, 1, 0.0, std::nullopt});
  ds.conversations[1].spawns.push_back({1, 2, 5.0, 2});
  const auto depths = inferperf::app::agent_depths(ds);
  EXPECT_EQ(depths, (std::map<std::string, int>{{"child", 1}, {"grandchild", 2}}));
  ds.conversations[2].spawns.push_back({0, 1, 0.0, std::nullopt});  // a cycle ends
  EXPECT_EQ(inferperf::app::agent_depths(ds).at("grandchild"), 2);
}

}  // namespace
