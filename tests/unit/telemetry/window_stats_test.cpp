#include "telemetry/window_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "telemetry/dcgm.hpp"
#include "telemetry/series_timeslices.hpp"

namespace inferperf::telemetry {
namespace {

constexpr std::int64_t kSec = 1'000'000'000;

std::string page(double running, double tokens, double b1, double b2, double binf, double sum) {
  return "# TYPE running gauge\nrunning{m=\"x\"} " + std::to_string(running) +
         "\n# TYPE tokens_total counter\ntokens_total " + std::to_string(tokens) +
         "\n# TYPE lat_seconds histogram\n"
         "lat_seconds_bucket{le=\"0.1\"} " +
         std::to_string(b1) + "\nlat_seconds_bucket{le=\"1\"} " + std::to_string(b2) +
         "\nlat_seconds_bucket{le=\"+Inf\"} " + std::to_string(binf) + "\nlat_seconds_sum " +
         std::to_string(sum) + "\nlat_seconds_count " + std::to_string(binf) + "\n";
}

// Scrapes at 0 s (baseline, before the window), 1, 2, 3 s (inside), 5 s (after: the flush).
ScrapeLog make_log() {
  ScrapeLog log("http://h:1/metrics");
  log.add(parse_prometheus(page(9, 100, 0, 0, 0, 0)), 0, 0);
  log.add(parse_prometheus(page(2, 110, 2, 4, 4, 1.0)), kSec, kSec);
  log.add(parse_prometheus(page(4, 130, 5, 9, 10, 4.0)), 2 * kSec, 2 * kSec);
  log.add(parse_prometheus(page(6, 160, 6, 12, 14, 6.0)), 3 * kSec, 3 * kSec);
  log.add(parse_prometheus(page(0, 170, 6, 14, 20, 10.0)), 5 * kSec, 5 * kSec);
  return log;
}

int series_of(const ScrapeLog& log, const std::string& family) {
  for (std::size_t i = 0; i < log.series().size(); ++i)
    if (log.series()[i].family == family) return static_cast<int>(i);
  return -1;
}

TEST(WindowStats, GaugeUsesOnlySamplesInsideTheWindow) {
  const auto log = make_log();
  const Window w{kSec / 2, 3 * kSec};
  auto g = gauge_stats(log, series_of(log, "running"), w);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->count, 3);
  EXPECT_DOUBLE_EQ(g->avg, 4.0);
  EXPECT_DOUBLE_EQ(g->min, 2.0);
  EXPECT_DOUBLE_EQ(g->max, 6.0);
  EXPECT_FALSE(gauge_stats(log, series_of(log, "running"), Window{10 * kSec, 11 * kSec}));
}

TEST(WindowStats, CounterIsFinalMinusBaselineWithIntervalRates) {
  const auto log = make_log();
  const Window w{kSec / 2, 3 * kSec};  // 2.5 s
  auto c = counter_stats(log, series_of(log, "tokens"), w);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->total, 70.0);  // 170 (final, after the flush) − 100 (baseline at 0 s)
  EXPECT_DOUBLE_EQ(c->rate, 28.0);
  // Intervals ending inside the window: 0→1 s: 10/s, 1→2 s: 20/s, 2→3 s: 30/s.
  EXPECT_EQ(c->interval_rates.count, 3);
  EXPECT_DOUBLE_EQ(c->interval_rates.avg, 20.0);
  EXPECT_DOUBLE_EQ(c->interval_rates.min, 10.0);
  EXPECT_DOUBLE_EQ(c->interval_rates.max, 30.0);
}

TEST(WindowStats, CounterResetCountsWhatCameBeforeAndAfter) {
  ScrapeLog log;
  for (auto [t, v] : {std::pair{0, 10.0}, {1, 20.0}, {2, 5.0}, {3, 8.0}}) {
    log.add(parse_prometheus("# TYPE n_total counter\nn_total " + std::to_string(v) + "\n"),
            t * kSec, t * kSec);
  }
  auto c = counter_stats(log, 0, Window{0, 3 * kSec});
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->total, 18.0);  // 10 before the reset, 8 after it
}

TEST(WindowStats, SeriesCreatedInsideTheWindowCountsFromZero) {
  ScrapeLog log;
  log.add(parse_prometheus("# TYPE other gauge\nother 1\n"), 0, 0);  // baseline: no series yet
  log.add(parse_prometheus("# TYPE n_total counter\nn_total 7\n"
                           "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 3\n"
                           "h_sum 4\nh_count 3\n"),
          2 * kSec, 2 * kSec);
  const Window w{kSec, 3 * kSec};
  auto c = counter_stats(log, 1, w);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->total, 7.0);
  auto h = histogram_stats(log, 2, w);
  ASSERT_TRUE(h);
  EXPECT_DOUBLE_EQ(h->count, 3.0);
  EXPECT_DOUBLE_EQ(h->sum, 4.0);
}

