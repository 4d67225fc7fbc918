#include "core/latency_histogram.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace inferperf::core {

namespace {
constexpr std::int64_t kSub = 1 << LatencyHistogram::kSubBits;
}

int LatencyHistogram::bucket_of(std::int64_t ns) {
  if (ns < 0) ns = 0;
  const auto v = static_cast<std::uint64_t>(ns);
  if (v < static_cast<std::uint64_t>(2 * kSub)) return static_cast<int>(v);
  // The shift keeps the top kSubBits + 1 bits: v >> shift lies in [kSub, 2 kSub).
  const int shift = std::bit_width(v) - 1 - kSubBits;
  return static_cast<int>((shift + 1) * kSub + static_cast<std::int64_t>(v >> shift) - kSub);
}

std::int64_t LatencyHistogram::upper_bound_of(int b) {
  if (b < 2 * kSub) return b;
  const int shift = b / static_cast<int>(kSub) - 1;
  const std::int64_t sub = b % kSub + kSub;
  const std::int64_t lower = sub << shift;
  if (shift >= 62 - kSubBits) return std::numeric_limits<std::int64_t>::max();
  return lower + (std::int64_t{1} << shift) - 1;
}

void LatencyHistogram::record(std::int64_t ns) {
  counts_[static_cast<std::size_t>(bucket_of(ns))].fetch_add(1, std::memory_order_relaxed);
  total_.fetch_add(1, std::memory_order_relaxed);
  // One writer: a plain compare is enough, the atomic only makes the reader's load safe.
  if (ns > max_ns_.load(std::memory_order_relaxed)) max_ns_.store(ns, std::memory_order_relaxed);
}

HistogramSnapshot LatencyHistogram::snapshot() const {
  HistogramSnapshot s;
  s.counts.resize(kBuckets);
  for (int i = 0; i < kBuckets; ++i) {
    s.counts[static_cast<std::size_t>(i)] =
        counts_[static_cast<std::size_t>(i)].load(std::memory_order_relaxed);
    s.total += s.counts[static_cast<std::size_t>(i)];
  }
  s.max_ns = max_ns_.load(std::memory_order_relaxed);
  return s;
}

std::int64_t HistogramSnapshot::percentile_ns(double q) const {
  if (total == 0) return 0;
  const auto rank =
      static_cast<std::uint64_t>(std::max(1.0, std::ceil(q / 100.0 * static_cast<double>(total))));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    seen += counts[b];
    if (seen >= rank) {
      const std::int64_t bound = LatencyHistogram::upper_bound_of(static_cast<int>(b));
      return max_ns > 0 ? std::min(bound, max_ns) : bound;
    }
  }
  return max_ns;
}

HistogramSnapshot HistogramSnapshot::since(const HistogramSnapshot& earlier) const {
  HistogramSnapshot d;
  d.counts.resize(counts.size());
  d.max_ns = max_ns;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::uint64_t before = i < earlier.counts.size() ? earlier.counts[i] : 0;
    d.counts[i] = counts[i] >= before ? counts[i] - before : 0;
    d.total += d.counts[i];
  }
  return d;
}

}  // namespace inferperf::core
