// Sampled sweep designs (AIPerf 0.11 sweep types sobol and latin_hypercube). The Sobol values are
// checked against the sequence's published first points and its defining properties: Joe & Kuo's
// polynomials are exactly the primitive ones in order, every dimension is stratified in base 2,
// and every pair of dimensions is a (t, m, 2)-net with Sobol's t bound, before and after the
// seeded scramble. The Latin hypercube is checked stratum by stratum.
#include "sweep/sampling_design.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>

namespace inferperf::sweep {
namespace {

using Design = std::vector<std::vector<double>>;

std::vector<double> column(const Design& d, std::size_t j) {
  std::vector<double> out;
  for (const auto& row : d) out.push_back(row[j]);
  return out;
}

// True when each of the `cells` intervals [k / cells, (k + 1) / cells) holds exactly
// values.size() / cells of the values.
bool stratified(const std::vector<double>& values, std::size_t cells) {
  std::vector<std::size_t> count(cells);
  for (double u : values) {
    if (!(u >= 0 && u < 1)) return false;
    ++count[std::min(cells - 1, static_cast<std::size_t>(u * static_cast<double>(cells)))];
  }
  const std::size_t each = values.size() / cells;
  return std::all_of(count.begin(), count.end(), [&](std::size_t c) { return c == each; });
}

// True when the 2^m points' projection on dimensions (x, y) puts 2^t of them in every box of
// 2^-a by 2^-b with a + b = m - t: a (t, m, 2)-net in base 2. The values are multiples of 2^-32,
// so the boxes are read off the binary digits exactly.
bool is_net(const Design& d, std::size_t x, std::size_t y, unsigned m, unsigned t) {
  for (unsigned a = 0; a <= m - t; ++a) {
    const unsigned b = m - t - a;
    std::vector<unsigned> count(std::size_t{1} << (m - t));
    for (std::size_t i = 0; i < (std::size_t{1} << m); ++i) {
      const auto ux = static_cast<std::uint64_t>(std::ldexp(d[i][x], 32));
      const auto uy = static_cast<std::uint64_t>(std::ldexp(d[i][y], 32));
      ++count[((ux >> (32 - a)) << b) | (uy >> (32 - b))];
    }
    const unsigned each = 1u << t;
    if (!std::all_of(count.begin(), count.end(), [&](unsigned c) { return c == each; }))
      return false;
  }
  return true;
}

// Sobol's t for a pair of dimensions: the sum of (degree - 1) of their polynomials, dimension 1's
// (van der Corput, the polynomial x) counting 0.
unsigned pair_t(std::size_t x, std::size_t y) {
  const auto excess = [](std::size_t dim) {
    return dim == 0 ? 0u : sobol_polynomials()[dim - 1].degree - 1;
  };
  return excess(x) + excess(y);
}

// The multiplicative order of x modulo the polynomial `poly` (bit k: the coefficient of x^k) over
// GF(2); 2^s - 1 exactly when the polynomial of degree s is primitive.
std::uint64_t order_of_x(std::uint32_t poly, unsigned degree) {
  std::uint32_t r = 1;
  for (std::uint64_t k = 1; k <= (std::uint64_t{1} << degree); ++k) {
    r <<= 1;
    if (r & (1u << degree)) r ^= poly;
    if (r == 1) return k;
  }
  return 0;
}

TEST(SamplingDesign, UnscrambledSobolStartsWithThePublishedPoints) {
  const Design d = sobol_design(8, 3, std::nullopt);
  ASSERT_EQ(d.size(), 8u);
  EXPECT_EQ(column(d, 0), (std::vector<double>{0, 0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125}));
  EXPECT_EQ(column(d, 1), (std::vector<double>{0, 0.5, 0.25, 0.75, 0.375, 0.875, 0.125, 0.625}));
  EXPECT_EQ(column(d, 2), (std::vector<double>{0, 0.5, 0.25, 0.75, 0.625, 0.125, 0.875, 0.375}));
}

// Values from a line-by-line transcription of Joe & Kuo's reference generator (sobol.cc) into
// Python, run on their table: the recurrence beyond the initial m values, in dimensions 14, 21, 32.
TEST(SamplingDesign, HighDimensionsMatchTheReferenceGenerator) {
  const Design d = sobol_design(1024, kSobolMaxDimensions, std::nullopt);
  EXPECT_EQ(d[100][13], 0.8515625);
  EXPECT_EQ(d[100][20], 0.7578125);
  EXPECT_EQ(d[100][31], 0.4140625);
  EXPECT_EQ(d[1000][13], 0.3837890625);
  EXPECT_EQ(d[1000][20], 0.5224609375);
  EXPECT_EQ(d[1000][31], 0.1455078125);
  EXPECT_EQ(d[1023][13], 0.6650390625);
  EXPECT_EQ(d[1023][20], 0.8662109375);
  EXPECT_EQ(d[1023][31], 0.6142578125);
}

TEST(SamplingDesign, DimensionOneIsVanDerCorputInGrayCodeOrder) {
  const Design d = sobol_design(1000, 1, std::nullopt);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    std::uint32_t gray = i ^ (i >> 1), reversed = 0;
    for (int k = 0; k < 32; ++k) reversed |= ((gray >> k) & 1u) << (31 - k);
    ASSERT_EQ(d[i][0], std::ldexp(static_cast<double>(reversed), -32)) << i;
  }
}

TEST(SamplingDesign, JoeKuoPolynomialsAreThePrimitiveOnesInOrder) {
  // Degrees 1..6: every primitive polynomial, by increasing a; degree 7: the first ones of it.
  std::vector<std::pair<unsigned, std::uint32_t>> primitive;
  for (unsigned s = 1; s <= 7; ++s)
    for (std::uint32_t a = 0; a < (1u << (s - 1)); ++a)
      if (order_of_x((1u << s) | (a << 1) | 1u, s) == (1u << s) - 1) primitive.emplace_back(s, a);
  const auto table = sobol_polynomials();
  ASSERT_EQ(table.size(), kSobolMaxDimensions - 1);
  ASSERT_GE(primitive.size(), table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].degree, primitive[i].first) << "dimension " << i + 2;
    EXPECT_EQ(table[i].a, primitive[i].second) << "dimension " << i + 2;
    for (unsigned k = 0; k < table[i].degree; ++k) {
      EXPECT_EQ(table[i].m[k] % 2, 1u) << "dimension " << i + 2;  // odd and below 2^(k+1)
      EXPECT_LT(table[i].m[k], 2u << k) << "dimension " << i + 2;
    }
  }
  EXPECT_EQ(primitive.size(), 1u + 1 + 2 + 2 + 6 + 6 + 18);  // phi(2^s - 1) / s per degree
}

