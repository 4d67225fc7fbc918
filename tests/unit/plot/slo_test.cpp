// slo_attainment: the SLA verdicts of a sweep and a search read from the fixtures in
// tests/data/plot/slo (percentages of the threshold, pass/fail, the boundary, the skips), and the
// chart drawn by the real gnuplot.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>

#include "plot/charts.hpp"
#include "plot/gnuplot.hpp"
#include "plot/plot_error.hpp"
#include "plot/slo.hpp"
#include "plot/theme.hpp"
#include "png_probe.hpp"

#include "../test_files.hpp"

namespace inferperf::plot {
namespace {

namespace fs = std::filesystem;
const fs::path kSloData = fs::path(INFERPERF_SOURCE_DIR) / "tests/data/plot/slo";

SloData read_ok(const fs::path& file) {
  SloRead r = read_slo_file(file);
  EXPECT_TRUE(r.skip_reason.empty()) << r.skip_reason;
  if (!r.data) throw std::runtime_error("no SLO data in " + file.string());
  return std::move(*r.data);
}

std::vector<double> loads(const SloData& d) {
  std::vector<double> out;
  for (const auto& p : d.points) out.push_back(p.load);
  return out;
}

const Series* series_titled(const Chart& c, const std::string& prefix) {
  for (const auto& s : c.series)
    if (s.title.rfind(prefix, 0) == 0) return &s;
  return nullptr;
}

SloPoint verdict(double load, bool meets) {
  SloPoint p;
  p.load = load;
  p.meets = meets;
  return p;
}

TEST(PlotSlo, SweepPercentagesVerdictsAndBoundary) {
  const SloData d = read_ok(kSloData / "sweep/sweep_summary.json");
  EXPECT_FALSE(d.search);
  EXPECT_EQ(d.axis, "concurrency");
  ASSERT_EQ(d.filters.size(), 2u);
  EXPECT_EQ(d.filters[0].describe(), "inter_token_latency p99 < 30");
  EXPECT_TRUE(d.filters[0].upper_bound());
  EXPECT_EQ(d.filters[1].describe(), "output_token_throughput_per_user avg > 25");
  EXPECT_FALSE(d.filters[1].upper_bound());
  EXPECT_EQ(loads(d), (std::vector<double>{1, 2, 3, 4, 6}));
  // ITL p99 5, 15, 25.5, 36, 55.5 against 30; per-user throughput 60 ... 19 against 25.
  const std::vector<double> itl = {16.6667, 50, 85, 120, 185};
  const std::vector<double> otpu = {240, 180, 144, 112, 76};
  for (std::size_t i = 0; i < d.points.size(); ++i) {
    EXPECT_NEAR(d.points[i].percent[0], itl[i], 1e-3) << i;
    EXPECT_NEAR(d.points[i].percent[1], otpu[i], 1e-3) << i;
  }
  EXPECT_EQ(d.points[3].passed, (std::vector<bool>{false, true}));
  EXPECT_EQ(d.points[4].passed, (std::vector<bool>{false, false}));
  EXPECT_TRUE(d.points[2].meets);
  EXPECT_FALSE(d.points[3].meets);
  ASSERT_TRUE(d.boundary && d.first_failure);
  EXPECT_EQ(*d.boundary, 3);
  EXPECT_EQ(*d.first_failure, 4);
  EXPECT_TRUE(d.passing_above.empty());

  const Chart c = slo_chart(d, "slo_attainment");
  EXPECT_EQ(c.title, "SLO attainment: capacity is concurrency 3");
  EXPECT_EQ(c.subtitle,
            "concurrency 4 breaks inter_token_latency p99 < 30 (36, 120 % of the threshold)");
  const Series* itl_series = series_titled(c, "inter_token_latency p99 < 30 (passes below");
  ASSERT_NE(itl_series, nullptr);
  EXPECT_EQ(itl_series->x, (std::vector<double>{1, 2, 3, 4, 6}));
  EXPECT_EQ(itl_series->color, 0u);  // NVIDIA green, as every chart's first series
  ASSERT_NE(series_titled(c, "output_token_throughput_per_user avg > 25 (passes above"), nullptr);
  // Crosses: ITL at 4 and 6, per-user throughput at 6.
  const Series* fails = series_titled(c, "breaks its SLO");
  ASSERT_NE(fails, nullptr);
  EXPECT_EQ(fails->x, (std::vector<double>{4, 6, 6}));
  EXPECT_NEAR(fails->y[0], 120, 1e-9);
  EXPECT_NE(fails->point_type, 0);
  const Series* limit = series_titled(c, "SLO threshold (100 %)");
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->x, (std::vector<double>{1, 6}));
  EXPECT_EQ(limit->y, (std::vector<double>{100, 100}));
  const Series* cap = series_titled(c, "capacity:");
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(cap->x, (std::vector<double>{3, 3}));
  EXPECT_GT(cap->y[1], 240);  // above every point
  EXPECT_EQ(cap->labels.back(), "capacity: concurrency 3");
}

TEST(PlotSlo, SweepWithNoPassingPointHasNoCapacityLine) {
  const SloData d = read_ok(kSloData / "sweep_no_pass/sweep_summary.json");
  EXPECT_EQ(loads(d), (std::vector<double>{2, 4, 8}));
  EXPECT_NEAR(d.points[0].percent[0], 150, 1e-9);
  EXPECT_NEAR(d.points[1].percent[0], 250, 1e-9);
  EXPECT_TRUE(std::isnan(d.points[2].value[0]));  // every run failed: no value
  EXPECT_TRUE(std::isnan(d.points[2].percent[0]));
  for (const auto& p : d.points) EXPECT_FALSE(p.meets);
  EXPECT_FALSE(d.boundary);
  EXPECT_FALSE(d.first_failure);
  const Chart c = slo_chart(d, "slo_attainment");
  EXPECT_EQ(c.title, "SLO attainment: no concurrency meets every SLO");
  EXPECT_EQ(c.subtitle,
            "No passing point: every concurrency tried breaks at least one SLO; no value at "
            "concurrency 8");
  EXPECT_EQ(series_titled(c, "capacity:"), nullptr);
  EXPECT_EQ(series_titled(c, "breaks its SLO")->x, (std::vector<double>{2, 4}));
}

TEST(PlotSlo, MultiParameterSweepIsSkippedWithTheReason) {
  const SloRead r = read_slo_file(kSloData / "sweep_grid/sweep_summary.json");
  EXPECT_FALSE(r.data);
  EXPECT_NE(r.skip_reason.find("varies 2 parameters (concurrency, isl)"), std::string::npos)
      << r.skip_reason;
  ChartSet set;
  add_slo_charts({kSloData / "sweep_grid"}, set);
  EXPECT_TRUE(set.charts.empty());
  ASSERT_EQ(set.skipped.size(), 1u);
  EXPECT_EQ(set.skipped[0].name, "slo_attainment");
  EXPECT_EQ(set.skipped[0].reason, r.skip_reason);
}

TEST(PlotSlo, SearchPercentagesVerdictsAndBoundarySummary) {
  const SloData d = read_ok(kSloData / "search/search_history.json");
  EXPECT_TRUE(d.search);
  EXPECT_EQ(d.axis, "concurrency");  // phases.profiling.concurrency
  ASSERT_EQ(d.filters.size(), 1u);
  EXPECT_EQ(loads(d), (std::vector<double>{1, 3, 4, 6}));  // iterations ran 1, 6, 3, 4
  EXPECT_NEAR(d.points[1].percent[0], 83.4, 1e-9);
  EXPECT_NEAR(d.points[2].percent[0], 116.7333, 1e-3);
  EXPECT_EQ(d.points[2].passed, std::vector<bool>{false});
  EXPECT_TRUE(d.points[1].meets);
  EXPECT_FALSE(d.points[3].meets);
  EXPECT_EQ(d.boundary, 3);
  EXPECT_EQ(d.first_failure, 4);
  EXPECT_EQ(d.range_hi, 6);
  const Chart c = slo_chart(d, "slo_attainment");
  EXPECT_EQ(c.title, "SLO attainment: capacity is concurrency 3");
  EXPECT_EQ(c.subtitle,
            "concurrency 4 breaks inter_token_latency p99 < 30 (35.02, 117 % of the threshold)");
  EXPECT_EQ(series_titled(c, "capacity:")->x, (std::vector<double>{3, 3}));
}

TEST(PlotSlo, SearchEdgeCases) {
  const fs::path src = "search_history.json";
  // Two dimensions: skipped, naming them.
  auto two = nlohmann::json::parse(R"({"config":{"search_space":[{"path":"a.concurrency"},
      {"path":"b.isl"}],"sla_filters":[{"metric":"m","stat":"p99","op":"lt","threshold":5}]},
      "iterations":[],"boundary_summary":null})");
  SloRead r = slo_from_search_history(two, src);
  EXPECT_FALSE(r.data);
  EXPECT_NE(r.skip_reason.find("searches 2 dimensions (a.concurrency, b.isl)"), std::string::npos)
      << r.skip_reason;
  // No SLA filter: nothing to chart and nothing to say.
  auto none = nlohmann::json::parse(R"({"config":{"search_space":[{"path":"x"}],
      "sla_filters":[]},"iterations":[]})");
  r = slo_from_search_history(none, src);
  EXPECT_FALSE(r.data);
  EXPECT_TRUE(r.skip_reason.empty());
  // Nothing feasible in [2, 16] (boundary_summary with nulls).
  auto fail = nlohmann::json::parse(R"({"config":{"search_space":[{"path":"rate","lo":2,
      "hi":16}],"sla_filters":[{"metric":"ttft","stat":"avg","op":"le","threshold":200}]},
      "iterations":[{"parameters":{"rate":2},"sla":[{"filter":"ttft:avg:le:200","value":250,
      "passed":false}],"feasible":false}],"boundary_summary":{"largest_feasible":null,
      "smallest_infeasible":2}})");
  r = slo_from_search_history(fail, src);
  ASSERT_TRUE(r.data);
  EXPECT_FALSE(r.data->boundary);
  EXPECT_NEAR(r.data->points[0].percent[0], 125, 1e-9);
  EXPECT_EQ(slo_chart(*r.data, "s").subtitle,
            "No passing point: no rate in [2, 16] meets every SLO");
  // A wrong-typed field is a broken file: the error names it.
  auto bad = fail;
  bad["iterations"][0]["sla"][0]["value"] = "fast";
  try {
    slo_from_search_history(bad, src);
    ADD_FAILURE() << "no error";
  } catch (const PlotError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_NE(std::string(e.what()).find("iterations[0].sla[0].value is not a number"),
              std::string::npos)
        << e.what();
  }
}