TEST(WindowStats, HistogramResetInsideTheWindowNeverGoesNegative) {
  ScrapeLog log;
  auto hist = [](int b1, int inf, double sum) {
    return "# TYPE h histogram\nh_bucket{le=\"1\"} " + std::to_string(b1) +
           "\nh_bucket{le=\"+Inf\"} " + std::to_string(inf) + "\nh_sum " + std::to_string(sum) +
           "\nh_count " + std::to_string(inf) + "\n";
  };
  log.add(parse_prometheus(hist(5, 10, 10)), 0, 0);                // baseline
  log.add(parse_prometheus(hist(8, 14, 14)), kSec, kSec);          // +3 / +4
  log.add(parse_prometheus(hist(1, 2, 2)), 2 * kSec, 2 * kSec);    // restart: +1 / +2
  log.add(parse_prometheus(hist(9, 16, 16)), 3 * kSec, 3 * kSec);  // above the baseline again
  auto h = histogram_stats(log, 0, Window{kSec / 2, 3 * kSec});
  ASSERT_TRUE(h);
  EXPECT_DOUBLE_EQ(h->count, 4.0 + 2.0 + 14.0);
  EXPECT_DOUBLE_EQ(h->buckets[0].second, 3.0 + 1.0 + 8.0);
  EXPECT_DOUBLE_EQ(h->sum, 4.0 + 2.0 + 14.0);
}

TEST(WindowStats, NonFiniteCounterValuesAreIgnored) {
  ScrapeLog log;
  for (auto [t, v] : {std::pair{0, std::string("1")},
                      {1, std::string("+Inf")},
                      {2, std::string("NaN")},
                      {3, std::string("5")}}) {
    log.add(parse_prometheus("# TYPE n_total counter\nn_total " + v + "\n"), t * kSec, t * kSec);
  }
  auto c = counter_stats(log, 0, Window{0, 3 * kSec});
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->total, 4.0);
  EXPECT_TRUE(std::isfinite(c->interval_rates.avg));
}

TEST(WindowStats, HistogramDeltasAndEstimatedPercentiles) {
  const auto log = make_log();
  const Window w{kSec / 2, 3 * kSec};
  auto h = histogram_stats(log, series_of(log, "lat_seconds"), w);
  ASSERT_TRUE(h);
  EXPECT_DOUBLE_EQ(h->count, 20.0);
  EXPECT_DOUBLE_EQ(h->sum, 10.0);
  EXPECT_DOUBLE_EQ(h->avg, 0.5);
  EXPECT_DOUBLE_EQ(h->count_rate, 8.0);
  ASSERT_EQ(h->buckets.size(), 3u);
  EXPECT_DOUBLE_EQ(h->buckets[0].second, 6.0);
  EXPECT_DOUBLE_EQ(h->buckets[1].second, 14.0);
  // p50: rank 10 lies in (0.1, 1] holding ranks 6..14: 0.1 + 0.9 * 4/8.
  EXPECT_NEAR(h->p[4], 0.55, 1e-12);
  // p10: rank 2 in the first bucket [0, 0.1]: 0.1 * 2/6.
  EXPECT_NEAR(h->p[2], 0.1 / 3, 1e-12);
  // p99: rank 19.8 in the +Inf bucket: the largest finite bound.
  EXPECT_DOUBLE_EQ(h->p[8], 1.0);
}

TEST(WindowStats, EmptyHistogramHasNoPercentiles) {
  EXPECT_TRUE(std::isnan(estimate_quantile({{0.1, 0}, {1, 0}}, 0.5)));
  EXPECT_TRUE(std::isnan(estimate_quantile({}, 0.5)));
}

const char* kDcgmPage = R"(# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).
# TYPE DCGM_FI_DEV_POWER_USAGE gauge
DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-a",pci_bus_id="00000000:01:00.0",device="nvidia0",modelName="NVIDIA H200",Hostname="node1"} 350.5
DCGM_FI_DEV_POWER_USAGE{gpu="1",UUID="GPU-b",pci_bus_id="00000000:02:00.0",device="nvidia1",modelName="NVIDIA H200",Hostname="node1",namespace="ns",pod="p"} 120
# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter
DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu="0",UUID="GPU-a"} 2000000000
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-a"} 1000
# TYPE DCGM_FI_PROF_SM_ACTIVE gauge
DCGM_FI_PROF_SM_ACTIVE{gpu="0",UUID="GPU-a"} 0.25
# TYPE DCGM_FI_DEV_POWER_VIOLATION counter
DCGM_FI_DEV_POWER_VIOLATION{gpu="0",UUID="GPU-a"} 5000
# TYPE DCGM_FI_DEV_SM_CLOCK gauge
DCGM_FI_DEV_SM_CLOCK{gpu="0",UUID="GPU-a"} 1980
)";