TEST(SamplingDesign, EveryDimensionHasOnePointPerElementaryInterval) {
  for (const std::optional<std::uint64_t> seed : {std::optional<std::uint64_t>{}, {1}, {42}}) {
    const Design d = sobol_design(1024, kSobolMaxDimensions, seed);
    for (std::size_t j = 0; j < kSobolMaxDimensions; ++j) {
      const std::vector<double> all = column(d, j);
      for (std::size_t n = 1; n <= 1024; n *= 2) {
        const std::vector<double> first(all.begin(), all.begin() + static_cast<long>(n));
        ASSERT_TRUE(stratified(first, n)) << "dimension " << j + 1 << ", " << n << " points";
      }
    }
  }
}

TEST(SamplingDesign, EveryPairOfDimensionsIsANetWithSobolsT) {
  constexpr unsigned m = 10;
  for (const std::optional<std::uint64_t> seed : {std::optional<std::uint64_t>{}, {7}}) {
    const Design d = sobol_design(1u << m, kSobolMaxDimensions, seed);
    for (std::size_t x = 0; x < kSobolMaxDimensions; ++x)
      for (std::size_t y = x + 1; y < kSobolMaxDimensions; ++y) {
        const unsigned t = std::min(pair_t(x, y), m);
        ASSERT_TRUE(is_net(d, x, y, m, t)) << "dimensions " << x + 1 << ", " << y + 1;
      }
    EXPECT_TRUE(is_net(d, 0, 1, m, 0));  // the first two dimensions are a (0, m, 2)-net
  }
}

TEST(SamplingDesign, TheScrambleMovesThePointsAndTheSeedChoosesHow) {
  const Design plain = sobol_design(64, 5, std::nullopt);
  const Design a = sobol_design(64, 5, 1);
  EXPECT_EQ(a, sobol_design(64, 5, 1));
  EXPECT_NE(a, plain);
  EXPECT_NE(a, sobol_design(64, 5, 2));
  EXPECT_NE(a[0][0], 0.0);  // the digital shift moves even the first point
  // A dimension's column does not depend on how many dimensions the design has.
  EXPECT_EQ(column(sobol_design(64, 2, 1), 1), column(a, 1));
  EXPECT_EQ(unit_design("sobol", 64, 5, 1), a);
}

TEST(SamplingDesign, SobolRefusesMoreDimensionsThanItsTable) {
  EXPECT_TRUE(sobol_design(8, kSobolMaxDimensions + 1, 1).empty());
  EXPECT_TRUE(unit_design("grid", 8, 2, 1).empty());
}