TEST(PlotSlo, SweepBoundaryIgnoresPassesAboveTheFirstFailure) {
  // 1 fails (below any pass: bounds nothing), 2 and 3 pass, 4 fails, 5 passes again.
  std::vector<SloPoint> pts = {verdict(1, false), verdict(2, true), verdict(3, true),
                               verdict(4, false), verdict(5, true)};
  SloBoundary b = sweep_boundary(pts);
  EXPECT_EQ(b.largest_passing, 3);
  EXPECT_EQ(b.first_failing, 4);
  b = sweep_boundary({verdict(1, true), verdict(2, true)});
  EXPECT_EQ(b.largest_passing, 2);
  EXPECT_FALSE(b.first_failing);
  b = sweep_boundary({verdict(1, false), verdict(2, false)});
  EXPECT_FALSE(b.largest_passing);
  EXPECT_FALSE(b.first_failing);

  // The same through a summary without metadata.sla_filters: the filters come from the verdicts.
  nlohmann::json j = {{"points", nlohmann::json::array()}};
  const bool ok[] = {false, true, true, false, true};
  for (int c = 1; c <= 5; ++c) {
    nlohmann::json verdict_json = {{"filter", "request_latency:avg:le:800"},
                                   {"value", ok[c - 1] ? 400.0 : 1000.0},
                                   {"passed", ok[c - 1]}};
    nlohmann::json point = {{"parameters", {{"request_rate", c}}}, {"meets_sla", ok[c - 1]}};
    point["sla"] = nlohmann::json::array({verdict_json});
    j["points"].push_back(point);
  }
  const SloRead r = slo_from_sweep_summary(j, "sweep_summary.json");
  ASSERT_TRUE(r.data) << r.skip_reason;
  EXPECT_EQ(r.data->axis, "request_rate");
  EXPECT_EQ(r.data->filters[0].describe(), "request_latency avg <= 800");
  EXPECT_EQ(r.data->boundary, 3);
  EXPECT_EQ(r.data->passing_above, std::vector<double>{5});
  EXPECT_EQ(slo_chart(*r.data, "s").subtitle,
            "request_rate 4 breaks request_latency avg <= 800 (1000, 125 % of the threshold); "
            "request_rate 5 passes again above it, not counted");
  // A sweep without SLA filters says nothing.
  j = nlohmann::json::parse(R"({"points":[{"parameters":{"concurrency":1}}]})");
  EXPECT_FALSE(slo_from_sweep_summary(j, "sweep_summary.json").data);
}

