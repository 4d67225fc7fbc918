// `inferperf plot` as a user runs it: the real binary on copies of the committed fixtures
// (tests/data/plot), every layout, the errors, and the --dashboard server over 127.0.0.1.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "png_probe.hpp"
#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

const fs::path kData = fs::path(INFERPERF_SOURCE_DIR) / "tests/data/plot";

bool have_gnuplot() {
  return run_process({"/bin/sh", "-c", "command -v gnuplot"}, 10s).exit_code == 0;
}

// The charts need gnuplot; the refusals happen before it is looked for.
#define REQUIRE_GNUPLOT() \
  if (!have_gnuplot()) GTEST_SKIP() << "gnuplot not installed (scripts/install-deps.sh)"

class PlotCommand : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_temp_dir("ip-plot-"); }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // A copy of a fixture folder in the test's own folder, so default outputs land there.
  fs::path copy(const std::string& fixture, const std::string& as) {
    fs::copy(kData / fixture, dir_ / as, fs::copy_options::recursive);
    return dir_ / as;
  }
  static json manifest(const fs::path& out) {
    return json::parse(read_file((out / "plots.json").string()));
  }
  static std::vector<std::string> chart_names(const json& m) {
    std::vector<std::string> names;
    for (const auto& c : m["charts"]) names.push_back(c["name"]);
    return names;
  }
  fs::path dir_;
};

TEST_F(PlotCommand, SweepWritesEveryChartAndTheReport) {
  REQUIRE_GNUPLOT();
  const fs::path sweep = copy("sweep", "sweep");
  const auto r = run_process({INFERPERF_BIN, "plot", sweep.string()}, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("from 4 runs (3 configurations)"), std::string::npos) << r.out;
  const fs::path out = sweep / "plots";  // the default: <first path>/plots
  const json m = manifest(out);
  const auto names = chart_names(m);
  EXPECT_GE(names.size(), 26u);
  ASSERT_EQ(m["points"].size(), 3u);
  EXPECT_EQ(m["points"][1]["label"], "c=2");
  EXPECT_EQ(m["points"][1]["runs"].size(), 2u);
  const std::string html = read_file((out / "report.html").string());
  for (const auto& name : names) {
    const auto img = read_png((out / (name + ".png")).string());
    EXPECT_EQ(img.width, 1600) << name;
    // NVIDIA green is the first run's colour; every chart draws that run. The area is inside
    // the fixed plot margins (gnuplot.hpp).
    EXPECT_GT(count_colour_pixels(img, {"#76b900"}, 0.08, 0.1, 0.73, 0.88), 50u) << name;
    EXPECT_TRUE(fs::exists(out / (name + ".svg"))) << name;
    EXPECT_TRUE(fs::exists(out / "gnuplot" / (name + ".gp"))) << name;
    EXPECT_NE(html.find("data-chart=\"" + name + "\""), std::string::npos) << name;
  }
  // Running again replaces the output in place.
  const auto again = run_process({INFERPERF_BIN, "plot", sweep.string()}, 120s);
  ASSERT_EQ(again.exit_code, 0) << again.out;
}