TEST(SamplingDesign, LatinHypercubePutsOnePointInEveryStratum) {
  for (std::size_t n : {2u, 7u, 100u, 1000u}) {
    const Design d = lhs_design(n, 6, 5);
    ASSERT_EQ(d.size(), n);
    for (std::size_t j = 0; j < 6; ++j)
      EXPECT_TRUE(stratified(column(d, j), n)) << n << " points, dimension " << j + 1;
  }
}

TEST(SamplingDesign, LatinHypercubeIsSeeded) {
  const Design a = unit_design("latin_hypercube", 50, 3, 9);
  EXPECT_EQ(a, lhs_design(50, 3, 9));
  EXPECT_NE(a, lhs_design(50, 3, 10));
  EXPECT_NE(column(a, 0), column(a, 1));  // each dimension its own permutation
  EXPECT_EQ(column(lhs_design(50, 1, 9), 0), column(a, 0));
  EXPECT_NE(a, sobol_design(50, 3, 9));
}

// Regression values of this implementation: a seed must give these numbers on every platform.
TEST(SamplingDesign, SeededDesignsAreFrozen) {
  const Design s = sobol_design(2, 2, 42);
  const Design l = lhs_design(2, 2, 42);
  EXPECT_EQ(s[1][0], 0x1.2fa18a2p-4);
  EXPECT_EQ(s[1][1], 0x1.27c29134p-1);
  EXPECT_EQ(l[0][0], 0x1.88378806103fap-1);
  EXPECT_EQ(l[1][1], 0x1.9cc11a357a14ep-3);
}

TEST(SamplingDesign, IntsShareTheUnitIntervalEqually) {
  DesignDimension d{.path = "c", .lo = 1, .hi = 4, .integer = true};
  const double below_one = std::nextafter(1.0, 0.0);
  EXPECT_EQ(design_value(d, 0.0), "1");
  EXPECT_EQ(design_value(d, 0.2499), "1");
  EXPECT_EQ(design_value(d, 0.25), "2");
  EXPECT_EQ(design_value(d, 0.5), "3");
  EXPECT_EQ(design_value(d, 0.75), "4");
  EXPECT_EQ(design_value(d, below_one), "4");
  d.lo = -3;
  d.hi = 3;
  EXPECT_EQ(design_value(d, 0.5), "0");
  EXPECT_EQ(design_value(d, 0.0), "-3");
  // Log: integer k owns [k, k + 1) of the log axis from 1 to 16.
  d = {.path = "c", .lo = 1, .hi = 15, .log_scale = true, .integer = true};
  EXPECT_EQ(design_value(d, 0.0), "1");
  EXPECT_EQ(design_value(d, 0.5), "4");  // sqrt(16)
  EXPECT_EQ(design_value(d, 0.49), "3");
  EXPECT_EQ(design_value(d, below_one), "15");
}

TEST(SamplingDesign, RealsAreLinearOrLogAndPrintedShortest) {
  DesignDimension d{.path = "r", .lo = 1, .hi = 4};
  EXPECT_EQ(design_value(d, 0.0), "1");
  EXPECT_EQ(design_value(d, 0.5), "2.5");
  EXPECT_EQ(design_value(d, 0.1), "1.3");
  EXPECT_LT(std::stod(design_value(d, std::nextafter(1.0, 0.0))), 4.0);
  d.log_scale = true;
  d.lo = 0.1;
  d.hi = 1000;
  EXPECT_EQ(design_value(d, 0.0), "0.1");
  EXPECT_NEAR(std::stod(design_value(d, 0.5)), 10.0, 1e-12);
  EXPECT_NEAR(std::stod(design_value(d, 0.25)), 1.0, 1e-12);
  const double top = std::stod(design_value(d, std::nextafter(1.0, 0.0)));
  EXPECT_LE(top, 1000.0);
  EXPECT_GT(top, 999.99);
}

TEST(SamplingDesign, ChoicesSplitTheUnitIntervalEvenly) {
  const DesignDimension d{.path = "m", .choices = {"a", "b", "c"}};
  EXPECT_EQ(design_value(d, 0.0), "a");
  EXPECT_EQ(design_value(d, 0.33), "a");
  EXPECT_EQ(design_value(d, 0.34), "b");
  EXPECT_EQ(design_value(d, 0.5), "b");
  EXPECT_EQ(design_value(d, 0.67), "c");
  EXPECT_EQ(design_value(d, std::nextafter(1.0, 0.0)), "c");
  EXPECT_EQ(design_value(d, 1.0), "c");  // clamped, never past the end
}

DesignSpec good_spec() {
  DesignSpec s;
  s.type = "sobol";
  s.samples = 8;
  s.seed = 3;
  s.dimensions = {{.path = "phases.profiling.concurrency", .lo = 1, .hi = 64, .integer = true},
                  {.path = "phases.profiling.rate", .lo = 0.5, .hi = 50, .log_scale = true},
                  {.path = "endpoint.streaming", .choices = {"true", "false"}}};
  return s;
}

