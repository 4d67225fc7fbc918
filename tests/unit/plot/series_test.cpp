#include "plot/series.hpp"

#include "plot/chart.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace inferperf::plot {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(PlotSeries, SharedBinEdgesSpanEverySetAndSkipNaN) {
  const auto edges = shared_bin_edges({{1, 2, kNaN}, {5}}, 4);
  ASSERT_EQ(edges.size(), 5u);
  EXPECT_DOUBLE_EQ(edges.front(), 1);
  EXPECT_DOUBLE_EQ(edges[1], 2);
  EXPECT_DOUBLE_EQ(edges.back(), 5);
  EXPECT_TRUE(shared_bin_edges({{kNaN}}, 4).empty());
  const auto one = shared_bin_edges({{3, 3}}, 2);
  EXPECT_DOUBLE_EQ(one.front(), 2.5);
  EXPECT_DOUBLE_EQ(one.back(), 3.5);
}

TEST(PlotSeries, WholeNumberBinsAreCentredOnTheValues) {
  EXPECT_EQ(shared_bin_edges({{32, 32}}, 40, true), (std::vector<double>{31.5, 32.5}));
  EXPECT_EQ(shared_bin_edges({{13, 16}}, 40, true),
            (std::vector<double>{12.5, 13.5, 14.5, 15.5, 16.5}));
  const auto wide = shared_bin_edges({{0, 99}}, 40, true);  // 100 values: bins 3 wide
  EXPECT_DOUBLE_EQ(wide[1] - wide[0], 3);
  EXPECT_GE(wide.back(), 99.5);
  EXPECT_EQ(histogram({13, 13, 16}, shared_bin_edges({{13, 16}}, 40, true)),
            (std::vector<double>{2, 0, 0, 1}));
}

TEST(PlotSeries, HistogramCountsWithTheLastEdgeIncluded) {
  const std::vector<double> edges = {0, 1, 2, 3};
  EXPECT_EQ(histogram({0, 0.5, 1, 2.99, 3, kNaN, 4}, edges), (std::vector<double>{2, 1, 2}));
}

TEST(PlotSeries, CdfStepsToTheLastOfEqualValues) {
  const Curve c = cdf({3, 1, 2, 2, kNaN});
  EXPECT_EQ(c.x, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(c.y, (std::vector<double>{25, 75, 100}));
}

TEST(PlotSeries, PercentileInterpolatesLikeNumpy) {
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 50), 2.5);
  EXPECT_DOUBLE_EQ(percentile({10, 20, 30, 40, 50}, 90), 46);
  EXPECT_TRUE(std::isnan(percentile({}, 50)));
}

TEST(PlotSeries, RollingPercentileUsesTheTrailingWindow) {
  const Curve all = rolling_percentile({0, 1, 2, 3}, {1, 3, 5, 7}, 2, 50);
  EXPECT_EQ(all.x, (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(all.y, (std::vector<double>{1, 2, 4, 6}));
  // Ten values, about three points: every third index, ending on the last.
  std::vector<double> x(10), v(10);
  for (int i = 0; i < 10; ++i) x[i] = v[i] = i;
  const Curve some = rolling_percentile(x, v, 3, 100, 3);
  EXPECT_EQ(some.x, (std::vector<double>{0, 3, 6, 9}));
  EXPECT_EQ(some.y, (std::vector<double>{0, 3, 6, 9}));
}

TEST(PlotSeries, ParetoFrontierKeepsUndominatedPointsInXOrder) {
  // Latency (smaller better) vs throughput: (30, 5) is beaten by (20, 6).
  const std::vector<XY> pts = {{10, 2}, {30, 5}, {20, 6}, {40, 9}};
  EXPECT_EQ(pareto_frontier(pts, false), (std::vector<std::size_t>{0, 2, 3}));
  // Interactivity (larger better): only points nobody beats on both.
  const std::vector<XY> inter = {{100, 2}, {50, 6}, {40, 5}, {10, 9}};
  EXPECT_EQ(pareto_frontier(inter, true), (std::vector<std::size_t>{3, 1, 0}));
}

TEST(PlotSeries, DispersedThroughputSpreadsTokensOverFirstTokenToEnd) {
  RequestRow a;
  a.first_token_s = 0.5;
  a.end_s = 1.5;
  a.osl = 10;  // 10 tokens/s over [0.5, 1.5]: 5 in bin 0, 5 in bin 1
  RequestRow b;
  b.first_token_s = 1.2;
  b.end_s = 1.2;
  b.osl = 4;  // all at once, in bin 1
  RequestRow failed = a;
  failed.error = true;
  const Curve c = dispersed_throughput({a, b, failed}, 1.0);
  ASSERT_EQ(c.x.size(), 2u);
  EXPECT_DOUBLE_EQ(c.x[1], 1.0);
  EXPECT_NEAR(c.y[0], 5, 1e-9);
  EXPECT_NEAR(c.y[1], 9, 1e-9);
  EXPECT_DOUBLE_EQ(throughput_bin_seconds({a, b}, 100), 0.015);
}

TEST(PlotSeries, ThinKeepsEveryKthPointAndTheLast) {
  Chart c;
  Series dots;
  dots.style = Style::kPoints;
  Series bars;
  bars.style = Style::kBoxes;
  for (int i = 0; i < 10; ++i) {
    dots.x.push_back(i);
    dots.y.push_back(i * 2);
    bars.x.push_back(i);
    bars.y.push_back(1);
  }
  c.series = {dots, bars};
  EXPECT_EQ(thin(c, 4), 3u);
  EXPECT_EQ(c.series[0].x, (std::vector<double>{0, 3, 6, 9}));
  EXPECT_EQ(c.series[0].y, (std::vector<double>{0, 6, 12, 18}));
  EXPECT_EQ(c.series[1].x.size(), 10u);
  EXPECT_EQ(thin(c, 100), 1u);
}

}  // namespace
}  // namespace inferperf::plot
