#include "sweep/sampling_design.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

#include "core/rng.hpp"

namespace inferperf::sweep {

namespace {

constexpr unsigned kBits = 32;  // direction numbers are 32-bit words
constexpr double kTwoToMinus32 = 0x1.0p-32;
constexpr double kMaxWholeInt = 0x1.0p53;  // ints beyond this are not exact as doubles

// Joe & Kuo, new-joe-kuo-6.21201, dimensions 2..32: degree s, coefficients a, m_1..m_s.
constexpr std::array<SobolPolynomial, kSobolMaxDimensions - 1> kJoeKuo = {{
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},
    {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},
    {6, 19, {1, 1, 1, 15, 7, 5}},
    {6, 22, {1, 3, 1, 15, 13, 25}},
    {6, 25, {1, 1, 5, 5, 19, 61}},
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},
    {7, 4, {1, 3, 7, 13, 13, 15, 69}},
    {7, 7, {1, 1, 3, 13, 7, 35, 63}},
    {7, 8, {1, 3, 5, 9, 1, 25, 53}},
    {7, 14, {1, 3, 1, 13, 9, 35, 107}},
    {7, 19, {1, 3, 1, 5, 27, 61, 31}},
    {7, 21, {1, 1, 5, 11, 19, 41, 61}},
    {7, 28, {1, 3, 5, 3, 3, 13, 69}},
    {7, 31, {1, 1, 7, 13, 1, 19, 1}},
    {7, 32, {1, 3, 7, 5, 13, 19, 59}},
    {7, 37, {1, 1, 3, 9, 25, 29, 41}},
    {7, 41, {1, 3, 5, 13, 23, 1, 55}},
    {7, 42, {1, 3, 7, 3, 13, 59, 17}},
}};

// One seeded stream per (design kind, dimension), named as core's streams are: a dimension's
// numbers do not depend on how many dimensions the design has, and the Sobol scramble and the
// Latin hypercube of one seed are unrelated.
class Stream {
 public:
  Stream(std::uint64_t seed, const char* kind, std::size_t dim)
      : rng_(core::derive_seed(seed, fmt::format("sweep.design.{}.{}", kind, dim))) {}
  std::uint32_t next32() { return static_cast<std::uint32_t>(rng_() >> 32); }
  // [0, 1) from the top 53 bits: every value is exact, none is 1.
  double unit() { return core::uniform_unit(rng_); }
  // Uniform in [0, n) without modulo bias.
  std::uint64_t below(std::uint64_t n) { return core::uniform_index(rng_, n); }

 private:
  std::mt19937_64 rng_;
};

using Directions = std::array<std::uint32_t, kBits>;

// V_k = m_k / 2^k as a 32-bit fraction; dimension 0 (van der Corput) has every m_k = 1. Beyond
// the degree s, Joe & Kuo's recurrence: V_k = V_(k-s) ^ (V_(k-s) >> s) ^ sum a_i V_(k-i).
Directions direction_numbers(std::size_t dim) {
  Directions v{};
  if (dim == 0) {
    for (unsigned k = 0; k < kBits; ++k) v[k] = std::uint32_t{1} << (kBits - 1 - k);
    return v;
  }
  const SobolPolynomial& p = kJoeKuo[dim - 1];
  const unsigned s = p.degree;
  for (unsigned k = 0; k < s; ++k) v[k] = p.m[k] << (kBits - 1 - k);
  for (unsigned k = s; k < kBits; ++k) {
    v[k] = v[k - s] ^ (v[k - s] >> s);
    for (unsigned i = 1; i < s; ++i)
      if ((p.a >> (s - 1 - i)) & 1u) v[k] ^= v[k - i];
  }
  return v;
}

// A random lower-triangular binary matrix with a unit diagonal, applied to every direction number:
// output digit i (from the most significant) is the parity of input digits 1..i picked by row i.
// The first i output digits are an invertible function of the first i input digits, so every
// elementary interval keeps its count of points (the net's quality is unchanged).
void scramble_linear(Directions& v, Stream& rng) {
  std::array<std::uint32_t, kBits> rows{};
  for (unsigned i = 0; i < kBits; ++i) {
    const std::uint32_t diagonal = std::uint32_t{1} << (kBits - 1 - i);
    const std::uint32_t above = ~(diagonal | (diagonal - 1));  // the more significant digits
    rows[i] = diagonal | (rng.next32() & above);
  }
  for (std::uint32_t& word : v) {
    std::uint32_t out = 0;
    for (unsigned i = 0; i < kBits; ++i)
      if (std::popcount(rows[i] & word) & 1) out |= std::uint32_t{1} << (kBits - 1 - i);
    word = out;
  }
}

