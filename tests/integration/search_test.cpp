// Adaptive search end to end: the real binary searches the capacity mock (--slots,
// --itl-ms-per-stream), whose formulas (docs/mock-server.md, Capacity) say where the SLO boundary
// is, and must land on it; every iteration is an ordinary run in search_iter_NNNN.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

json read_search_json(const std::string& path) {
  return json::parse(read_file(path));
}

// The profile command line every test here starts from: streamed 10-token answers to 16-token
// prompts from the mock, into `dir`, then `extra`.
std::vector<std::string> mock_profile(const MockServerProcess& mock, const std::string& dir,
                                      const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      INFERPERF_BIN,     "profile",   "-m",   "mock-model",     "-u", mock.url(),
      "--streaming",     "--isl",     "16",   "--osl",          "10", "--extra-inputs",
      "ignore_eos:true", "--ui-type", "none", "--artifact-dir", dir};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

ProcessResult search(const MockServerProcess& mock, const std::string& dir,
                     const std::string& space, const std::string& sla,
                     const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = mock_profile(
      mock, dir,
      {"--request-count", "12", "--search-space", space, "--search-metric", "request_throughput",
       "--search-direction", "maximize", "--search-max-iterations", "8", "--search-planner",
       "monotonic_sla", "--search-sla", sla});
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(args, 240s);
}

std::vector<long long> tried(const json& history) {
  std::vector<long long> out;
  for (const auto& it : history["iterations"])
    out.push_back(it["parameters"]["phases.profiling.concurrency"].get<long long>());
  return out;
}

// ITL = 5 + 10 x (streams - 1) ms: 25 ms at concurrency 3, 35 at 4, so "p99 under 30" holds up
// to 3 with 5 ms to spare on both sides.
TEST(Search, MonotonicSlaLandsOnTheItlBoundaryTheMockPredicts) {
  MockServerProcess mock({"--ttft", "10", "--itl", "5", "--itl-ms-per-stream", "10"});
  const std::string dir = make_temp_dir("ip-search-");
  const auto r =
      search(mock, dir, "phases.profiling.concurrency:1,6", "inter_token_latency:p99:lt:30");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_search_json(dir + "/search_history.json");
  EXPECT_EQ(tried(h), (std::vector<long long>{1, 6, 3, 4})) << h["iterations"];
  EXPECT_EQ(h["boundary_summary"]["largest_feasible"], 3) << h["boundary_summary"];
  EXPECT_EQ(h["boundary_summary"]["smallest_infeasible"], 4);
  EXPECT_EQ(h["convergence_reason"], "boundary_bracketed");
  EXPECT_EQ(h["config"]["planner"], "monotonic_sla");
  ASSERT_EQ(h["iterations"].size(), 4u);
  // The mock's formula, read back through the client's own ITL.
  const double itl_at_3 = h["iterations"][2]["sla"][0]["value"].get<double>();
  const double itl_at_4 = h["iterations"][3]["sla"][0]["value"].get<double>();
  EXPECT_NEAR(itl_at_3, 25.0, 4.0);
  EXPECT_NEAR(itl_at_4, 35.0, 4.0);
  // The best trial: the feasible iteration with the most request throughput.
  const json* best = nullptr;
  for (const auto& it : h["iterations"])
    if (it["feasible"] && (!best || it["objective"]["value"] > (*best)["objective"]["value"]))
      best = &it;
  ASSERT_NE(best, nullptr);
  EXPECT_EQ(h["best_trials"][0]["iteration"], (*best)["iteration"]);
  EXPECT_EQ(h["best_trials"][0]["objective"], (*best)["objective"]["value"]);
  EXPECT_EQ(h["boundary_summary"]["limiting_filters"][0]["filter"],
            "inter_token_latency:p99:lt:30");
  EXPECT_NE(r.out.find("Capacity: the largest concurrency meeting every SLA filter is 3 "
                       "(concurrency 4 does not)"),
            std::string::npos)
      << r.out;
  // Every iteration is an ordinary run folder with its place in the search, and an aggregate.
  for (int i = 1; i <= 4; ++i) {
    const std::string iter = dir + "/search_iter_000" + std::to_string(i);
    const json run = read_search_json(iter + "/profile_runs/run_0001/profile_export_aiperf.json");
    const long long c = tried(h)[i - 1];
    EXPECT_EQ(run["request_count"]["avg"], 12);
    EXPECT_EQ(run["run_info"]["variation_label"],
              "phases.profiling.concurrency=" + std::to_string(c));
    EXPECT_EQ(run["run_info"]["variation_index"], i - 1);
    EXPECT_TRUE(std::filesystem::exists(iter + "/aggregate/profile_export_aiperf_aggregate.json"));
  }
}