TEST_F(PlotCommand, ReferenceWorkflowLayoutFromTheDefaultPath) {
  REQUIRE_GNUPLOT();
  copy("workflow", "artifacts");
  const auto r = run_process({INFERPERF_BIN, "plot", "--verbose"}, 120s, dir_.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json m = manifest(dir_ / "artifacts/plots");
  const auto names = chart_names(m);
  for (const char* want : {"pareto_curve_throughput_per_gpu_vs_latency",
                           "output_token_throughput_vs_itl", "ttft_cdf", "ttft_over_time"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  // No raw records, no telemetry in these runs: those charts are skipped and --verbose says why.
  EXPECT_EQ(std::find(names.begin(), names.end(), "dispatch_timeline"), names.end());
  EXPECT_NE(r.out.find("not drawn: dispatch_timeline: no run has raw records"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("not drawn: gpu_utilization_and_throughput_over_time"), std::string::npos);
  EXPECT_NE(r.out.find("c=4: 1 run(s) in c4"), std::string::npos) << r.out;
  const std::string html = read_file((dir_ / "artifacts/plots/report.html").string());
  EXPECT_NE(html.find("<td>c=1</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>c=4</td>"), std::string::npos);
}

TEST_F(PlotCommand, PlottingAgainRemovesOnlyChartsItNoLongerDraws) {
  REQUIRE_GNUPLOT();
  const fs::path out = dir_ / "out";
  fs::create_directories(out);
  std::ofstream(out / "notes.png") << "the user's own file";
  auto r = run_process(
      {INFERPERF_BIN, "plot", (kData / "sweep").string(), "--output", out.string()}, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(fs::exists(out / "dispatch_timeline.png"));
  r = run_process({INFERPERF_BIN, "plot", (kData / "workflow").string(), "--output", out.string()},
                  120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(fs::exists(out / "dispatch_timeline.png"));  // no raw records in workflow/
  EXPECT_FALSE(fs::exists(out / "dispatch_timeline.svg"));
  EXPECT_FALSE(fs::exists(out / "gnuplot/dispatch_timeline.gp"));
  EXPECT_TRUE(fs::exists(out / "ttft_cdf.png"));
  EXPECT_EQ(read_file((out / "notes.png").string()), "the user's own file");
}

TEST_F(PlotCommand, SingleRunDarkThemeToAnOutputFolder) {
  REQUIRE_GNUPLOT();
  const fs::path out = dir_ / "out";
  const auto r = run_process({INFERPERF_BIN, "plot", (kData / "sweep/concurrency_1").string(),
                              "--output", out.string(), "--theme", "dark"},
                             120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json m = manifest(out);
  EXPECT_EQ(m["theme"], "dark");
  const auto names = chart_names(m);
  EXPECT_NE(std::find(names.begin(), names.end(), "ttft_timeline"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "ttft_vs_throughput"), names.end());
  const auto img = read_png((out / "ttft_timeline.png").string());
  EXPECT_EQ(count_colour_pixels(img, {"#161616"}, 0, 0, 0.01, 0.01, 0), 128u);
  EXPECT_NE(read_file((out / "report.html").string()).find("color-scheme: dark"),
            std::string::npos);
}

TEST_F(PlotCommand, SloAttainmentAnswersASweepAgainstSlaFilters) {
  REQUIRE_GNUPLOT();
  // Runs beside the SLA verdicts of a sweep with two filters (tests/data/plot/slo): capacity 3.
  const fs::path sweep = copy("workflow", "sweep");
  fs::copy_file(kData / "slo/sweep/sweep_summary.json", sweep / "sweep_summary.json");
  auto r = run_process({INFERPERF_BIN, "plot", sweep.string()}, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const fs::path out = sweep / "plots";
  json m = manifest(out);
  ASSERT_EQ(m["charts"][0]["name"], "slo_attainment");  // the answer comes first
  EXPECT_EQ(m["charts"][0]["title"], "SLO attainment: capacity is concurrency 3");
  const auto img = read_png((out / "slo_attainment.png").string());
  EXPECT_EQ(img.width, 1600);
  // The two filters' lines, the red crosses of the failing points, the grey reference lines.
  for (const char* colour : {"#76b900", "#1f6fc5", "#d62728", "#555555"})
    EXPECT_GT(count_colour_pixels(img, {colour}, 0.08, 0.1, 0.73, 0.88), 50u) << colour;
  const std::string html = read_file((out / "report.html").string());
  EXPECT_NE(html.find("data-chart=\"slo_attainment\""), std::string::npos);
  EXPECT_NE(html.find("concurrency 4 breaks inter_token_latency p99 &lt; 30 (36, 120 % of the "
                      "threshold)"),
            std::string::npos);

  // Two swept parameters: no load axis, so no chart; --verbose says why and the old one goes.
  fs::copy_file(kData / "slo/sweep_grid/sweep_summary.json", sweep / "sweep_summary.json",
                fs::copy_options::overwrite_existing);
  r = run_process({INFERPERF_BIN, "plot", sweep.string(), "--verbose"}, 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("not drawn: slo_attainment: " + (sweep / "sweep_summary.json").string() +
                       " varies 2 parameters (concurrency, isl)"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out / "slo_attainment.png"));
}

TEST_F(PlotCommand, BadInputIsRefusedByName) {
  const std::string missing = (dir_ / "no-such-run").string();
  auto r = run_process({INFERPERF_BIN, "plot", missing}, 30s);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find(missing + ": no such file or folder"), std::string::npos) << r.out;

  r = run_process({INFERPERF_BIN, "plot", "--config", "presets.yaml"}, 30s);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("not supported yet (no plot presets)"), std::string::npos) << r.out;

  r = run_process({INFERPERF_BIN, "plot", "--theme", "pink"}, 30s);
  EXPECT_EQ(r.exit_code, 2) << r.out;

  fs::create_directories(dir_ / "empty/child");
  r = run_process({INFERPERF_BIN, "plot", (dir_ / "empty").string()}, 30s);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("no run found"), std::string::npos) << r.out;

  const fs::path broken = copy("workflow/c1", "broken");
  std::ofstream(broken / "profile_export.jsonl", std::ios::app) << "{\"metadata\": 3\n";
  r = run_process({INFERPERF_BIN, "plot", broken.string()}, 30s);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(profile_export\.jsonl:17: not valid JSON)")))
      << r.out;
}

TEST_F(PlotCommand, MissingGnuplotIsAClearError) {
  const auto r = run_process(
      {INFERPERF_BIN, "plot", (kData / "workflow").string(), "--output", (dir_ / "out").string()},
      30s, "", {"INFERPERF_GNUPLOT=/nonexistent/gnuplot"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("not found (install the gnuplot-nox package)"), std::string::npos) << r.out;
}

TEST_F(PlotCommand, DashboardServesTheReportUntilSigterm) {
  REQUIRE_GNUPLOT();
  const fs::path out = dir_ / "out";
  const std::string log = (dir_ / "dashboard.log").string();
  BackgroundProcess server({INFERPERF_BIN, "plot", (kData / "workflow").string(), "--output",
                            out.string(), "--dashboard", "--host", "127.0.0.1", "--port", "0"},
                           log);
  const std::regex listening(R"(dashboard listening on http://127\.0\.0\.1:([0-9]+)/)");
  std::smatch m;
  std::string text;
  for (int i = 0; i < 600 && !std::regex_search(text, m, listening); ++i) {
    std::this_thread::sleep_for(100ms);
    text = read_file(log);
  }
  ASSERT_TRUE(std::regex_search(text, m, listening)) << text;
  const int port = std::stoi(m[1].str());
  // A second server on the same port is refused by name.
  const auto busy =
      run_process({INFERPERF_BIN, "plot", (kData / "workflow").string(), "--output",
                   (dir_ / "out2").string(), "--dashboard", "--port", std::to_string(port)},
                  120s);
  EXPECT_EQ(busy.exit_code, 2);
  EXPECT_NE(busy.out.find("cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << busy.out;
  auto page = http_get(port, "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.body, read_file((out / "report.html").string()));
  auto png = http_get(port, "/ttft_cdf.png");
  EXPECT_EQ(png.status, 200);
  EXPECT_EQ(png.body.substr(1, 3), "PNG");
  EXPECT_EQ(http_get(port, "/../dashboard.log").status, 404);
  EXPECT_EQ(http_get(port, "/nothing.svg").status, 404);
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(30s), 0) << read_file(log);
}

}  // namespace
}  // namespace inferperf::testing