// Column `dim` of the design: point i XORs the direction numbers picked by i's Gray code, so each
// point differs from the one before by one word (the lowest zero bit of i - 1).
void fill_sobol_column(std::vector<std::vector<double>>& rows, std::size_t dim, const Directions& v,
                       std::uint32_t shift) {
  std::uint32_t x = shift;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) x ^= v[static_cast<unsigned>(std::countr_one(i - 1))];
    rows[i][dim] = static_cast<double>(x) * kTwoToMinus32;
  }
}

// (stratum + jitter) / n, nudged so that floor(u * n), as design_value computes it, is the stratum:
// rounding could otherwise move a point across its stratum's edge.
double place_in_stratum(std::size_t stratum, double jitter, std::size_t n) {
  const double nd = static_cast<double>(n);
  const double want = static_cast<double>(stratum);
  double u = (want + jitter) / nd;
  while (std::floor(u * nd) > want) u = std::nextafter(u, 0.0);
  while (std::floor(u * nd) < want) u = std::nextafter(u, 1.0);
  return u;
}

std::string number_text(double v) {
  return fmt::format("{}", v);
}

bool whole(double v) {
  return std::floor(v) == v && std::fabs(v) <= kMaxWholeInt;
}

std::string dimension_name(std::size_t i, const DesignDimension& d) {
  return d.path.empty() ? fmt::format("dimensions[{}]", i)
                        : fmt::format("dimensions[{}] ({})", i, d.path);
}

// The range checks of a dimension without choices.
void check_range(const std::string& name, const DesignDimension& d, std::vector<std::string>& out) {
  if (!std::isfinite(d.lo) || !std::isfinite(d.hi)) {
    out.push_back(name + ": lo and hi must be finite numbers");
    return;
  }
  if (d.lo >= d.hi)
    out.push_back(fmt::format("{}: lo ({}) must be below hi ({})", name, d.lo, d.hi));
  if (d.log_scale && d.lo <= 0)
    out.push_back(fmt::format("{}: scale log needs lo > 0 (got {})", name, d.lo));
  if (d.integer && (!whole(d.lo) || !whole(d.hi)))
    out.push_back(fmt::format("{}: kind int needs whole lo and hi of at most 2^53 (got {} and {})",
                              name, d.lo, d.hi));
}

void check_dimensions(const DesignSpec& spec, std::vector<std::string>& out) {
  if (spec.dimensions.empty()) out.push_back("dimensions: at least one is needed");
  if (spec.type == "sobol" && spec.dimensions.size() > kSobolMaxDimensions)
    out.push_back(fmt::format("dimensions: sobol supports at most {} (got {})", kSobolMaxDimensions,
                              spec.dimensions.size()));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < spec.dimensions.size(); ++i) {
    const DesignDimension& d = spec.dimensions[i];
    const std::string name = dimension_name(i, d);
    if (d.path.empty()) out.push_back(name + ": path is empty");
    if (!d.path.empty() && !seen.insert(d.path).second)
      out.push_back(name + ": path appears in an earlier dimension too");
    if (d.choices.empty()) check_range(name, d, out);
  }
}

// The unit value's place on the axis [lo, top), linearly or logarithmically.
double scaled(bool log_scale, double lo, double top, double u) {
  if (log_scale) return lo * std::exp(u * std::log(top / lo));  // exactly lo at u = 0
  return lo + u * (top - lo);
}

}  // namespace

std::span<const SobolPolynomial> sobol_polynomials() {
  return kJoeKuo;
}

std::vector<std::string> check_design(const DesignSpec& spec) {
  std::vector<std::string> out;
  if (spec.type != "sobol" && spec.type != "latin_hypercube")
    out.push_back(fmt::format("type must be sobol or latin_hypercube (got '{}')", spec.type));
  if (spec.samples < kDesignMinSamples || spec.samples > kDesignMaxSamples)
    out.push_back(fmt::format("samples must be {} to {} (got {})", kDesignMinSamples,
                              kDesignMaxSamples, spec.samples));
  if (spec.label_format != "index" && spec.label_format != "kv")
    out.push_back(fmt::format("label_format must be index or kv (got '{}')", spec.label_format));
  check_dimensions(spec, out);
  return out;
}

std::vector<std::vector<double>> sobol_design(std::size_t samples, std::size_t dims,
                                              std::optional<std::uint64_t> seed) {
  if (dims > kSobolMaxDimensions || samples > (std::size_t{1} << kBits)) return {};
  std::vector<std::vector<double>> rows(samples, std::vector<double>(dims));
  for (std::size_t j = 0; j < dims; ++j) {
    Directions v = direction_numbers(j);
    std::uint32_t shift = 0;
    if (seed) {
      Stream rng(*seed, "sobol", j);
      scramble_linear(v, rng);
      shift = rng.next32();
    }
    fill_sobol_column(rows, j, v, shift);
  }
  return rows;
}

