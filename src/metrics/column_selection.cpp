#include "metrics/column_selection.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace inferperf::metrics {

namespace {

// A radix selection over the values' order keys, 16 bits per pass.
constexpr int kDigitBits = 16;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr std::size_t kRanks = 2 * core::kPercentiles.size();  // lo and hi of each percentile
constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;

// Orders doubles as unsigned integers: negative values, reversed, below the positive ones.
std::uint64_t order_key(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return (bits & kSignBit) ? ~bits : bits | kSignBit;
}

double from_order_key(std::uint64_t key) {
  return std::bit_cast<double>((key & kSignBit) ? key & ~kSignBit : ~key);
}

// The values whose order key starts with `prefix` (the key's top 64 - shift bits), and the ranks
// still wanted among them (counted within the group), each with the place its value goes.
struct Group {
  std::uint64_t prefix = 0;
  int shift = 64;
  std::uint64_t count = 0;
  std::vector<std::pair<std::uint64_t, double*>> wanted;
  bool collect = false;                  // its values are gathered; else the next 16 bits counted
  std::vector<std::uint64_t> histogram;  // kBuckets counts of the next 16 bits
  std::vector<double> values;
};

// The group (if any) a key falls in: groups are disjoint, so at most one holds it. Groups of one
// depth are kept sorted by prefix and searched; there are at most four depths.
class GroupIndex {
 public:
  explicit GroupIndex(const std::vector<Group>& groups) {
    for (std::size_t i = 0; i < groups.size(); ++i) {
      auto depth = std::find_if(depths_.begin(), depths_.end(),
                                [&](const Depth& d) { return d.shift == groups[i].shift; });
      if (depth == depths_.end()) depth = depths_.insert(depths_.end(), Depth{groups[i].shift, {}});
      depth->groups.emplace_back(groups[i].prefix, i);
    }
    for (Depth& d : depths_) std::sort(d.groups.begin(), d.groups.end());
  }
  std::size_t find(std::uint64_t key) const {
    for (const Depth& d : depths_) {
      const std::uint64_t prefix = d.shift == 64 ? 0 : key >> d.shift;
      auto it = std::lower_bound(d.groups.begin(), d.groups.end(),
                                 std::make_pair(prefix, std::size_t{0}));
      if (it != d.groups.end() && it->first == prefix) return it->second;
    }
    return kNone;
  }
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

 private:
  struct Depth {
    int shift;
    std::vector<std::pair<std::uint64_t, std::size_t>> groups;
  };
  std::vector<Depth> depths_;
};

// Calls fn(x) for every value of the column divided by `scale`, in record order.
template <class Fn>
void for_each_scaled(const MetricColumn& column, double scale, Fn&& fn) {
  column.visit([&](const double* v, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) fn(v[i] / scale);
  });
}

// After a counting pass: each wanted rank moves to the bucket of the next 16 bits holding it.
// Buckets that pin the whole key give their value at once; the others are narrowed again, or
// gathered when they hold at most `per_group` values.
void narrow(const Group& g, std::size_t per_group, std::vector<Group>& next) {
  auto wanted = g.wanted;
  std::sort(wanted.begin(), wanted.end());
  std::uint64_t below = 0;
  auto w = wanted.begin();
  for (std::size_t b = 0; b < kBuckets && w != wanted.end(); ++b) {
    const std::uint64_t in_bucket = g.histogram[b];
    if (w->first >= below + in_bucket) {
      below += in_bucket;
      continue;
    }
    Group sub;
    sub.shift = g.shift - kDigitBits;
    sub.prefix = (g.shift == 64 ? 0 : g.prefix << kDigitBits) | b;
    sub.count = in_bucket;
    for (; w != wanted.end() && w->first < below + in_bucket; ++w)
      sub.wanted.emplace_back(w->first - below, w->second);
    below += in_bucket;
    if (sub.shift == 0) {  // every value here has this one key
      for (const auto& [rank, out] : sub.wanted) *out = from_order_key(sub.prefix);
      continue;
    }
    sub.collect = sub.count <= per_group;
    next.push_back(std::move(sub));
  }
}

// One pass over the column for the groups still open; `also` sees every value too.
template <class Also>
void pass(const MetricColumn& column, double scale, std::vector<Group>& groups, Also&& also) {
  for (Group& g : groups) {
    if (g.collect) {
      g.values.reserve(g.count);
    } else {
      g.histogram.assign(kBuckets, 0);
    }
  }
  const GroupIndex index(groups);
  for_each_scaled(column, scale, [&](double x) {
    also(x);
    const std::uint64_t key = order_key(x);
    const std::size_t i = index.find(key);
    if (i == GroupIndex::kNone) return;
    Group& g = groups[i];
    if (g.collect) {
      g.values.push_back(x);
    } else {
      ++g.histogram[(key >> (g.shift - kDigitBits)) & (kBuckets - 1)];
    }
  });
}

}  // namespace

core::Stats column_stats_by_selection(const MetricColumn& column, double scale,
                                      std::size_t collect_limit) {
  core::Stats s;
  const std::size_t n = column.size();
  if (n == 0) return s;
  s.count = static_cast<std::int64_t>(n);
  s.min = std::numeric_limits<double>::infinity();
  s.max = -std::numeric_limits<double>::infinity();
  for_each_scaled(column, scale, [&](double x) {
    s.sum += x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  });
  s.avg = s.sum / static_cast<double>(n);

  std::array<core::PercentileRanks, core::kPercentiles.size()> ranks;
  std::array<double, kRanks> at{};  // the values at each percentile's lo and hi ranks
  const std::size_t per_group = std::max<std::size_t>(collect_limit / kRanks, 1);
  std::vector<Group> open(1);
  open[0].count = n;
  open[0].collect = n <= per_group;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    ranks[i] = core::percentile_ranks(n, core::kPercentiles[i]);
    open[0].wanted.emplace_back(ranks[i].lo, &at[2 * i]);
    open[0].wanted.emplace_back(ranks[i].hi, &at[2 * i + 1]);
  }

  double squares = 0;
  pass(column, scale, open, [&](double x) { squares += (x - s.avg) * (x - s.avg); });
  s.std = std::sqrt(squares / static_cast<double>(n));
  while (!open.empty()) {
    std::vector<Group> next;
    for (Group& g : open) {
      if (!g.collect) {
        narrow(g, per_group, next);
        continue;
      }
      for (const auto& [rank, out] : g.wanted) {
        std::nth_element(g.values.begin(), g.values.begin() + static_cast<std::ptrdiff_t>(rank),
                         g.values.end());
        *out = g.values[rank];
      }
    }
    open = std::move(next);
    if (!open.empty()) pass(column, scale, open, [](double) {});
  }
  for (std::size_t i = 0; i < ranks.size(); ++i)
    s.p[i] = core::interpolate_percentile(at[2 * i], at[2 * i + 1], ranks[i].frac);
  return s;
}

}  // namespace inferperf::metrics
