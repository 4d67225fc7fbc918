// Recipes, scenarios and sampled designs end to end: the real binary against the capacity mock,
// whose formulas (docs/mock-server.md, Capacity) say what each derived file must find.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

json read_recipe_json(const std::string& path) {
  return json::parse(read_file(path));
}

ProcessResult recipe_profile(const MockServerProcess& mock, const std::string& dir,
                             const std::vector<std::string>& extra) {
  std::vector<std::string> args = {INFERPERF_BIN,
                                   "profile",
                                   "-m",
                                   "mock-model",
                                   "-u",
                                   mock.url(),
                                   "--streaming",
                                   "--osl",
                                   "6",
                                   "--extra-inputs",
                                   "ignore_eos:true",
                                   "--ui-type",
                                   "none",
                                   "--tokenizer",
                                   "builtin",
                                   "--artifact-dir",
                                   dir};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(args, 240s);
}

// ITL = 20 + 3 x (streams - 1) ms: p95 under 30.5 ms holds up to concurrency 4 (29 ms; 32 at 5),
// and output throughput grows with every stream, so the best feasible concurrency is 4 (12
// requests: whole waves at 1, 2, 3, 4 and 6).
TEST(Recipes, MaxThroughputItlSlaFindsTheBestFeasibleConcurrency) {
  MockServerProcess mock({"--ttft", "10", "--itl", "20", "--itl-ms-per-stream", "3"});
  const std::string dir = make_temp_dir("ip-recipe-bo-");
  const auto r =
      recipe_profile(mock, dir,
                     {"--isl", "16", "--request-count", "12", "--search-recipe",
                      "max-throughput-itl-sla", "--itl-sla-ms", "30.5", "--concurrency-max", "6"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_recipe_json(dir + "/search_history.json");
  EXPECT_EQ(h["config"]["planner"], "bayesian");
  EXPECT_EQ(h["config"]["search_space"][0]["scale"], "log");
  EXPECT_EQ(h["recipe"]["name"], "max-throughput-itl-sla");
  ASSERT_TRUE(h["best_trials"].is_array()) << h;
  EXPECT_EQ(h["best_trials"][0]["parameters"]["phases.profiling.concurrency"], 4) << h;
  EXPECT_EQ(h["boundary_summary"]["largest_feasible"], 4);
  EXPECT_EQ(h["boundary_summary"]["smallest_infeasible"], 5);
  EXPECT_NE(r.out.find("Best: concurrency=4 with output_token_throughput avg"), std::string::npos)
      << r.out;
}

// TTFT = 10 + 0.05 x prompt tokens: the prefill curve is that line.
TEST(Recipes, PrefillCurveFitsTheMocksPrefillCost) {
  MockServerProcess mock({"--ttft", "10", "--itl", "2", "--prefill-ms-per-token", "0.05"});
  const std::string dir = make_temp_dir("ip-recipe-prefill-");
  const auto r = recipe_profile(
      mock, dir,
      {"--concurrency", "4", "--request-count", "3", "--search-recipe", "prefill-ttft-curve",
       "--isl-min", "100", "--isl-max", "1600", "--isl-steps", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json c = read_recipe_json(dir + "/sweep_aggregate/prefill_curve.json");
  EXPECT_EQ(c["fit_form"], "linear") << c;
  EXPECT_NEAR(c["coefficients"][0].get<double>(), 0.05, 0.005) << c;
  // The intercept carries the mock's own fixed cost per request, which a loaded machine raises by
  // several ms (16 ms seen under ASan, 14.2 in a release run beside other tests: three requests a
  // point, so one slow request moves a mean) and lowers only by a quarter of a delay at the
  // longest prompt; the slope stays exact.
  const double intercept = c["coefficients"][1].get<double>();
  EXPECT_GT(intercept, 7.0) << c;
  EXPECT_LT(intercept, 20.0) << c;
  EXPECT_EQ(c["points"].size(), 3u);
  EXPECT_TRUE(fs::exists(dir + "/mean_1600"));  // forced to concurrency 1: no "concurrency_" axis
  EXPECT_NE(r.out.find("Prefill curve (linear): TTFT = 0.0"), std::string::npos) << r.out;
}

// Request latency = 10 + 6 gaps of 2 + 8 x (streams - 1) ms; at concurrency 1 it is 22 ms, so
// 20 % more (26.4 ms) is passed at concurrency 2 (about 70 ms): the knee.
TEST(Recipes, ConcurrencyRampKneeAndAScenarioSweep) {
  MockServerProcess mock({"--ttft", "10", "--itl", "2", "--itl-ms-per-stream", "8"});
  const std::string dir = make_temp_dir("ip-recipe-ramp-");
  auto r =
      recipe_profile(mock, dir,
                     {"--isl", "16", "--request-count", "4", "--search-recipe", "concurrency-ramp",
                      "--concurrency-max", "4", "--concurrency-steps", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json k = read_recipe_json(dir + "/sweep_aggregate/degradation_knee.json");
  EXPECT_EQ(k["baseline_concurrency"], 1);
  EXPECT_EQ(k["knee_concurrency"], 2) << k;
  EXPECT_EQ(k["all_points"].size(), 3u);
  // A metric no run reports: the runs stand, post_process_errors.json says why there is no knee.
  const std::string none = make_temp_dir("ip-recipe-nometric-");
  r = recipe_profile(mock, none,
                     {"--isl", "16", "--request-count", "2", "--search-recipe", "concurrency-ramp",
                      "--concurrency-max", "2", "--concurrency-steps", "2",
                      "--degradation-metric-tag", "no_such_metric", "--no-auto-plot"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json errors = read_recipe_json(none + "/sweep_aggregate/post_process_errors.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]["output_filename"], "degradation_knee.json");
  EXPECT_NE(errors[0]["error"].get<std::string>().find("no_such_metric p99 is known at 0"),
            std::string::npos)
      << errors;
  EXPECT_FALSE(fs::exists(none + "/sweep_aggregate/degradation_knee.json"));

  // Two named scenarios and one that keeps the base's concurrency.
  const std::string sdir = make_temp_dir("ip-variant-");
  r = recipe_profile(mock, sdir,
                     {"--isl", "16", "--request-count", "2", "--concurrency", "2", "--variant",
                      "solo: concurrency=1", "--variant", "long: osl=12", "--variant", "isl=32"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* folder : {"solo", "long", "concurrency_2__mean_6__mean_32"})
    EXPECT_TRUE(fs::exists(sdir + "/" + folder + "/profile_export_aiperf.json")) << folder;
  const json sweep = read_recipe_json(sdir + "/sweep_aggregate/profile_export_aiperf_sweep.json");
  ASSERT_EQ(sweep["per_combination_metrics"].size(), 3u);
  EXPECT_EQ(sweep["per_combination_metrics"][1]["parameters"]["datasets.main.prompts.osl.mean"],
            12);
  const json info = read_recipe_json(sdir + "/long/profile_export_aiperf.json");
  EXPECT_EQ(info["run_info"]["variation_label"], "long") << info["run_info"];
}

TEST(Recipes, ALatinHypercubeFromYamlWritesItsDesign) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-design-");
  const std::string yaml = dir + "/design.yaml";
  std::ofstream(yaml) << "benchmark:\n"
                         "  models: [mock-model]\n"
                         "  endpoint: {urls: ['"
                      << mock.url()
                      << "'], streaming: true}\n"
                         "  datasets:\n"
                         "    - {name: main, type: synthetic, prompts: {isl: 16, osl: 4}}\n"
                         "  phases:\n"
                         "    profiling: {type: concurrency, requests: 2, concurrency: 1}\n"
                         "sweep:\n"
                         "  type: latin_hypercube\n"
                         "  samples: 3\n"
                         "  seed: 5\n"
                         "  dimensions:\n"
                         "    - {path: concurrency, lo: 1, hi: 3}\n";
  const auto r = run_process({INFERPERF_BIN, "profile", "-f", yaml, "--tokenizer", "builtin",
                              "--ui-type", "none", "--artifact-dir", dir + "/out"},
                             120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json d = read_recipe_json(dir + "/out/sweep_aggregate/sampling_design.json");
  EXPECT_EQ(d["type"], "latin_hypercube");
  ASSERT_EQ(d["points"].size(), 3u);
  std::vector<int> levels;
  for (int i = 0; i < 3; ++i) {
    levels.push_back(d["points"][i]["values"]["phases.profiling.concurrency"].get<int>());
    EXPECT_TRUE(fs::exists(dir + "/out/sample_000" + std::to_string(i))) << i;
  }
  std::sort(levels.begin(), levels.end());
  EXPECT_EQ(levels, (std::vector<int>{1, 2, 3}));  // one sample per stratum
}

// A YAML adaptive_search is the same search as its --search-* flags: ITL = 5 + 10 (streams - 1)
// ms under 30 holds up to 3; the phase's own concurrency is the search's to set.
TEST(Recipes, AnAdaptiveSearchFromYamlFindsTheBoundary) {
  MockServerProcess mock({"--ttft", "10", "--itl", "5", "--itl-ms-per-stream", "10"});
  const std::string dir = make_temp_dir("ip-yaml-search-");
  const std::string yaml = dir + "/search.yaml";
  std::ofstream(yaml) << "benchmark:\n"
                         "  models: [mock-model]\n"
                         "  endpoint: {urls: ['"
                      << mock.url()
                      << "'], streaming: true}\n"
                         "  datasets:\n"
                         "    - {name: main, type: synthetic, prompts: {isl: 16, osl: 6}}\n"
                         "  phases:\n"
                         "    profiling: {type: concurrency, requests: 6, concurrency: 1}\n"
                         "sweep:\n"
                         "  type: adaptive_search\n"
                         "  planner: monotonic_sla\n"
                         "  search_space: [{path: concurrency, lo: 1, hi: 5}]\n"
                         "  objectives: [{metric: request_throughput, direction: maximize}]\n"
                         "  max_iterations: 8\n"
                         "  sla_filters:\n"
                         "    - {metric_tag: inter_token_latency, stat: p99, op: lt, "
                         "threshold: 30}\n";
  const auto r = run_process({INFERPERF_BIN, "profile", "-f", yaml, "--tokenizer", "builtin",
                              "--ui-type", "none", "--artifact-dir", dir + "/out"},
                             120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json h = read_recipe_json(dir + "/out/search_history.json");
  EXPECT_EQ(h["boundary_summary"]["largest_feasible"], 3) << h;
  EXPECT_EQ(h["boundary_summary"]["smallest_infeasible"], 4);
  EXPECT_EQ(h["config"]["sla_filters"][0]["threshold"], 30.0);
}

}  // namespace
}  // namespace inferperf::testing