// With 3 slots, a fourth stream waits for a whole request (about 55 ms) before its prefill, so
// "TTFT p99 under 40 ms" holds exactly up to the slot count.
TEST(Search, SlotsPutTheTtftBoundaryAtTheSlotCount) {
  MockServerProcess mock({"--slots", "3", "--ttft", "10", "--itl", "5"});
  const std::string dir = make_temp_dir("ip-search-slots-");
  const auto r = search(mock, dir, "concurrency:1,8", "time_to_first_token:p99:lt:40");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_search_json(dir + "/search_history.json");
  EXPECT_EQ(tried(h), (std::vector<long long>{1, 8, 4, 2, 3})) << h["iterations"];
  EXPECT_EQ(h["boundary_summary"]["largest_feasible"], 3) << h["boundary_summary"];
  EXPECT_EQ(h["boundary_summary"]["smallest_infeasible"], 4);
  EXPECT_GT(h["iterations"][2]["sla"][0]["value"].get<double>(), 45.0) << "queued at 4";
}

// --search-sla on a sweep: every point is run, each is judged, and the console names the largest
// concurrency that passes.
TEST(Search, SearchSlaJudgesTheSweepsPoints) {
  MockServerProcess mock({"--ttft", "10", "--itl", "5", "--itl-ms-per-stream", "10"});
  const std::string dir = make_temp_dir("ip-sweep-sla-");
  const auto r = run_process(mock_profile(mock, dir,
                                          {"--request-count", "8", "--concurrency", "1,3,4",
                                           "--search-sla", "inter_token_latency:p99:lt:30"}),
                             240s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Capacity: the largest concurrency meeting every SLA filter is 3 "
                       "(concurrency 4 does not)"),
            std::string::npos)
      << r.out;
  const json sweep = read_search_json(dir + "/sweep_aggregate/profile_export_aiperf_sweep.json");
  EXPECT_EQ(sweep["metadata"]["sla_constraints"][0]["metric"], "inter_token_latency");
  const json summary = read_search_json(dir + "/sweep_summary.json");
  ASSERT_EQ(summary["points"].size(), 3u);
  EXPECT_EQ(summary["points"][1]["meets_sla"], true);
  EXPECT_EQ(summary["points"][2]["meets_sla"], false);
  EXPECT_NEAR(summary["points"][2]["sla"][0]["value"].get<double>(), 35.0, 4.0);
}

// The recipe, as an AIPerf 0.11 user types it: the default smooth_isotonic style aims at the
// crossing of the fitted ITL (5 + 10 (C - 1) ms) with 30 ms and brackets it in four runs.
TEST(Search, MaxConcurrencyUnderSlaRecipeFindsTheBoundary) {
  MockServerProcess mock({"--ttft", "10", "--itl", "5", "--itl-ms-per-stream", "10"});
  const std::string dir = make_temp_dir("ip-recipe-");
  const auto r = run_process(
      mock_profile(mock, dir,
                   {"--request-count", "12", "--search-recipe", "max-concurrency-under-sla",
                    "--itl-sla-ms", "30", "--concurrency-max", "6"}),
      240s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_search_json(dir + "/search_history.json");
  EXPECT_EQ(h["config"]["planner"], "smooth_isotonic");
  EXPECT_EQ(h["recipe"]["name"], "max-concurrency-under-sla");
  EXPECT_EQ(h["recipe"]["thresholds"]["itl_sla_ms"], 30.0);
  EXPECT_EQ(tried(h), (std::vector<long long>{1, 6, 3, 4})) << h["iterations"];
  EXPECT_EQ(h["boundary_summary"]["largest_feasible"], 3);
  EXPECT_EQ(h["boundary_summary"]["smallest_infeasible"], 4);
  EXPECT_NE(r.out.find("inferperf | search (smooth_isotonic)"), std::string::npos) << r.out;
}

// --adaptive-scale on the capacity mock: request latency is 55 + 90 (C - 1) ms for 10-token
// answers, so "p99 under 280" holds up to concurrency 3; one run ramps past it, refines back and
// holds 3 for the sustain.
TEST(AdaptiveScale, OneRunFindsAndHoldsTheBoundaryTheMockPredicts) {
  MockServerProcess mock({"--ttft", "10", "--itl", "5", "--itl-ms-per-stream", "10"});
  const std::string dir = make_temp_dir("ip-adaptive-");
  const std::vector<std::string> base = mock_profile(
      mock, dir, {"--concurrency", "8", "--benchmark-duration", "30", "--adaptive-scale"});
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--adaptive-sustain-duration", "1.5", "--adaptive-assessment-period",
                           "1", "--adaptive-scale-sla", "request_latency:p99:lt:280"});
  const auto r = run_process(args, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json summary = read_search_json(dir + "/adaptive_scale_summary.json");
  EXPECT_EQ(summary["boundary_concurrency"], 3) << summary;
  EXPECT_EQ(summary["boundary_reason"], "first_failure");
  EXPECT_EQ(summary["terminal_reason"], "sustain_complete");
  EXPECT_EQ(summary["ceiling"], 8);
  EXPECT_GE(summary["sustained_s"].get<double>(), 1.5);
  EXPECT_EQ(summary["concurrency_steps"].front(), 1);
  EXPECT_EQ(summary["concurrency_steps"].back(), 3);
  EXPECT_EQ(summary["sustain_windows"], summary["sustain_windows_passed"]) << summary;
  std::vector<std::string> types;
  for (const auto& line : read_jsonl(dir + "/adaptive_scale_events.jsonl"))
    types.push_back(line["type"].get<std::string>());
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.front(), "window");
  EXPECT_EQ(types.back(), "terminal");
  EXPECT_EQ(std::count(types.begin(), types.end(), "boundary"), 1);
  EXPECT_EQ(std::count(types.begin(), types.end(), "sustain"), 1);
  // The run itself is an ordinary one: its exports cover every request, ramp and sustain.
  const json run = read_search_json(dir + "/profile_export_aiperf.json");
  EXPECT_GT(run["request_count"]["avg"].get<double>(), 20);
  // Without what it needs, refused before anything is sent.
  const auto bad = run_process(base, 60s);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.out.find("--adaptive-scale needs --benchmark-duration (the budget), --concurrency "
                         "(the ceiling), --adaptive-sustain-duration and at least one "
                         "--adaptive-scale-sla filter"),
            std::string::npos)
      << bad.out;
}

