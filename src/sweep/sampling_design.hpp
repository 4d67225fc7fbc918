// Sampled sweep designs (AIPerf 0.11 YAML sweep types `sobol` and `latin_hypercube`): the points
// in the unit cube, their values on each dimension's range, and sampling_design.json. Pure: no
// I/O, and one seed gives the same design on every platform (docs/decisions.md, Sampled sweep
// designs: where it differs from SciPy's qmc, which AIPerf uses).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace inferperf::sweep {

inline constexpr std::size_t kDesignMinSamples = 2;
inline constexpr std::size_t kDesignMaxSamples = std::size_t{1} << 20;
// Dimension 1 is van der Corput; 2..32 take Joe & Kuo's direction numbers (new-joe-kuo-6.21201).
inline constexpr std::size_t kSobolMaxDimensions = 32;

struct DesignDimension {
  std::string path;                    // dotted config path, e.g. phases.profiling.concurrency
  double lo = 0, hi = 0;               // inclusive range (ignored when choices are given)
  bool log_scale = false;              // scale: log (needs lo > 0)
  bool integer = false;                // kind: int (needs whole lo and hi)
  std::vector<std::string> choices{};  // non-empty: pick one of these
};

struct DesignSpec {
  std::string type;  // "sobol" | "latin_hypercube"
  std::size_t samples = 0;
  std::vector<DesignDimension> dimensions;
  std::uint64_t seed = 0;
  std::string label_format = "index";  // index | kv
};

// One message per problem, empty when the spec is fine, e.g.
// "dimensions[1] (phases.profiling.rate): scale log needs lo > 0 (got 0)".
std::vector<std::string> check_design(const DesignSpec& spec);

// The first `samples` points of the Sobol sequence in `dims` dimensions (Gray-code order, 32-bit
// direction numbers); with a seed, scrambled by a random linear matrix and a random digital shift
// per dimension. Rows are points. Empty when dims is over kSobolMaxDimensions (or samples over
// 2^32, where 32-bit direction numbers run out).
std::vector<std::vector<double>> sobol_design(std::size_t samples, std::size_t dims,
                                              std::optional<std::uint64_t> seed);
// A Latin hypercube: in every dimension each of the n strata [k/n, (k+1)/n) holds one point, in
// a seeded random order, at a seeded random place inside its stratum.
std::vector<std::vector<double>> lhs_design(std::size_t samples, std::size_t dims,
                                            std::uint64_t seed);
// samples x dims points in [0, 1): the scrambled Sobol design or the Latin hypercube by `type`;
// empty for any other type.
std::vector<std::vector<double>> unit_design(const std::string& type, std::size_t samples,
                                             std::size_t dims, std::uint64_t seed);

// A unit value mapped onto a dimension, as the text the child's flag gets: an int "8", a real its
// shortest round-trip text ("2.5"), a choice as given. Ints: the axis [lo, hi + 1) (linear or
// log) floored, so lo..hi are all reachable; choices: choices[floor(u * n)].
std::string design_value(const DesignDimension& d, double u);
// The design's values: one row per point, one text per dimension.
std::vector<std::vector<std::string>> design_values(const DesignSpec& spec,
                                                    const std::vector<std::vector<double>>& unit);

// sampling_design.json: {type, samples, seed, label_format, dimensions: [{path, lo, hi, scale,
// kind, choices?}], points: [{index (0-based), unit: [...], values: {path: number, or the
// choice's text}}]}.
nlohmann::ordered_json sampling_design_json(const DesignSpec& spec,
                                            const std::vector<std::vector<double>>& unit,
                                            const std::vector<std::vector<std::string>>& values);

// One row of Joe & Kuo's table: the primitive polynomial x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1
// over GF(2) (`a` holds a_1..a_(s-1), a_1 its highest bit) and the odd initial m_1..m_s, m_k < 2^k.
struct SobolPolynomial {
  unsigned degree = 0;
  std::uint32_t a = 0;
  std::array<std::uint32_t, 7> m{};
};
// The rows of dimensions 2..kSobolMaxDimensions, in order.
std::span<const SobolPolynomial> sobol_polynomials();

}  // namespace inferperf::sweep
