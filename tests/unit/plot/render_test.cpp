// Charts from the committed fixtures through the real gnuplot: every PNG decodes and shows data
// in its plot area; the report inlines every SVG and fetches nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "plot/charts.hpp"
#include "plot/dashboard.hpp"
#include "plot/discovery.hpp"
#include "plot/gnuplot.hpp"
#include "plot/html_report.hpp"
#include "plot/points.hpp"
#include "plot/theme.hpp"
#include "png_probe.hpp"

#include "../test_files.hpp"

namespace inferperf::plot {
namespace {

namespace fs = std::filesystem;
const fs::path kRenderData = fs::path(INFERPERF_SOURCE_DIR) / "tests/data/plot";

using test_files::read_whole_file;

class PlotRender : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gnuplot_available(&why)) GTEST_SKIP() << why;
    out_ = fs::temp_directory_path() /
           ("inferperf-plot-render-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out_);
  }
  void TearDown() override { fs::remove_all(out_); }

  // Pixels of the theme's series colours inside the plot area of NAME.png.
  std::size_t data_pixels(const std::string& name, const Theme& theme) {
    const auto img = testing::read_png((out_ / (name + ".png")).string());
    EXPECT_EQ(img.width, kChartWidth);
    EXPECT_EQ(img.height, kChartHeight);
    const std::vector<std::string> colours(theme.palette.begin(), theme.palette.end());
    // Inset by a few pixels so the axes never count.
    return testing::count_colour_pixels(img, colours, kPlotLeft + 0.004, 1 - kPlotTop + 0.006,
                                        kPlotRight - 0.004, 1 - kPlotBottom - 0.006);
  }
  fs::path out_;
};

TEST_F(PlotRender, EverySweepChartShowsItsData) {
  const auto points = load_points(discover_runs({kRenderData / "sweep"}));
  const ChartSet set = build_charts(points);
  const Theme& theme = theme_named("light");
  std::vector<std::string> names;
  for (const auto& c : set.charts) names.push_back(c.name);
  for (const char* expected : {"pareto_curve_throughput_per_gpu_vs_latency",
                               "pareto_curve_throughput_per_gpu_vs_interactivity",
                               "output_token_throughput_vs_itl",
                               "throughput_per_user_vs_total",
                               "ttft_vs_throughput",
                               "ttft_histogram",
                               "ttft_cdf",
                               "itl_histogram",
                               "itl_cdf",
                               "request_latency_histogram",
                               "request_latency_cdf",
                               "isl_histogram",
                               "osl_histogram",
                               "ttft_over_time",
                               "itl_over_time",
                               "latency_over_time",
                               "dispersed_throughput_over_time",
                               "dispatch_timeline",
                               "schedule_lag",
                               "timeslices_ttft",
                               "timeslices_itl",
                               "timeslices_throughput",
                               "timeslices_latency",
                               "gpu_utilization_and_throughput_over_time",
                               "gpu_power_over_time",
                               "gpu_memory_used_over_time"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  ASSERT_EQ(set.skipped.size(), 1u);  // ttft_timeline: four runs
  EXPECT_EQ(set.skipped[0].name, "ttft_timeline");
  for (const auto& c : set.charts) {
    render_chart(c, theme, out_);
    // A line or a few dozen dots of one colour is hundreds of pixels; empty axes are none.
    EXPECT_GE(data_pixels(c.name, theme), 150u) << c.name;
    const std::string svg = read_whole_file(out_ / (c.name + ".svg"));
    EXPECT_NE(svg.find("<svg"), std::string::npos) << c.name;
    EXPECT_NE(svg.find("width=\"1600\""), std::string::npos) << c.name;
  }
  // The four runs overlay in four colours.
  const auto img = testing::read_png((out_ / "ttft_cdf.png").string());
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_GE(testing::count_colour_pixels(img, {theme.palette[i]}, kPlotLeft + 0.004,
                                           1 - kPlotTop + 0.006, kPlotRight - 0.004,
                                           1 - kPlotBottom - 0.006),
              100u)
        << "run " << i;

  ReportInput in{&points, &set, &theme, out_, {"sweep"}};
  const std::string html = render_report(in);
  for (const auto& c : set.charts) {
    EXPECT_NE(html.find("id=\"chart-" + c.name + "\""), std::string::npos) << c.name;
    EXPECT_NE(html.find("id=\"" + c.name + "-gnuplot_canvas\""), std::string::npos) << c.name;
  }
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(href=["']https?:)")));
  EXPECT_NE(html.find("c=2 mean of 2 runs"), std::string::npos);
  EXPECT_NE(html.find("742.2"), std::string::npos);  // concurrency_4's output token throughput
  // No error_request_count in a run without errors: 0 errors, not an unknown.
  EXPECT_NE(html.find("<td>16</td><td>0</td>"), std::string::npos);
}

TEST_F(PlotRender, SingleRunDrawsTheTimelineAndDarkTheme) {
  const auto points = load_points(discover_runs({kRenderData / "sweep/concurrency_1"}));
  const ChartSet set = build_charts(points);
  const Theme& theme = theme_named("dark");
  bool timeline = false;
  for (const auto& c : set.charts) timeline = timeline || c.name == "ttft_timeline";
  ASSERT_TRUE(timeline);
  for (const auto& s : set.skipped)
    EXPECT_NE(s.reason.find("two or more runs"), std::string::npos) << s.name;
  for (const auto& c : set.charts)
    if (c.name == "ttft_timeline" || c.name == "ttft_cdf") {
      render_chart(c, theme, out_);
      EXPECT_GE(data_pixels(c.name, theme), 150u) << c.name;
    }
  const auto img = testing::read_png((out_ / "ttft_timeline.png").string());
  EXPECT_EQ(testing::count_colour_pixels(img, {theme.background}, 0, 0, 0.01, 0.01, 0),
            static_cast<std::size_t>(16 * 8));  // the corner is the dark background
}

TEST_F(PlotRender, ProbeTellsColoursApart) {
  Chart c;
  c.name = "probe";
  Series s;
  s.style = Style::kLines;
  s.color = 2;
  s.x = {0, 1, 2};
  s.y = {0, 2, 1};
  c.series.push_back(s);
  const Theme& theme = theme_named("light");
  render_chart(c, theme, out_);
  const auto img = testing::read_png((out_ / "probe.png").string());
  EXPECT_GE(testing::count_colour_pixels(img, {theme.palette[2]}), 500u);
  EXPECT_EQ(testing::count_colour_pixels(img, {theme.palette[0], theme.palette[4]}), 0u);
}

TEST(PlotReport, InlineSvgPrefixesIdsAndDropsTheProlog) {
  const std::string svg = R"svg(<?xml version="1.0"?>
<svg width="10"><title>Gnuplot</title><defs><path id='gpPt0' d='M0'/></defs>
<g id="gnuplot_canvas"><use xlink:href='#gpPt0'/><rect fill="url(#grad)"/></g></svg>)svg";
  const std::string out = inline_svg(svg, "x-", "A <b> title");
  EXPECT_EQ(out.rfind("<svg", 0), 0u);
  EXPECT_NE(out.find("id='x-gpPt0'"), std::string::npos);
  EXPECT_NE(out.find("id=\"x-gnuplot_canvas\""), std::string::npos);
  EXPECT_NE(out.find("href='#x-gpPt0'"), std::string::npos);
  EXPECT_NE(out.find("url(#x-grad)"), std::string::npos);
  EXPECT_NE(out.find("<title>A &lt;b&gt; title</title>"), std::string::npos);
  EXPECT_EQ(inline_svg("no svg here", "x-", "t"), "");
}

