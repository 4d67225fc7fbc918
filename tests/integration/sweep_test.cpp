// Sweeps and repeated runs end to end: the real binary against the mock server, each point and run
// in its own folder, the summaries read back against the per-run exports they were built from.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

json read_json(const std::string& path) {
  return json::parse(read_file(path));
}

ProcessResult profile(const MockServerProcess& mock, const std::string& dir,
                      const std::vector<std::string>& extra,
                      const std::vector<std::string>& env = {}) {
  std::vector<std::string> args = {INFERPERF_BIN,     "profile",   "-m",
                                   "mock-model",      "-u",        mock.url(),
                                   "--isl",           "16",        "--extra-inputs",
                                   "ignore_eos:true", "--ui-type", "none",
                                   "--artifact-dir",  dir};
  if (std::find(extra.begin(), extra.end(), "--osl") == extra.end()) {
    args.push_back("--osl");
    args.push_back("8");
  }
  // AIPerf 0.11 refuses --isl with an input file (the rows give the prompts).
  if (std::find(extra.begin(), extra.end(), "--input-file") != extra.end())
    args.erase(args.begin() + 6, args.begin() + 8);
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(args, 180s, "", env);
}

TEST(Sweep, ConcurrencyListRunsEachPointIntoItsFolderAndSummarises) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sweep-");
  const auto r =
      profile(mock, dir, {"--streaming", "--request-count", "12", "--concurrency", "1,2,4"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 36);
  const json s = read_json(dir + "/sweep_summary.json");
  EXPECT_EQ(s["metadata"]["sweep_type"], "grid");
  EXPECT_EQ(s["metadata"]["parameters"][0]["name"], "concurrency");
  ASSERT_EQ(s["points"].size(), 3u);
  const int levels[] = {1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    const auto& p = s["points"][i];
    const std::string folder = "concurrency_" + std::to_string(levels[i]);
    EXPECT_EQ(p["folder"], folder);
    EXPECT_EQ(p["label"], "concurrency=" + std::to_string(levels[i]));
    EXPECT_EQ(p["parameters"]["concurrency"], levels[i]);
    EXPECT_EQ(p["status"], "ok");
    // Each point is an ordinary run folder, and the summary carries its numbers.
    const json run = read_json(dir + "/" + folder + "/profile_export_aiperf.json");
    EXPECT_EQ(run["request_count"]["avg"], 12);
    EXPECT_EQ(run["input_config"]["phases"].back()["concurrency"], levels[i])
        << run["input_config"];
    // run_info (AIPerf 0.11): the run's place in the plan.
    const json& info = run["run_info"];
    EXPECT_EQ(info["trial"], 0);
    EXPECT_EQ(info["run_label"], "run_0001");
    EXPECT_EQ(info["variation_label"], "phases.profiling.concurrency=" + std::to_string(levels[i]));
    EXPECT_EQ(info["variation_index"], i);
    EXPECT_EQ(info["variation_values"].size(), 1u) << info;
    EXPECT_EQ(info["sweep_id"].get<std::string>().size(), 36u) << "a UUID4 shared by the plan";
    if (i > 0) {
      const json first = read_json(dir + "/concurrency_" + std::to_string(levels[0]) +
                                   "/profile_export_aiperf.json");
      EXPECT_EQ(info["sweep_id"], first["run_info"]["sweep_id"]);
    }
    EXPECT_DOUBLE_EQ(p["metrics"]["output_token_throughput"]["avg"].get<double>(),
                     run["output_token_throughput"]["avg"].get<double>());
    EXPECT_DOUBLE_EQ(p["metrics"]["inter_token_latency"]["p99"].get<double>(),
                     run["inter_token_latency"]["p99"].get<double>());
    EXPECT_TRUE(fs::exists(dir + "/" + folder + "/inferperf_records.jsonl"));
  }
  // The frontier is made of the points no other beats on both axes.
  const auto& front = s["pareto_frontier"]["throughput_vs_itl"];
  ASSERT_FALSE(front.empty());
  for (const auto& p : s["points"]) {
    bool beaten = false;
    const double thr = p["metrics"]["output_token_throughput"]["avg"];
    const double itl = p["metrics"]["inter_token_latency"]["avg"];
    for (const auto& q : s["points"]) {
      const double qt = q["metrics"]["output_token_throughput"]["avg"];
      const double qi = q["metrics"]["inter_token_latency"]["avg"];
      beaten |= qt >= thr && qi <= itl && (qt > thr || qi < itl);
    }
    EXPECT_EQ(p["pareto_throughput_vs_itl"].get<bool>(), !beaten) << p.dump();
  }
  const std::string csv = read_file(dir + "/sweep_summary.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(csv.find("\nconcurrency=4,concurrency_4,4,ok,1,1,"), std::string::npos) << csv;
  EXPECT_NE(r.out.find("inferperf | Sweep Summary"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir + "/logs/inferperf.log"));

  // AIPerf 0.11 with one trial per point: a single-run aggregate per point, and a sweep
  // aggregate keyed by the plain tags, with no best configuration and no Pareto point.
  const json agg = read_json(dir + "/aggregate/concurrency_4/profile_export_aiperf_aggregate.json");
  EXPECT_EQ(agg["metadata"]["single_run"], true);
  EXPECT_EQ(agg["metadata"]["variation_label"], "phases.profiling.concurrency=4");
  EXPECT_EQ(agg["metadata"]["variation_values"], json({{"phases.profiling.concurrency", 4}}));
  EXPECT_TRUE(agg["metrics"]["time_to_first_token_p99"]["t_critical"].is_null());
  const json sw = read_json(dir + "/sweep_aggregate/profile_export_aiperf_sweep.json");
  EXPECT_EQ(sw["aggregation_type"], "sweep");
  EXPECT_EQ(sw["metadata"]["num_combinations"], 3);
  ASSERT_EQ(sw["per_combination_metrics"].size(), 3u);
  const json& c2 = sw["per_combination_metrics"][1];
  EXPECT_EQ(c2["parameters"], json({{"phases.profiling.concurrency", 2}}));
  const json run2 = read_json(dir + "/concurrency_2/profile_export_aiperf.json");
  EXPECT_EQ(c2["metrics"]["request_throughput"]["mean"], run2["request_throughput"]["avg"]);
  EXPECT_EQ(sw["best_configurations"], json::object());
  EXPECT_EQ(sw["pareto_optimal"], json::array());
  const std::string swcsv = read_file(dir + "/sweep_aggregate/profile_export_aiperf_sweep.csv");
  EXPECT_NE(swcsv.find("\nPareto Optimal Points\nNone\n"), std::string::npos) << swcsv;
}

TEST(Sweep, RepeatedRunsShareTheSeedWarmOnceAndAggregate) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-runs-");
  const auto r =
      profile(mock, dir,
              {"--streaming", "--request-count", "10", "--concurrency", "2",
               "--warmup-request-count", "4", "--num-profile-runs", "3", "--random-seed", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // Warmup only in run 1 (--profile-run-disable-warmup-after-first defaults on).
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 4 + 3 * 10);
  std::vector<double> ttft;
  std::string first_inputs;
  for (int run = 1; run <= 3; ++run) {
    const std::string rd = dir + "/profile_runs/run_000" + std::to_string(run);
    const json j = read_json(rd + "/profile_export_aiperf.json");
    EXPECT_EQ(j["request_count"]["avg"], 10);
    ttft.push_back(j["time_to_first_token"]["avg"]);
    // One seed: the same dataset in every run.
    const std::string inputs = read_file(rd + "/inputs.json");
    if (run == 1) first_inputs = inputs;
    EXPECT_EQ(inputs, first_inputs) << rd;
  }
  const json agg = read_json(dir + "/aggregate/profile_export_aiperf_aggregate.json");
  EXPECT_EQ(agg["metadata"]["aggregation_type"], "confidence");
  EXPECT_EQ(agg["metadata"]["num_profile_runs"], 3);
  EXPECT_EQ(agg["metadata"]["num_successful_runs"], 3);
  EXPECT_EQ(agg["metadata"]["run_labels"], json({"run_0001", "run_0002", "run_0003"}));
  EXPECT_EQ(agg["schema_version"], "1.0");
  EXPECT_FALSE(agg["metadata"].contains("single_run"));
  // What a user's script reads: agg['metrics']['time_to_first_token_p99']['mean'].
  ASSERT_TRUE(agg["metrics"]["time_to_first_token_p99"]["mean"].is_number()) << agg.dump();
  const auto& t = agg["metrics"]["time_to_first_token_avg"];
  const double mean = (ttft[0] + ttft[1] + ttft[2]) / 3;
  EXPECT_NEAR(t["mean"].get<double>(), mean, 1e-9);
  EXPECT_DOUBLE_EQ(t["min"].get<double>(), *std::min_element(ttft.begin(), ttft.end()));
  EXPECT_NEAR(t["t_critical"].get<double>(), 4.3027, 1e-4);
  EXPECT_NEAR(t["ci_high"].get<double>() - t["mean"].get<double>(),
              t["t_critical"].get<double>() * t["se"].get<double>(), 1e-9);
  EXPECT_EQ(agg["metrics"]["request_count_avg"]["mean"], 10.0);
  const std::string csv = read_file(dir + "/aggregate/profile_export_aiperf_aggregate.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit");
  EXPECT_NE(csv.find("\nrequest_count_avg,10.00,0.00,10.00,10.00,0.0000,0.0000,10.00,10.00,"
                     "4.3027,requests\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\n\nAggregation Type,confidence\nTotal Runs,3\nSuccessful Runs,3\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nRun Labels,\"['run_0001', 'run_0002', 'run_0003']\"\n"), std::string::npos)
      << csv;
  EXPECT_NE(r.out.find("inferperf | 3 runs"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/sweep_summary.json"));  // repeated runs alone: no sweep
}

// --convergence-*: each point stops once its metric has converged (cv of the runs' TTFT averages
// against a fixed 20 ms mock: far below 0.2 after two runs), so 2 of the 4 allowed trials run;
// the aggregate says why and the collated file pools both runs' requests.
TEST(Sweep, ConvergenceStopsAPointsRunsEarlyAndCollatesThem) {
  MockServerProcess mock({"--ttft", "20", "--itl", "2"});
  const std::string dir = make_temp_dir("ip-converge-");
  const auto r = profile(mock, dir,
                         {"--streaming", "--request-count", "8", "--concurrency", "1,2",
                          "--num-profile-runs", "4", "--convergence-metric", "time_to_first_token",
                          "--convergence-mode", "cv", "--convergence-threshold", "0.2"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 2 * 2 * 8);
  for (const char* point : {"concurrency_1", "concurrency_2"}) {
    EXPECT_TRUE(fs::exists(dir + "/profile_runs/trial_0002/" + point));
    EXPECT_FALSE(fs::exists(dir + "/profile_runs/trial_0003/" + point));
    const std::string agg_dir = dir + "/aggregate/" + point;
    const json agg = read_json(agg_dir + "/profile_export_aiperf_aggregate.json");
    EXPECT_EQ(agg["metadata"]["num_profile_runs"], 4);
    EXPECT_EQ(agg["metadata"]["num_successful_runs"], 2);
    const json& c = agg["metadata"]["convergence"];
    EXPECT_EQ(c["converged"], true) << c;
    EXPECT_EQ(c["runs"], 2);
    EXPECT_EQ(c["mode"], "cv");
    EXPECT_LT(c["value"].get<double>(), 0.2);
    const json col = read_json(agg_dir + "/profile_export_aiperf_collated.json");
    EXPECT_EQ(col["schema_version"], "1.0.0");
    EXPECT_EQ(col["metrics"]["time_to_first_token"]["combined"]["count"], 16);
    EXPECT_EQ(col["metrics"]["time_to_first_token"]["per_run"].size(), 2u);
    EXPECT_NEAR(col["metrics"]["time_to_first_token"]["combined"]["mean"].get<double>(), 20, 5);
  }
  EXPECT_NE(r.out.find("converged after 2 run(s)"), std::string::npos) << r.out;
  // distribution needs the per-request export; refused before anything is sent.
  const auto bad = profile(
      mock, dir + "/x",
      {"--streaming", "--request-count", "8", "--num-profile-runs", "3", "--convergence-metric",
       "time_to_first_token", "--convergence-mode", "distribution", "--export-level", "summary"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.out.find("--convergence-mode distribution compares per-request values"),
            std::string::npos)
      << bad.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 2 * 2 * 8);
}

// A sweep with repeated trials, as AIPerf 0.11 lays it out: trial-major run order under
// profile_runs/trial_NNNN/<point>, per-point aggregates under aggregate/<point>/ and the sweep
// aggregate under aggregate/sweep_aggregate/. Two points x two trials of three requests.
TEST(Sweep, TrialsOfASweepAggregatePerPointAndAcrossTheSweep) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sweep-trials-");
  const auto r = profile(mock, dir,
                         {"--streaming", "--request-count", "3", "--request-rate", "200,400",
                          "--num-profile-runs", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 12);
  std::vector<double> thr;  // rate_400.0's request throughput in trials 1 and 2
  for (const char* trial : {"trial_0001", "trial_0002"}) {
    const std::string run = dir + "/profile_runs/" + trial + "/rate_400.0";
    const json j = read_json(run + "/profile_export_aiperf.json");
    EXPECT_EQ(j["input_config"]["phases"].back()["rate"], 400.0) << j["input_config"];
    EXPECT_EQ(j["run_info"]["trial"], std::string(trial) == "trial_0001" ? 0 : 1);
    thr.push_back(j["request_throughput"]["avg"]);
    EXPECT_TRUE(fs::exists(dir + "/profile_runs/" + trial + "/rate_200.0/profile_export.jsonl"));
  }
  const json agg = read_json(dir + "/aggregate/rate_400.0/profile_export_aiperf_aggregate.json");
  EXPECT_EQ(agg["metadata"]["run_labels"], json({"trial_0001", "trial_0002"}));
  EXPECT_EQ(agg["metadata"]["sweep_mode"], "repeated");
  EXPECT_EQ(agg["metadata"]["model"], "mock-model");
  const json& m = agg["metrics"]["request_throughput_avg"];
  EXPECT_NEAR(m["mean"].get<double>(), (thr[0] + thr[1]) / 2, 1e-9);
  EXPECT_NEAR(m["t_critical"].get<double>(), 12.7062, 1e-4);  // t(0.975, 1 dof)
  const json sw = read_json(dir + "/aggregate/sweep_aggregate/profile_export_aiperf_sweep.json");
  EXPECT_EQ(sw["num_profile_runs"], 4);
  EXPECT_EQ(sw["num_successful_runs"], 4);
  EXPECT_EQ(sw["metadata"]["sweep_parameters"],
            json::array({{{"name", "phases.profiling.rate"}, {"values", {200.0, 400.0}}}}));
  EXPECT_EQ(sw["metadata"]["num_trials_per_value"], 2);
  EXPECT_EQ(sw["per_combination_metrics"][1]["metrics"]["request_throughput_avg"]["mean"],
            m["mean"]);
  ASSERT_TRUE(sw["best_configurations"].contains("best_throughput")) << sw.dump();
  EXPECT_TRUE(sw["best_configurations"].contains("best_latency_p99"));
  EXPECT_FALSE(sw["pareto_optimal"].empty());
  EXPECT_FALSE(fs::exists(dir + "/sweep_aggregate"));
  EXPECT_TRUE(fs::exists(dir + "/aggregate/sweep_aggregate/profile_export_aiperf_sweep.csv"));

  // A sweep on a fixed schedule is refused before anything is sent.
  const std::string trace = dir + "/trace.jsonl";
  std::ofstream(trace) << "{\"timestamp\": 0, \"input_length\": 8, \"output_length\": 2}\n";
  const auto fixed = profile(mock, dir + "/fixed",
                             {"--concurrency", "1,2", "--input-file", trace,
                              "--custom-dataset-type", "mooncake_trace", "--fixed-schedule"});
  EXPECT_EQ(fixed.exit_code, 2) << fixed.out;
  EXPECT_NE(fixed.out.find("--no-fixed-schedule"), std::string::npos) << fixed.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 12);
}

// The salt each run sent, read from the payloads it wrote.
std::set<std::string> salts_in(const std::string& inputs_json) {
  std::set<std::string> out;
  const std::regex salt("\"cache_salt\": \"([0-9a-f]+)\"");
  for (std::sregex_iterator it(inputs_json.begin(), inputs_json.end(), salt), end; it != end; ++it)
    out.insert((*it)[1]);
  return out;
}

TEST(Sweep, GridOverTwoListsWithAFreshCacheSaltPerRun) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-grid-");
  // Seed 1133's first salt is 871926050550: all digits, the salt that was once sent as a number.
  const auto r = profile(
      mock, dir,
      {"--request-count", "4", "--concurrency", "1,2", "--osl", "4,6", "--cache-salt-per-run"},
      {"INFERPERF_CACHE_SALT_SEED=1133"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::set<std::string> all;
  // The osl axis (datasets.main.prompts.osl.mean) sorts first and names its part "mean".
  for (const char* folder : {"mean_4__concurrency_1", "mean_6__concurrency_1",
                             "mean_4__concurrency_2", "mean_6__concurrency_2"}) {
    const auto salts = salts_in(read_file(dir + "/" + folder + "/inputs.json"));
    ASSERT_EQ(salts.size(), 1u) << folder;
    EXPECT_EQ(salts.begin()->size(), 12u);
    all.insert(*salts.begin());
  }
  EXPECT_EQ(all.size(), 4u);  // one fresh salt per point
  EXPECT_EQ(all.count("871926050550"), 1u);
  const json osl6 = read_json(dir + "/mean_6__concurrency_2/profile_export_aiperf.json");
  EXPECT_EQ(osl6["output_sequence_length"]["avg"], 6);
  const json s = read_json(dir + "/sweep_summary.json");
  EXPECT_EQ(s["points"].size(), 4u);
  // The first axis (osl) turns slowest.
  EXPECT_EQ(s["points"][1]["parameters"], json({{"concurrency", 2}, {"osl", 4}}));
  EXPECT_EQ(s["metadata"]["cache_salt_per_run"], true);
}

TEST(Sweep, ZipPairsTheListsAndABadPointStopsEverythingBeforeSending) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-zip-");
  // The second point is refused (prefill concurrency above the concurrency; AIPerf 0.11 no
  // longer refuses a concurrency above the request count), so the first never runs.
  auto r = profile(mock, dir,
                   {"--request-count", "10", "--concurrency", "8,2", "--prefill-concurrency", "4",
                    "--streaming"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("at concurrency=2"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/concurrency_8"));
  r = profile(
      mock, dir,
      {"--request-count", "4", "--concurrency", "1,2", "--osl", "4,6,8", "--sweep-type", "zip"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--osl has 3 values but --concurrency has 2"), std::string::npos) << r.out;
  r = profile(mock, dir, {"--concurrency", "1,x"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("'x' in '1,x'"), std::string::npos) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);

  r = profile(
      mock, dir,
      {"--request-count", "4", "--concurrency", "1,2", "--osl", "4,6", "--sweep-type", "zip"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir + "/mean_4__concurrency_1/profile_export_aiperf.json"));
  EXPECT_TRUE(fs::exists(dir + "/mean_6__concurrency_2/profile_export_aiperf.json"));
  EXPECT_FALSE(fs::exists(dir + "/mean_6__concurrency_1"));
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 8);
}

TEST(Sweep, ASignalStopsTheSweepAfterThePointItInterrupts) {
  MockServerProcess mock({"--ttft", "5", "--itl", "5"});
  const std::string dir = make_temp_dir("ip-sweep-int-");
  BackgroundProcess p({INFERPERF_BIN,
                       "profile",
                       "-m",
                       "mock-model",
                       "-u",
                       mock.url(),
                       "--streaming",
                       "--isl",
                       "16",
                       "--osl",
                       "20",
                       "--extra-inputs",
                       "ignore_eos:true",
                       "--ui-type",
                       "none",
                       "--artifact-dir",
                       dir,
                       "--concurrency",
                       "1,2",
                       "--benchmark-duration",
                       "20"},
                      dir + "/../" + fs::path(dir).filename().string() + ".log");
  // Wait until the first point is sending, then stop it as a job manager would (kill -INT).
  for (int i = 0; i < 200 && !fs::exists(dir + "/concurrency_1/inputs.json"); ++i)
    std::this_thread::sleep_for(50ms);
  std::this_thread::sleep_for(1s);
  p.signal(SIGINT);
  EXPECT_EQ(p.wait(60s), 130);
  EXPECT_TRUE(fs::exists(dir + "/concurrency_1/profile_export_aiperf.json"));
  EXPECT_FALSE(fs::exists(dir + "/concurrency_2"));
  const json s = read_json(dir + "/sweep_summary.json");
  ASSERT_EQ(s["points"].size(), 1u);
  EXPECT_EQ(s["points"][0]["status"], "ok");
  EXPECT_GT(s["points"][0]["metrics"]["request_count"]["avg"].get<double>(), 0);
}

TEST(Sweep, OneRunTakesTheSaltAndNoWarmupAndKeepsTheTypedCommand) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-one-");
  const auto r = profile(mock, dir,
                         {"--request-count", "5", "--concurrency", "1", "--cache-salt-per-run",
                          "--warmup-request-count", "3", "--no-warmup"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 5);
  EXPECT_EQ(salts_in(read_file(dir + "/inputs.json")).size(), 1u);
  const json j = read_json(dir + "/profile_export_aiperf.json");
  const std::string cmd = j["run_info"]["cli_command"];
  EXPECT_NE(cmd.find("--cache-salt-per-run --warmup-request-count 3 --no-warmup"),
            std::string::npos)
      << cmd;
  const auto twice =
      profile(mock, dir, {"--cache-salt-per-run", "--extra-inputs", "cache_salt:ab"});
  EXPECT_EQ(twice.exit_code, 2) << twice.out;
  EXPECT_NE(twice.out.find("both set the cache salt"), std::string::npos) << twice.out;
}

TEST(Sweep, AutoPlotDrawsTheSweepAtTheEnd) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-autoplot-");
  const auto r = profile(
      mock, dir, {"--streaming", "--request-count", "6", "--concurrency", "1,2", "--auto-plot"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("--auto-plot: inferperf plot " + dir), std::string::npos) << r.out;
  // The sweep's own chart, over both points, and the report that inlines it.
  EXPECT_GT(fs::file_size(dir + "/plots/output_token_throughput_vs_itl.png"), 1000u);
  const std::string html = read_file(dir + "/plots/report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("c=2"), std::string::npos);
  // A single run plots its own folder.
  const std::string one = make_temp_dir("ip-autoplot-one-");
  const auto r1 = profile(mock, one, {"--streaming", "--request-count", "4", "--auto-plot"});
  ASSERT_EQ(r1.exit_code, 0) << r1.out;
  EXPECT_TRUE(fs::exists(one + "/plots/report.html")) << r1.out;
  EXPECT_TRUE(fs::exists(one + "/plots/ttft_over_time.png")) << r1.out;
}

TEST(Sweep, WithoutAnArtifactDirTheRootIsNamedForTheSweep) {
  MockServerProcess mock({"--fast"});
  const std::string cwd = make_temp_dir("ip-sweep-cwd-");
  const auto r = run_process({INFERPERF_BIN,
                              "profile",
                              "-m",
                              "org/mock-model",
                              "-u",
                              mock.url(),
                              "--isl",
                              "16",
                              "--osl",
                              "4",
                              "--ui-type",
                              "none",
                              "--request-count",
                              "3",
                              "--concurrency",
                              "1,2",
                              "--request-rate",
                              "50,100",
                              "--tokenizer",
                              "builtin"},
                             120s, cwd);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string root =
      cwd + "/artifacts/org_mock-model-openai-chat-sweep-concurrency-request_rate";
  EXPECT_TRUE(fs::exists(root + "/sweep_summary.json")) << r.out;
  EXPECT_TRUE(fs::exists(root + "/concurrency_2__rate_100.0/profile_export_aiperf.json"));
  EXPECT_EQ(read_json(root + "/sweep_summary.json")["points"].size(), 4u);
}

TEST(Sweep, ARunWhoseInputIsRefusedStopsTheSweep) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sweep-bad-");
  // Found only when the run starts: the tokenizer of a model name nobody has.
  const auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "org/no-such-model", "-u", mock.url(), "--ui-type", "none",
       "--request-count", "3", "--concurrency", "1,2", "--artifact-dir", dir},
      120s);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("no tokenizer found"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the remaining runs are not started"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/concurrency_2"));
  const json s = read_json(dir + "/sweep_summary.json");
  ASSERT_EQ(s["points"].size(), 1u);
  EXPECT_EQ(s["points"][0]["status"], "failed");
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(Sweep, TracePromotionAndTheDashboardAreRefusedBeforeSending) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-sweep-refused-");
  // Timestamped rows would replay on a fixed schedule: refused by the first run, no other starts.
  const std::string trace = dir + "/trace.jsonl";
  std::ofstream(trace) << "{\"timestamp\": 0, \"input_length\": 8, \"output_length\": 2}\n"
                       << "{\"timestamp\": 5, \"input_length\": 8, \"output_length\": 2}\n"
                       << "{\"timestamp\": 9, \"input_length\": 8, \"output_length\": 2}\n";
  auto r = profile(
      mock, dir + "/trace",
      {"--concurrency", "1,2", "--input-file", trace, "--custom-dataset-type", "mooncake_trace"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot run on a fixed schedule: add --no-fixed-schedule"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the remaining runs are not started"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/trace/concurrency_2"));
  // An explicit dashboard with a sweep, or with repeated runs: refused before any folder exists.
  for (const std::vector<std::string>& plan :
       {std::vector<std::string>{"--concurrency", "1,2"}, {"--num-profile-runs", "2"}}) {
    std::vector<std::string> args = {
        INFERPERF_BIN, "profile",         "-m", "mock-model",     "-u",         mock.url(), "--ui",
        "dashboard",   "--request-count", "2",  "--artifact-dir", dir + "/dash"};
    args.insert(args.end(), plan.begin(), plan.end());
    r = run_process(args, 60s);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("--ui-type dashboard cannot be used with a sweep"), std::string::npos)
        << r.out;
    EXPECT_FALSE(fs::exists(dir + "/dash"));
  }
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(Sweep, DryRunChecksEveryRunAndSendsNothing) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-dry-");
  fs::remove(dir);
  auto r = profile(mock, dir,
                   {"--request-count", "5", "--concurrency", "1,2", "--num-profile-runs", "2",
                    "--warmup-request-count", "2", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("dry run: 2 point(s) x 2 run(s)"), std::string::npos) << r.out;
  // Repeated trials: profile_runs/trial_NNNN/<point>; seed 42 plus the point's index.
  EXPECT_NE(r.out.find("--concurrency 2 --artifact-dir '" + dir +
                       "/profile_runs/trial_0002/concurrency_2' --random-seed 43 --no-warmup"),
            std::string::npos)
      << r.out;
  // A concurrency list is never inherited by the warmup: every point warms up at 1.
  EXPECT_NE(r.out.find("--warmup-request-count 2 --warmup-concurrency 1 --concurrency 2 "),
            std::string::npos)
      << r.out;
  r = profile(mock, dir,
              {"--request-count", "5", "--concurrency", "1,2", "--num-profile-runs", "2",
               "--parameter-sweep-mode", "independent", "--random-seed", "7", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("--concurrency 2 --artifact-dir '" + dir +
                       "/concurrency_2/profile_runs/trial_0001' --random-seed 8\n"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir));
  r = profile(mock, dir, {"--request-count", "5", "--concurrency", "3", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("profiling: concurrency 3, 5 requests"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("artifact folder: " + dir), std::string::npos) << r.out;
  // A bad second point (prefill concurrency above it; AIPerf 0.11 takes a concurrency above the
  // request count).
  r = profile(mock, dir,
              {"--request-count", "5", "--concurrency", "9,1", "--prefill-concurrency", "2",
               "--streaming", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("at concurrency=1"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(Sweep, HelpListsTheSweepOptions) {
  const auto r = run_process({INFERPERF_BIN, "profile", "--help"}, 30s);
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag :
       {"Sweeps and repeated runs", "--num-profile-runs", "--sweep-type", "--cache-salt-per-run",
        "--auto-plot", "--confidence-level", "--parameter-sweep-mode",
        "--parameter-sweep-same-seed,--no-parameter-sweep-same-seed",
        "--parameter-sweep-cooldown-seconds", "Requests to send (a comma list sweeps)"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace inferperf::testing