std::vector<std::vector<double>> lhs_design(std::size_t samples, std::size_t dims,
                                            std::uint64_t seed) {
  std::vector<std::vector<double>> rows(samples, std::vector<double>(dims));
  std::vector<std::size_t> strata(samples);
  for (std::size_t j = 0; j < dims; ++j) {
    Stream rng(seed, "lhs", j);
    std::iota(strata.begin(), strata.end(), std::size_t{0});
    for (std::size_t i = samples; i > 1; --i)  // Fisher-Yates
      std::swap(strata[i - 1], strata[static_cast<std::size_t>(rng.below(i))]);
    for (std::size_t i = 0; i < samples; ++i)
      rows[i][j] = place_in_stratum(strata[i], rng.unit(), samples);
  }
  return rows;
}

std::vector<std::vector<double>> unit_design(const std::string& type, std::size_t samples,
                                             std::size_t dims, std::uint64_t seed) {
  if (type == "sobol") return sobol_design(samples, dims, seed);
  if (type == "latin_hypercube") return lhs_design(samples, dims, seed);
  return {};
}

std::string design_value(const DesignDimension& d, double u) {
  u = std::isnan(u) ? 0.0 : std::clamp(u, 0.0, 1.0);
  if (!d.choices.empty()) {
    const std::size_t n = d.choices.size();
    const auto k = static_cast<std::size_t>(u * static_cast<double>(n));
    return d.choices[std::min(k, n - 1)];
  }
  if (d.integer) {
    // Integer k owns [k, k + 1) of the axis, so hi has a share as wide as lo's (linear).
    const double x = std::floor(scaled(d.log_scale, d.lo, d.hi + 1, u));
    return fmt::format("{}", static_cast<long long>(std::clamp(x, d.lo, d.hi)));
  }
  return number_text(std::clamp(scaled(d.log_scale, d.lo, d.hi, u), d.lo, d.hi));
}

std::vector<std::vector<std::string>> design_values(const DesignSpec& spec,
                                                    const std::vector<std::vector<double>>& unit) {
  std::vector<std::vector<std::string>> out;
  out.reserve(unit.size());
  for (const auto& point : unit) {
    std::vector<std::string> row;
    row.reserve(spec.dimensions.size());
    for (std::size_t j = 0; j < spec.dimensions.size() && j < point.size(); ++j)
      row.push_back(design_value(spec.dimensions[j], point[j]));
    out.push_back(std::move(row));
  }
  return out;
}

namespace {

nlohmann::ordered_json bound_json(const DesignDimension& d, double v) {
  if (d.integer && whole(v)) return static_cast<std::int64_t>(v);
  return v;
}

nlohmann::ordered_json dimension_json(const DesignDimension& d) {
  nlohmann::ordered_json j;
  j["path"] = d.path;
  j["lo"] = bound_json(d, d.lo);
  j["hi"] = bound_json(d, d.hi);
  j["scale"] = d.log_scale ? "log" : "linear";
  j["kind"] = d.integer ? "int" : "real";
  if (!d.choices.empty()) j["choices"] = d.choices;
  return j;
}

// A value's JSON: the choice's text, else the number its text spells (an integer for kind int).
nlohmann::ordered_json value_json(const DesignDimension& d, const std::string& text) {
  if (!d.choices.empty()) return text;
  const char* first = text.data();
  const char* last = first + text.size();
  if (d.integer) {
    long long n = 0;
    if (std::from_chars(first, last, n).ec == std::errc()) return n;
  } else {
    double x = 0;
    if (std::from_chars(first, last, x).ec == std::errc()) return x;
  }
  return text;
}

}  // namespace

nlohmann::ordered_json sampling_design_json(const DesignSpec& spec,
                                            const std::vector<std::vector<double>>& unit,
                                            const std::vector<std::vector<std::string>>& values) {
  nlohmann::ordered_json j;
  j["type"] = spec.type;
  j["samples"] = spec.samples;
  j["seed"] = spec.seed;
  j["label_format"] = spec.label_format;
  j["dimensions"] = nlohmann::ordered_json::array();
  for (const auto& d : spec.dimensions) j["dimensions"].push_back(dimension_json(d));
  j["points"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < unit.size(); ++i) {
    nlohmann::ordered_json point;
    point["index"] = i;
    point["unit"] = unit[i];
    point["values"] = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < spec.dimensions.size() && i < values.size(); ++k)
      if (k < values[i].size())
        point["values"][spec.dimensions[k].path] = value_json(spec.dimensions[k], values[i][k]);
    j["points"].push_back(std::move(point));
  }
  return j;
}

}  // namespace inferperf::sweep
