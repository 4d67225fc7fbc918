// LatencyHistogram: a fixed-size log-linear histogram of nanosecond values (32 linear steps per
// power of two, so any recorded value is within about 3 % of its bucket's bounds). One thread
// records; any thread may take a snapshot at the same time (relaxed atomic buckets), which is
// what the client's self-check and live views need: no locks on the recording hot path and no
// sample vectors that grow with the run.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace inferperf::core {

// A copy of a histogram's counts; differences of snapshots give the values of a time window.
struct HistogramSnapshot {
  std::vector<std::uint64_t> counts;  // per bucket
  std::uint64_t total = 0;
  std::int64_t max_ns = 0;  // over the histogram's whole life, not the window

  // The value below which `q` percent of the counts lie, reported as the upper bound of the
  // bucket that holds it (an over-estimate by at most one bucket); 0 when empty.
  std::int64_t percentile_ns(double q) const;
  // this − earlier, bucket by bucket (earlier must come from the same histogram).
  HistogramSnapshot since(const HistogramSnapshot& earlier) const;
};

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 5;  // 32 linear steps per power of two
  static constexpr int kBuckets = (64 - kSubBits) * (1 << kSubBits);

  void record(std::int64_t ns);
  HistogramSnapshot snapshot() const;

  static int bucket_of(std::int64_t ns);
  // Largest value that falls in bucket `b`.
  static std::int64_t upper_bound_of(int b);

 private:
  std::array<std::atomic<std::uint64_t>, kBuckets> counts_{};
  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::int64_t> max_ns_{0};
};

}  // namespace inferperf::core