TEST(Search, DryRunShowsBothEndsAndSendsNothing) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-search-dry-");
  const auto r =
      search(mock, dir, "concurrency:2,16", "time_to_first_token:p99:lt:40", {"--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("a monotonic_sla search of phases.profiling.concurrency in [2, 16]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--concurrency 2 --artifact-dir '" + dir +
                       "/search_iter_0001/profile_runs/run_0001' --random-seed 42"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--concurrency 16 --artifact-dir '" + dir +
                       "/search_iter_0002/profile_runs/run_0001' --random-seed 43"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
  EXPECT_FALSE(std::filesystem::exists(dir + "/search_history.json"));
  // A bad search is refused before anything is sent, naming what is wrong.
  const auto bad = search(mock, dir, "concurrency:2,16", "time_to_first_token:p99:lt:40",
                          {"--search-planner", "optuna"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.out.find("optuna's samplers are not implemented"), std::string::npos) << bad.out;
}

// --search-percentile-pooling pooled: the objective is the p99 of both runs' requests together,
// not the mean of each run's p99.
TEST(Search, PooledPercentileIsOverEveryRunsRequests) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-search-pooled-");
  const auto r =
      search(mock, dir, "concurrency:1,2", "time_to_first_token:p99:lt:1000",
             {"--num-profile-runs", "2", "--search-metric", "request_latency", "--search-stat",
              "p99", "--search-direction", "minimize", "--search-percentile-pooling", "pooled"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_search_json(dir + "/search_history.json");
  std::vector<double> all;
  for (const char* run : {"run_0001", "run_0002"})
    for (const auto& line :
         read_jsonl(dir + "/search_iter_0001/profile_runs/" + run + "/profile_export.jsonl"))
      all.push_back(line["metrics"]["request_latency"]["value"].get<double>());
  ASSERT_EQ(all.size(), 24u);
  std::sort(all.begin(), all.end());
  const double rank = 0.99 * 23;  // numpy's linear method
  const auto lo = static_cast<std::size_t>(rank);
  const double p99 = all[lo] + (rank - lo) * (all[lo + 1] - all[lo]);
  EXPECT_NEAR(h["iterations"][0]["objective"]["value"].get<double>(), p99, 1e-6);
}

}  // namespace
}  // namespace inferperf::testing

namespace inferperf::testing {
namespace {

// Two tiers on ITL = 5 + 10 x (streams - 1) ms: gold (p99 under 20) holds up to 2 and silver
// (under 30) up to 3; silver re-judges the points gold ran instead of running them again.
TEST(Search, SlaTiersEachFindTheirBoundaryAndShareRuns) {
  MockServerProcess mock({"--ttft", "10", "--itl", "5", "--itl-ms-per-stream", "10"});
  const std::string dir = make_temp_dir("ip-search-tiers-");
  std::vector<std::string> args =
      mock_profile(mock, dir,
                   {"--request-count", "6", "--search-space", "concurrency:1,4", "--search-metric",
                    "request_throughput", "--search-direction", "maximize",
                    "--search-max-iterations", "6", "--search-planner", "monotonic_sla",
                    "--search-sla-tier", "gold:inter_token_latency:p99:lt:20", "--search-sla-tier",
                    "silver:inter_token_latency:p99:lt:30"});
  const auto r = run_process(args, 240s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_search_json(dir + "/search_history.json");
  ASSERT_EQ(h["tiers"].size(), 2u) << h;
  EXPECT_EQ(h["tiers"][0]["label"], "gold");
  EXPECT_EQ(h["tiers"][0]["boundary_summary"]["largest_feasible"], 2);
  EXPECT_EQ(h["tiers"][1]["boundary_summary"]["largest_feasible"], 3);
  EXPECT_EQ(h["tiers"][1]["boundary_summary"]["smallest_infeasible"], 4);
  // gold ran 1, 4, 2, 3; silver needs 1, 4, 2, 3 again: nothing new.
  EXPECT_EQ(h["iterations"].size(), 4u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/search_iter_0005"));
  EXPECT_EQ(h["tiers"][1]["iterations"].size(), 4u);
  EXPECT_NE(r.out.find("SLA tier silver:"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace inferperf::testing