TEST(SamplingDesign, CheckDesignNamesEveryProblem) {
  EXPECT_TRUE(check_design(good_spec()).empty());
  DesignSpec s = good_spec();
  s.samples = 1;
  EXPECT_EQ(check_design(s), std::vector<std::string>{"samples must be 2 to 1048576 (got 1)"});
  s.samples = (1u << 20) + 1;
  EXPECT_EQ(check_design(s),
            std::vector<std::string>{"samples must be 2 to 1048576 (got 1048577)"});
  s = good_spec();
  s.type = "halton";
  s.label_format = "name";
  EXPECT_EQ(check_design(s),
            (std::vector<std::string>{"type must be sobol or latin_hypercube (got 'halton')",
                                      "label_format must be index or kv (got 'name')"}));
  s = good_spec();
  s.dimensions[0].lo = 64;
  s.dimensions[1].lo = 0;
  EXPECT_EQ(check_design(s),
            (std::vector<std::string>{
                "dimensions[0] (phases.profiling.concurrency): lo (64) must be below hi (64)",
                "dimensions[1] (phases.profiling.rate): scale log needs lo > 0 (got 0)"}));
  s = good_spec();
  s.dimensions[0].lo = 1.5;
  s.dimensions[1].hi = NAN;
  s.dimensions[2].path = "phases.profiling.concurrency";
  EXPECT_EQ(check_design(s),
            (std::vector<std::string>{
                "dimensions[0] (phases.profiling.concurrency): kind int needs whole lo and hi of "
                "at most 2^53 (got 1.5 and 64)",
                "dimensions[1] (phases.profiling.rate): lo and hi must be finite numbers",
                "dimensions[2] (phases.profiling.concurrency): path appears in an earlier "
                "dimension too"}));
}

TEST(SamplingDesign, CheckDesignLimitsSobolDimensions) {
  DesignSpec s = good_spec();
  s.dimensions.clear();
  EXPECT_EQ(check_design(s), std::vector<std::string>{"dimensions: at least one is needed"});
  for (std::size_t i = 0; i <= kSobolMaxDimensions; ++i)
    s.dimensions.push_back({.path = "p" + std::to_string(i), .lo = 0, .hi = 1});
  EXPECT_EQ(check_design(s),
            std::vector<std::string>{"dimensions: sobol supports at most 32 (got 33)"});
  s.type = "latin_hypercube";
  EXPECT_TRUE(check_design(s).empty());
}

TEST(SamplingDesign, TheFileHoldsTheSpecAndEveryPoint) {
  const DesignSpec s = good_spec();
  const Design unit = unit_design(s.type, s.samples, s.dimensions.size(), s.seed);
  const auto values = design_values(s, unit);
  ASSERT_EQ(values.size(), 8u);
  ASSERT_EQ(values[0].size(), 3u);
  const auto j = sampling_design_json(s, unit, values);
  EXPECT_EQ(j["type"], "sobol");
  EXPECT_EQ(j["samples"], 8);
  EXPECT_EQ(j["seed"], 3);
  EXPECT_EQ(j["label_format"], "index");
  ASSERT_EQ(j["dimensions"].size(), 3u);
  EXPECT_EQ(j["dimensions"][0].dump(),
            R"({"path":"phases.profiling.concurrency","lo":1,"hi":64,"scale":"linear",)"
            R"("kind":"int"})");
  EXPECT_EQ(j["dimensions"][1].dump(),
            R"({"path":"phases.profiling.rate","lo":0.5,"hi":50.0,"scale":"log","kind":"real"})");
  EXPECT_EQ(j["dimensions"][2]["choices"], (nlohmann::json{"true", "false"}));
  ASSERT_EQ(j["points"].size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    const auto& p = j["points"][i];
    EXPECT_EQ(p["index"], i);
    EXPECT_EQ(p["unit"].get<std::vector<double>>(), unit[i]);
    const auto& v = p["values"];
    ASSERT_EQ(v.size(), 3u);
    EXPECT_TRUE(v["phases.profiling.concurrency"].is_number_integer());
    EXPECT_EQ(std::to_string(v["phases.profiling.concurrency"].get<long long>()), values[i][0]);
    EXPECT_TRUE(v["phases.profiling.rate"].is_number_float());
    EXPECT_EQ(v["phases.profiling.rate"].get<double>(), std::stod(values[i][1]));
    EXPECT_EQ(v["endpoint.streaming"], values[i][2]);
  }
}

}  // namespace
}  // namespace inferperf::sweep