TEST(PlotReport, GnuplotScriptQuotesTitlesAndDataSkipsNaN) {
  Chart c;
  c.name = "q";
  c.title = "it's";
  Series s;
  s.title = "c=8";
  s.x = {1, std::nan(""), 3};
  s.y = {1, 2, 3};
  s.labels = {"c=\"1\"", "b", "c=3"};
  c.series.push_back(s);
  const std::string script = gnuplot_script(c, theme_named("light"));
  EXPECT_NE(script.find("set title 'it''s'"), std::string::npos) << script;
  EXPECT_NE(script.find("set terminal pngcairo size 1600,800"), std::string::npos);
  EXPECT_NE(script.find("set terminal svg size 1600,800"), std::string::npos);
  EXPECT_NE(script.find("'q.dat' index 0 using 1:2:3 with labels"), std::string::npos) << script;
  EXPECT_EQ(gnuplot_data(c), "1\t1\t\"c= 1 \"\n3\t3\t\"c=3\"\n");
  Chart empty;
  empty.series.push_back(Series{});
  EXPECT_FALSE(has_points(empty));
}

TEST(PlotDashboard, ResolvesOnlyFilesUnderTheRoot) {
  const fs::path root =
      fs::temp_directory_path() / ("inferperf-plot-serve-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "gnuplot");
  std::ofstream(root / "report.html") << "x";
  std::ofstream(root / "gnuplot/a.gp") << "x";
  std::ofstream(root.parent_path() / "inferperf-plot-secret.txt") << "x";
  EXPECT_EQ(resolve_target(root, "/"), fs::canonical(root / "report.html"));
  EXPECT_EQ(resolve_target(root, "/report.html?x=1"), fs::canonical(root / "report.html"));
  EXPECT_EQ(resolve_target(root, "/gnuplot/a.gp"), fs::canonical(root / "gnuplot/a.gp"));
  EXPECT_TRUE(resolve_target(root, "/../inferperf-plot-secret.txt").empty());
  EXPECT_TRUE(resolve_target(root, "/%2e%2e/inferperf-plot-secret.txt").empty());
  EXPECT_TRUE(resolve_target(root, "/gnuplot").empty());
  EXPECT_TRUE(resolve_target(root, "/missing.png").empty());
  EXPECT_TRUE(resolve_target(root, "report.html").empty());
  EXPECT_EQ(content_type("a.svg"), "image/svg+xml");
  EXPECT_EQ(content_type("a.html"), "text/html; charset=utf-8");
  fs::remove_all(root);
  fs::remove(root.parent_path() / "inferperf-plot-secret.txt");
}

}  // namespace
}  // namespace inferperf::plot
