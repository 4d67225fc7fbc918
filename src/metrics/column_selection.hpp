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
// once (two for the sums, then one per 16 bits of the values' order a rank needs, at most four).
core::Stats column_stats_by_selection(const MetricColumn& column, double scale,
                                      std::size_t collect_limit);

}  // namespace inferperf::metrics
