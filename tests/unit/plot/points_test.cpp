#include "plot/points.hpp"

#include <gtest/gtest.h>

#include "plot/plot_cli.hpp"
#include "plot/run_data.hpp"

namespace inferperf::plot {
namespace {

Point point(const std::string& name, RunParams params, std::vector<double> throughputs) {
  Point p;
  p.name = name;
  for (double t : throughputs) {
    RunData r;
    r.params = params;
    r.summary = {{"output_token_throughput", {{"avg", t}}}};
    p.runs.push_back(std::move(r));
  }
  return p;
}

TEST(PlotPoints, FolderNamesGiveSweepParameters) {
  const auto p = params_from_folder_name("concurrency_4-isl_128");
  EXPECT_EQ(p.concurrency, 4);
  EXPECT_EQ(p.isl, 128);
  EXPECT_FALSE(p.osl);
  EXPECT_EQ(params_from_folder_name("request_rate_2.5").request_rate, 2.5);
  // AIPerf 0.11's variation folders: the config path's last part, "__" between parameters.
  EXPECT_EQ(params_from_folder_name("rate_5.0").request_rate, 5.0);
  const auto joined = params_from_folder_name("mean_512__concurrency_8");
  EXPECT_EQ(joined.concurrency, 8);
  EXPECT_FALSE(joined.isl) << "mean_ may be the ISL or the OSL";
  EXPECT_EQ(params_from_folder_name("osl_64").osl, 64);
  EXPECT_EQ(params_from_folder_name("c16").concurrency, 16);
  EXPECT_FALSE(params_from_folder_name("concurrency_4-banana").concurrency);
  EXPECT_FALSE(params_from_folder_name("mock-model-openai-chat-concurrency8").concurrency);
}

TEST(PlotPoints, InputConfigGivesParameters) {
  const auto ic = nlohmann::json::parse(R"({"endpoint":{"model_names":["qwen"]},
    "input":{"prompt":{"input_tokens":{"mean":100,"stddev":0},"output_tokens":{"mean":20}}},
    "loadgen":{"request_rate":5.0,"arrival_pattern":"poisson"}})");
  const auto p = params_from_input_config(ic);
  EXPECT_EQ(p.request_rate, 5.0);
  EXPECT_FALSE(p.concurrency);
  EXPECT_EQ(p.isl, 100);
  EXPECT_EQ(p.osl, 20);
  EXPECT_EQ(p.model, "qwen");
}

TEST(PlotPoints, ResolvedInputConfigOfAiperf011GivesParameters) {
  const auto ic = nlohmann::json::parse(R"({"models":{"items":[{"name":"llama"}]},
    "datasets":[{"name":"main","type":"synthetic","prompts":{"isl":{"mean":256},"osl":{"mean":64}}}],
    "phases":[{"name":"warmup","type":"concurrency","concurrency":1,"requests":4},
              {"name":"profiling","type":"poisson","rate":7.5,"concurrency":16}]})");
  const auto p = params_from_input_config(ic);
  EXPECT_EQ(p.model, "llama");
  EXPECT_EQ(p.request_rate, 7.5) << "the profiling phase, not the warmup";
  EXPECT_EQ(p.concurrency, 16);
  EXPECT_EQ(p.isl, 256);
  EXPECT_EQ(p.osl, 64);
  const auto closed = params_from_input_config(nlohmann::json::parse(
      R"({"phases":[{"name":"profiling","type":"concurrency","concurrency":8,"requests":80}]})"));
  EXPECT_EQ(closed.concurrency, 8);
  EXPECT_FALSE(closed.request_rate);
}

TEST(PlotPoints, LabelsNameWhatVariesAndSortByIt) {
  RunParams a, b, c;
  a.concurrency = b.concurrency = 4;
  c.concurrency = 8;
  a.isl = 512;
  b.isl = 128;
  c.isl = 128;
  a.osl = b.osl = c.osl = 64;  // the same everywhere: not in the label
  std::vector<Point> pts = {point("x", a, {1}), point("y", b, {2}), point("z", c, {3})};
  label_and_sort(pts);
  EXPECT_EQ(pts[0].label, "c=4, isl=128");
  EXPECT_EQ(pts[1].label, "c=4, isl=512");
  EXPECT_EQ(pts[2].label, "c=8, isl=128");
}