TEST(PlotSlo, FilesFoundInTheFolderAndBelowEachChartedOnce) {
  const test_files::ScratchDir dir("inferperf-plot-slo-find");
  fs::create_directories(dir / "root/search");
  fs::copy_file(kSloData / "sweep/sweep_summary.json", dir / "root/sweep_summary.json");
  fs::copy_file(kSloData / "search/search_history.json", dir / "root/search/search_history.json");
  const auto files = find_slo_files({dir / "root", dir / "root/search"});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].filename(), "sweep_summary.json");
  EXPECT_EQ(files[1].filename(), "search_history.json");
  ChartSet set;
  add_slo_charts({dir / "root"}, set);
  ASSERT_EQ(set.charts.size(), 2u);
  EXPECT_EQ(set.charts[0].name, "slo_attainment");
  EXPECT_EQ(set.charts[1].name, "slo_attainment_2");
  EXPECT_TRUE(set.skipped.empty());
  // A plain run's folder: the chart is listed as not drawn, with why.
  ChartSet plain;
  add_slo_charts({dir / "root/search/nothing"}, plain);
  ASSERT_EQ(plain.skipped.size(), 1u);
  EXPECT_NE(plain.skipped[0].reason.find("no sweep_summary.json with SLA results"),
            std::string::npos);
  // Broken JSON stops the plot (exit 2), naming the file.
  std::ofstream(dir / "root/sweep_summary.json") << "{\"points\": [";
  EXPECT_THROW(add_slo_charts({dir / "root"}, set), PlotError);
}

