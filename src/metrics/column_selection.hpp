// Statistics of a metric column too large to read back whole (a soak's per-token columns): exact
// percentiles by selection over passes through the column, in bounded memory
// (docs/decisions.md, "Columns larger than the budget: exact percentiles by selection").
#pragma once
#include <cstddef>

#include "core/statistics.hpp"
#include "metrics/metric_column.hpp"

namespace inferperf::metrics {

// The statistics core::compute_stats gives for the column's values divided by `scale`, without
// holding them: count, min, max and the percentiles are the same bits (the order statistics of the
// same values); sum, avg and std are summed in record order rather than in sorted order, so they
// may differ in the last bits. At most about `collect_limit` values are held at once, plus a
// 65,536-bucket histogram per percentile rank still being narrowed; each pass reads the column
// once: one for the sums, one for the squares that also counts the top 16 bits of each value's
// order, then one per further 16 bits a rank needs (five passes at most). Bit-identity holds for
// finite values: the order puts -0.0 below +0.0 and NaN above infinity, which sorting does not.
core::Stats column_stats_by_selection(const MetricColumn& column, double scale,
                                      std::size_t collect_limit);

}  // namespace inferperf::metrics