TEST(PlotPoints, NothingVaryingFallsBackToFolderNames) {
  RunParams same;
  same.concurrency = 2;
  std::vector<Point> pts = {point("model-a", same, {1}), point("model-b", same, {1})};
  label_and_sort(pts);
  EXPECT_EQ(pts[0].label, "model-a");
  std::vector<Point> one = {point("only", same, {1})};
  label_and_sort(one);
  EXPECT_EQ(one[0].label, "c=2");
}

TEST(PlotPoints, MeansAndRunSeries) {
  RunParams p;
  p.concurrency = 2;
  std::vector<Point> pts = {point("concurrency_2", p, {10, 20})};
  label_and_sort(pts);
  EXPECT_DOUBLE_EQ(*pts[0].mean("output_token_throughput"), 15);
  EXPECT_FALSE(pts[0].mean("request_latency"));
  EXPECT_DOUBLE_EQ(pts[0].gpus_or_one(), 1);
  const auto series = run_series(pts);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[1].label, "c=2 run 2");
  EXPECT_EQ(series[1].color, 1u);
}

TEST(PlotCli, DefaultsFlagsAndRefusals) {
  auto cmd = parse_plot_command({});
  ASSERT_TRUE(cmd.run);
  EXPECT_TRUE(cmd.options.paths.empty());
  EXPECT_EQ(cmd.options.port, 8050);
  EXPECT_EQ(cmd.options.host, "127.0.0.1");
  cmd = parse_plot_command(
      {"a", "b", "--output", "out", "--theme", "dark", "--dashboard", "--port", "0", "--verbose"});
  ASSERT_TRUE(cmd.run) << cmd.message;
  EXPECT_EQ(cmd.options.paths, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(cmd.options.output, "out");
  EXPECT_EQ(cmd.options.theme, "dark");
  EXPECT_TRUE(cmd.options.dashboard);
  EXPECT_TRUE(cmd.options.verbose);
  EXPECT_EQ(cmd.options.port, 0);
  cmd = parse_plot_command({"--config", "p.yaml"});
  EXPECT_FALSE(cmd.run);
  EXPECT_EQ(cmd.exit_code, 2);
  EXPECT_NE(cmd.message.find("not supported yet (no plot presets)"), std::string::npos);
  cmd = parse_plot_command(
      {"--mlflow-upload", "--mlflow-tracking-uri", "http://h:5000", "--mlflow-run-id", "r1"});
  ASSERT_TRUE(cmd.run) << cmd.message;
  EXPECT_TRUE(cmd.options.mlflow_upload);
  EXPECT_EQ(cmd.options.mlflow_tracking_uri, "http://h:5000");
  EXPECT_EQ(cmd.options.mlflow_run_id, "r1");
  EXPECT_FALSE(parse_plot_command({"--mlflow-upload", "--no-mlflow-upload"}).options.mlflow_upload);
  cmd = parse_plot_command({"--mlflow-upload", "--dashboard"});
  EXPECT_EQ(cmd.exit_code, 2);
  EXPECT_NE(cmd.message.find("--mlflow-upload and --dashboard"), std::string::npos);
  cmd = parse_plot_command({"--mlflow-run-id", "r1"});
  EXPECT_EQ(cmd.exit_code, 2);
  EXPECT_NE(cmd.message.find("--mlflow-run-id needs --mlflow-upload"), std::string::npos);
  EXPECT_EQ(output_folder(PlotOptions{}), "./artifacts/plots");
  cmd = parse_plot_command({"--paths", "a", "b", "--verbose", "--no-verbose", "--no-dashboard"});
  ASSERT_TRUE(cmd.run) << cmd.message;
  EXPECT_EQ(cmd.options.paths, (std::vector<std::string>{"a", "b"})) << "AIPerf's --paths form";
  EXPECT_FALSE(cmd.options.verbose);
  EXPECT_FALSE(cmd.options.dashboard);
  cmd = parse_plot_command({"--theme", "pink"});
  EXPECT_EQ(cmd.exit_code, 2);
  cmd = parse_plot_command({"--bogus"});
  EXPECT_EQ(cmd.exit_code, 2);
  cmd = parse_plot_command({"--help"});
  EXPECT_FALSE(cmd.run);
  EXPECT_EQ(cmd.exit_code, 0);
  EXPECT_NE(cmd.message.find("--dashboard"), std::string::npos);
}

}  // namespace
}  // namespace inferperf::plot