TEST(PlotSlo, ChartRendersWithItsLinesAndCrosses) {
  std::string why;
  if (!gnuplot_available(&why)) GTEST_SKIP() << why;
  const test_files::ScratchDir out("inferperf-plot-slo-render");
  const Theme& theme = theme_named("light");
  const Chart c = slo_chart(read_ok(kSloData / "sweep/sweep_summary.json"), "slo_attainment");
  render_chart(c, theme, out.path());
  const auto img = testing::read_png((out / "slo_attainment.png").string());
  EXPECT_EQ(img.width, kChartWidth);
  EXPECT_EQ(img.height, kChartHeight);
  // Inside the plot area: both filters' lines, the red crosses and the grey reference lines.
  const double x0 = kPlotLeft + 0.004, y0 = 1 - kPlotTop + 0.006;
  const double x1 = kPlotRight - 0.004, y1 = 1 - kPlotBottom - 0.006;
  for (std::size_t colour : {0u, 1u, 4u, 7u})
    EXPECT_GE(testing::count_colour_pixels(img, {theme.palette[colour]}, x0, y0, x1, y1), 100u)
        << theme.palette[colour];
  const std::string svg = test_files::read_whole_file(out / "slo_attainment.svg");
  for (const char* text :
       {"SLO attainment: capacity is concurrency 3", "capacity: concurrency 3",
        "concurrency 4 breaks inter_token_latency p99 &lt; 30 (36, 120 % of the threshold)",
        "SLO threshold (100 %)", "breaks its SLO"})
    EXPECT_NE(svg.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace inferperf::plot