TEST(Dcgm, MapsFieldsToAiperfNamesAndUnits) {
  const auto samples = gpu_samples_from_page(parse_prometheus(kDcgmPage), "u", 7);
  ASSERT_EQ(samples.size(), 2u);
  const auto& g0 = samples[0];
  EXPECT_EQ(g0.gpu.index, 0);
  EXPECT_EQ(g0.gpu.uuid, "GPU-a");
  EXPECT_EQ(g0.gpu.model_name, "NVIDIA H200");
  EXPECT_EQ(g0.gpu.pci_bus_id, "00000000:01:00.0");
  EXPECT_EQ(g0.gpu.device, "nvidia0");
  EXPECT_EQ(g0.gpu.hostname, "node1");
  EXPECT_EQ(g0.mono_ns, 7);
  EXPECT_DOUBLE_EQ(*g0[GpuMetric::kPowerUsage], 350.5);
  EXPECT_DOUBLE_EQ(*g0[GpuMetric::kEnergyConsumption], 2.0);  // mJ -> MJ
  EXPECT_NEAR(*g0[GpuMetric::kMemoryUsed], 1.048576, 1e-12);  // MiB -> GB
  EXPECT_DOUBLE_EQ(*g0[GpuMetric::kSmUtilization], 25.0);     // ratio -> %
  EXPECT_DOUBLE_EQ(*g0[GpuMetric::kPowerViolation], 5.0);     // ns -> µs
  EXPECT_FALSE(g0[GpuMetric::kGpuUtilization].has_value());
  EXPECT_TRUE(g0.custom.empty());  // SM clock is not collected without a custom CSV
  EXPECT_EQ(samples[1].gpu.namespace_, "ns");
  EXPECT_EQ(samples[1].gpu.pod, "p");
  EXPECT_DOUBLE_EQ(*samples[1][GpuMetric::kPowerUsage], 120.0);
}

TEST(Dcgm, CustomCsvAddsFieldsAndReportsBadRows) {
  const std::string dir = ::testing::TempDir();
  const std::string good = dir + "/custom_good.csv";
  std::ofstream(good) << "# Format\n# DCGM FIELD, Prometheus metric type, help message\n\n"
                         "DCGM_FI_DEV_SM_CLOCK, gauge, SM clock frequency (in MHz).\n"
                         "DCGM_FI_DEV_POWER_USAGE, gauge, Power draw (in W).\n";
  auto fields = load_custom_gpu_fields(good);
  ASSERT_TRUE(fields) << fields.error().describe();
  ASSERT_EQ(fields->size(), 1u);  // power is already collected under its AIPerf name
  EXPECT_EQ((*fields)[0].tag, "sm_clock");
  EXPECT_FALSE((*fields)[0].counter);
  const auto samples = gpu_samples_from_page(parse_prometheus(kDcgmPage), "u", 0, *fields);
  ASSERT_EQ(samples[0].custom.size(), 1u);
  EXPECT_EQ(samples[0].custom[0].first, "sm_clock");
  EXPECT_DOUBLE_EQ(samples[0].custom[0].second, 1980.0);

  const std::string bad = dir + "/custom_bad.csv";
  std::ofstream(bad) << "DCGM_FI_DEV_SM_CLOCK, gauge, ok\nDCGM_FI_DEV_X, histogram, no\n";
  auto err = load_custom_gpu_fields(bad);
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().line, 2);
  EXPECT_EQ(err.error().field, "type");
  EXPECT_NE(err.error().describe().find("custom_bad.csv"), std::string::npos);
  EXPECT_FALSE(load_custom_gpu_fields(dir + "/missing.csv"));
}

TEST(GpuSummary, GaugesGetStatisticsCountersTheWindowDelta) {
  std::vector<GpuSample> samples(4);
  for (int i = 0; i < 4; ++i) {
    samples[i].mono_ns = i * kSec;
    samples[i][GpuMetric::kPowerUsage] = 100.0 + 10 * i;
    samples[i][GpuMetric::kEnergyConsumption] = 1.0 + 0.5 * i;
  }
  std::vector<const GpuSample*> ptrs;
  for (const auto& s : samples) ptrs.push_back(&s);
  const Window w{kSec, 3 * kSec};
  auto power = gpu_metric_summary(ptrs, GpuMetric::kPowerUsage, w);
  ASSERT_TRUE(power);
  EXPECT_FALSE(power->counter);
  EXPECT_DOUBLE_EQ(power->stats.avg, 120.0);  // 110, 120, 130
  auto energy = gpu_metric_summary(ptrs, GpuMetric::kEnergyConsumption, w);
  ASSERT_TRUE(energy);
  EXPECT_TRUE(energy->counter);
  EXPECT_DOUBLE_EQ(energy->delta, 1.0);  // 2.5 − 1.5
  EXPECT_FALSE(gpu_metric_summary(ptrs, GpuMetric::kTemperature, w));
}

