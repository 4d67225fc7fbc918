#include "core/pareto.hpp"

#include <gtest/gtest.h>

namespace inferperf::core {
namespace {

TEST(ParetoMask, EachAxisHasItsOwnDirection) {
  const std::vector<std::pair<double, double>> p = {{1, 10}, {2, 20}, {3, 15}, {2, 20}};
  // Both larger-is-better: (3, 15) and the two equal (2, 20) survive, (1, 10) is beaten.
  EXPECT_EQ(pareto_mask(p, true, true), (std::vector<bool>{false, true, true, true}));
  // x smaller-is-better, y larger: (1, 10) has the best x, (2, 20) the best y; (3, 15) loses to
  // (2, 20) on both.
  EXPECT_EQ(pareto_mask(p, false, true), (std::vector<bool>{true, true, false, true}));
  // Both smaller-is-better: only (1, 10).
  EXPECT_EQ(pareto_mask(p, false, false), (std::vector<bool>{true, false, false, false}));
  EXPECT_TRUE(pareto_mask({}, true, false).empty());
}

}  // namespace
}  // namespace inferperf::core