TEST(SeriesTimeslices, WindowCutFromItsStartLastSlicePartial) {
  const auto even = slices_of({kSec, 4 * kSec}, kSec);
  ASSERT_EQ(even.size(), 3u);
  EXPECT_EQ(even[2].start_ns, 3 * kSec);
  EXPECT_EQ(even[2].end_ns, 4 * kSec);
  EXPECT_TRUE(even[2].complete);
  const auto odd = slices_of({0, 2 * kSec + kSec / 2}, kSec);
  ASSERT_EQ(odd.size(), 3u);
  EXPECT_TRUE(odd[1].complete);
  EXPECT_FALSE(odd[2].complete);
  EXPECT_EQ(odd[2].end_ns, 2 * kSec + kSec / 2);
  EXPECT_TRUE(slices_of({0, kSec}, 0).empty());
  EXPECT_TRUE(slices_of({kSec, kSec}, kSec).empty());
  EXPECT_EQ(slices_of({0, kSec}, 1, 10).size(), 10u);  // capped
}

// make_log(): scrapes at 0 (baseline), 1, 2, 3 and 5 s; window 0.5 .. 3.5 s in 1 s slices.
TEST(SeriesTimeslices, SlicesAddUpToTheWindowTotals) {
  const auto log = make_log();
  const Window w{kSec / 2, 3 * kSec + kSec / 2};
  const auto slices = slices_of(w, kSec);
  ASSERT_EQ(slices.size(), 3u);
  const auto g = gauge_slices(log, series_of(log, "running"), w, slices);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_DOUBLE_EQ(g[0].avg, 2.0);
  EXPECT_DOUBLE_EQ(g[2].max, 6.0);  // 0 at 5 s is past the window
  const int tokens = series_of(log, "tokens");
  const auto c = counter_slices(log, tokens, w, slices);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_DOUBLE_EQ(c[0].total, 10.0);
  EXPECT_DOUBLE_EQ(c[1].total, 20.0);
  EXPECT_DOUBLE_EQ(c[2].total, 40.0);  // 30 at 3 s and the final scrape's 10
  EXPECT_DOUBLE_EQ(c[0].total + c[1].total + c[2].total, counter_stats(log, tokens, w)->total);
  const int lat = series_of(log, "lat_seconds");
  const auto h = histogram_slices(log, lat, w, slices);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_DOUBLE_EQ(h[0].count, 4.0);
  EXPECT_DOUBLE_EQ(h[1].count, 6.0);
  EXPECT_DOUBLE_EQ(h[1].sum, 3.0);
  EXPECT_DOUBLE_EQ(h[1].buckets[0].second, 3.0);  // le 0.1: 2 -> 5
  EXPECT_DOUBLE_EQ(h[0].count + h[1].count + h[2].count, histogram_stats(log, lat, w)->count);
}

TEST(SeriesTimeslices, CounterResetRestartsFromZeroInsideItsSlice) {
  ScrapeLog log("http://h:1/metrics");
  auto at = [&](double v, std::int64_t t) {
    log.add(parse_prometheus("# TYPE n_total counter\nn_total " + std::to_string(v) + "\n"), t, t);
  };
  at(50, 0);
  at(60, kSec);
  at(5, 2 * kSec);  // restarted: 5 counted since
  at(9, 3 * kSec);
  const Window w{0, 4 * kSec};
  const auto c = counter_slices(log, 0, w, slices_of(w, 2 * kSec));
  ASSERT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c[0].total, 10.0);
  EXPECT_DOUBLE_EQ(c[1].total, 9.0);
  EXPECT_DOUBLE_EQ(c[1].rate, 4.5);
}

// Capped slices (a tiny --slice-duration over a long run) hold only the changes inside them.
TEST(SeriesTimeslices, CappedSlicesDropWhatFallsPastThem) {
  const auto log = make_log();
  const Window w{kSec / 2, 3 * kSec + kSec / 2};
  const auto slices = slices_of(w, kSec, 2);  // 0.5 .. 2.5 s only
  ASSERT_EQ(slices.size(), 2u);
  const auto c = counter_slices(log, series_of(log, "tokens"), w, slices);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c[1].total, 20.0);  // not the 30 at 3 s nor the final 10
  const auto g = gauge_slices(log, series_of(log, "running"), w, slices);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_DOUBLE_EQ(g[1].max, 4.0);
}

}  // namespace
}  // namespace inferperf::telemetry
