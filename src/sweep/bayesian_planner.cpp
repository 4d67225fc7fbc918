#include "sweep/bayesian_planner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "sweep/gaussian_process.hpp"

namespace inferperf::sweep {

namespace {

constexpr double kLogOfZero = -std::numeric_limits<double>::infinity();
constexpr double kLogSqrt2Pi = 0.91893853320467274178;
constexpr double kSqrtHalf = 0.70710678118654752440;
// Random candidates per proposal, per dimension (up to 4 dimensions' worth): enough to land in the
// basin of the acquisition's best peak, which the local rounds (refine) then climb.
constexpr std::size_t kRandomCandidatesPerDim = 500;
constexpr std::size_t kMaxCandidateDims = 4;
// An all-integer box this small is scored point by point: exact, and it knows when it is run out.
constexpr double kMaxLattice = 4096;
// Local rounds: perturbations (normal, sd = scale in unit coordinates) around the best few, so
// many per centre and dimension.
constexpr std::size_t kLocalCentres = 5;
constexpr std::size_t kLocalPerCentrePerDim = 15;
constexpr double kLocalScales[] = {0.1, 0.02};
// Real coordinates count as the same point when they agree to 1e-12 of the range.
constexpr double kRealKeyScale = 1e12;
// The smallest predictive sd used: keeps z finite at training points.
constexpr double kMinSd = 1e-12;

// log Phi(z), accurate far into the lower tail (where Phi underflows) by the asymptotic series of
// Mills' ratio: Phi(z) ~ phi(z) / |z| (1 - 1/z^2 + 3/z^4).
double log_normal_cdf(double z) {
  if (z > -30) return std::log(0.5 * std::erfc(-z * kSqrtHalf));
  const double z2 = z * z;
  return -0.5 * z2 - kLogSqrt2Pi - std::log(-z) + std::log1p(-1.0 / z2 + 3.0 / (z2 * z2));
}

// log(z Phi(z) + phi(z)): expected improvement in units of sd. Far below the incumbent the sum
// cancels to nothing, so there the series phi(z) (1/z^2 - 3/z^4 + 15/z^6) is used instead; without
// it every distant candidate would score log 0 and the search could not rank them.
double log_ei_factor(double z) {
  const double log_phi = -0.5 * z * z - kLogSqrt2Pi;
  if (z > -8) {
    const double h = z * 0.5 * std::erfc(-z * kSqrtHalf) + std::exp(log_phi);
    return h > 0 ? std::log(h) : kLogOfZero;
  }
  const double z2 = z * z;
  return log_phi - std::log(z2) + std::log1p(-3.0 / z2 + 15.0 / (z2 * z2));
}

Eigen::MatrixXd as_matrix(const std::vector<std::vector<double>>& u, std::size_t d) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(u.size()));
  for (std::size_t j = 0; j < u.size(); ++j)
    for (std::size_t k = 0; k < d; ++k)
      m(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j)) = u[j][k];
  return m;
}

// Indices of the `count` highest finite scores, highest first (the earliest on ties).
std::vector<std::size_t> top(const std::vector<double>& scores, std::size_t count) {
  std::vector<std::size_t> idx(scores.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  idx.resize(std::min(count, idx.size()));
  while (!idx.empty() && !std::isfinite(scores[idx.back()])) idx.pop_back();
  return idx;
}

std::size_t candidate_dims(std::size_t d) {
  return std::clamp<std::size_t>(d, 1, kMaxCandidateDims);
}

bool log_dim(const BoDimension& d) {
  return d.log_scale && d.lo > 0 && d.hi > d.lo;
}

}  // namespace

double filter_margin(std::string_view op, double threshold, std::optional<double> value) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (!value || !std::isfinite(*value)) return kNaN;
  const double below = threshold - *value;
  const double strict_zero = -std::numeric_limits<double>::denorm_min();
  if (op == "le") return below;
  if (op == "ge") return -below;
  if (op == "lt") return below == 0 ? strict_zero : below;
  if (op == "gt") return below == 0 ? strict_zero : -below;
  return kNaN;
}

struct BayesianPlanner::Fits {
  explicit Fits(std::uint64_t seed, std::size_t constraints)
      : rng(seed), margin_warm(constraints) {}
  std::mt19937_64 rng;
  // Each GP's last hyperparameters: a start of the next fit, so a fit rarely wanders far.
  std::optional<GpHyperparameters> objective_warm;
  std::vector<std::optional<GpHyperparameters>> margin_warm;
};

struct BayesianPlanner::Models {
  std::optional<GaussianProcess> objective;  // of the objective as maximised (sign flipped)
  std::vector<GaussianProcess> margins;
  std::optional<double> incumbent;  // the best feasible objective, as maximised
  bool any = false;                 // something to model
};

BayesianPlanner::BayesianPlanner(std::vector<BoDimension> dims, bool maximize,
                                 std::size_t constraints,
                                 std::vector<std::vector<double>> initial_unit_points,
                                 std::uint64_t seed)
    : dims_(std::move(dims)),
      maximize_(maximize),
      constraints_(constraints),
      initial_(std::move(initial_unit_points)),
      fits_(std::make_unique<Fits>(seed, constraints)) {}

BayesianPlanner::~BayesianPlanner() = default;
BayesianPlanner::BayesianPlanner(BayesianPlanner&&) noexcept = default;
BayesianPlanner& BayesianPlanner::operator=(BayesianPlanner&&) noexcept = default;

std::vector<double> BayesianPlanner::to_unit(const std::vector<double>& x) const {
  std::vector<double> u(dims_.size(), 0.0);
  for (std::size_t k = 0; k < dims_.size() && k < x.size(); ++k) {
    const BoDimension& d = dims_[k];
    if (!(d.hi > d.lo)) continue;
    const double v = log_dim(d) ? (std::log(std::max(x[k], d.lo)) - std::log(d.lo)) /
                                      (std::log(d.hi) - std::log(d.lo))
                                : (x[k] - d.lo) / (d.hi - d.lo);
    u[k] = std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0.0;
  }
  return u;
}

std::vector<double> BayesianPlanner::from_unit(const std::vector<double>& u) const {
  std::vector<double> x(dims_.size());
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const BoDimension& d = dims_[k];
    const double t = k < u.size() && std::isfinite(u[k]) ? std::clamp(u[k], 0.0, 1.0) : 0.5;
    double v = log_dim(d) ? std::exp(std::log(d.lo) + t * (std::log(d.hi) - std::log(d.lo)))
                          : d.lo + t * (d.hi - d.lo);
    if (d.integer) {
      const double lo = std::ceil(d.lo), hi = std::max(lo, std::floor(d.hi));
      v = std::clamp(std::round(v), lo, hi);
    } else {
      v = std::clamp(v, d.lo, std::max(d.lo, d.hi));
    }
    x[k] = v;
  }
  return x;
}

std::vector<long long> BayesianPlanner::key(const std::vector<double>& x) const {
  const std::vector<double> u = to_unit(x);
  std::vector<long long> k(dims_.size());
  for (std::size_t i = 0; i < dims_.size(); ++i)
    k[i] = dims_[i].integer && i < x.size() && std::isfinite(x[i])
               ? std::llround(x[i])
               : std::llround(u[i] * kRealKeyScale);
  return k;
}

std::optional<std::vector<std::vector<double>>> BayesianPlanner::lattice() const {
  double count = 1;
  for (const BoDimension& d : dims_) {
    if (!d.integer) return std::nullopt;
    count *= std::max(1.0, std::floor(d.hi) - std::ceil(d.lo) + 1);
  }
  if (count > kMaxLattice) return std::nullopt;
  std::vector<std::vector<double>> points{{}};
  for (const BoDimension& d : dims_) {
    const double lo = std::ceil(d.lo), hi = std::max(lo, std::floor(d.hi));
    std::vector<std::vector<double>> grown;
    for (const auto& p : points)
      for (double v = lo; v <= hi; v += 1) {
        grown.push_back(p);
        grown.back().push_back(v);
      }
    points = std::move(grown);
  }
  return points;
}

std::optional<std::vector<double>> BayesianPlanner::next() {
  while (next_initial_ < initial_.size()) {
    std::vector<double> x = from_unit(initial_[next_initial_++]);
    if (visited_.insert(key(x)).second) {
      strategy_ = "initial";
      return x;
    }
  }
  return propose();
}

void BayesianPlanner::record(BoObservation obs) {
  visited_.insert(key(obs.x));
  obs_.push_back(std::move(obs));
}

bool BayesianPlanner::feasible(std::size_t i) const {
  if (i >= obs_.size()) return false;
  const BoObservation& o = obs_[i];
  if (!o.objective || !std::isfinite(*o.objective) || o.margins.size() != constraints_)
    return false;
  return std::all_of(o.margins.begin(), o.margins.end(), [](double m) { return m >= 0; });
}

std::optional<std::size_t> BayesianPlanner::best() const {
  std::optional<std::size_t> b;
  for (std::size_t i = 0; i < obs_.size(); ++i) {
    if (!feasible(i)) continue;
    const double v = *obs_[i].objective, w = b ? *obs_[*b].objective : 0.0;
    if (!b || (maximize_ ? v > w : v < w)) b = i;
  }
  return b;
}

std::vector<std::optional<double>> BayesianPlanner::best_so_far() const {
  std::vector<std::optional<double>> out;
  std::optional<double> b;
  for (std::size_t i = 0; i < obs_.size(); ++i) {
    if (feasible(i)) {
      const double v = *obs_[i].objective;
      if (!b || (maximize_ ? v > *b : v < *b)) b = v;
    }
    out.push_back(b);
  }
  return out;
}

BayesianPlanner::Models BayesianPlanner::fit_models() {
  Models m;
  std::vector<std::vector<double>> units;
  for (const auto& o : obs_) units.push_back(to_unit(o.x));
  std::vector<std::vector<double>> xo;
  std::vector<double> yo;
  for (std::size_t i = 0; i < obs_.size(); ++i) {
    const auto& o = obs_[i].objective;
    if (!o || !std::isfinite(*o)) continue;
    xo.push_back(units[i]);
    yo.push_back(maximize_ ? *o : -*o);
    if (feasible(i) && (!m.incumbent || yo.back() > *m.incumbent)) m.incumbent = yo.back();
  }
  if (!yo.empty()) {
    m.objective.emplace();
    m.objective->fit(xo, yo, fits_->rng(), fits_->objective_warm);
    fits_->objective_warm = m.objective->hyperparameters();
  }
  for (std::size_t k = 0; k < constraints_ && !obs_.empty(); ++k) {
    // A missing margin (the metric was not reported, typically a failed run) is imputed below
    // the worst margin seen and below 0, so the model learns "infeasible here" rather than
    // nothing; a quarter of the margins' spread keeps it on their scale.
    double lo = 0, hi = 0;
    for (const auto& o : obs_)
      if (k < o.margins.size() && std::isfinite(o.margins[k])) {
        lo = std::min(lo, o.margins[k]);
        hi = std::max(hi, o.margins[k]);
      }
    const double missing = hi > lo ? lo - 0.25 * (hi - lo) : -1.0;
    std::vector<double> y;
    for (const auto& o : obs_)
      y.push_back(k < o.margins.size() && std::isfinite(o.margins[k]) ? o.margins[k] : missing);
    m.margins.emplace_back();
    m.margins.back().fit(units, y, fits_->rng(), fits_->margin_warm[k]);
    fits_->margin_warm[k] = m.margins.back().hyperparameters();
  }
  m.any = m.incumbent.has_value() || !m.margins.empty();
  return m;
}

namespace {

// ln of the acquisition at each column of `u`: log EI (when there is an incumbent) plus the log
// probability that each margin is positive. Logs keep the product's ranking where it underflows.
template <typename Models>
std::vector<double> score(const Models& m, const Eigen::MatrixXd& u) {
  std::vector<double> s(static_cast<std::size_t>(u.cols()), 0.0);
  Eigen::VectorXd mean, var;
  for (const GaussianProcess& gp : m.margins) {
    gp.predict(u, mean, var);
    for (std::size_t j = 0; j < s.size(); ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      s[j] += log_normal_cdf(mean(i) / std::max(std::sqrt(var(i)), kMinSd));
    }
  }
  if (m.incumbent && m.objective) {
    m.objective->predict(u, mean, var);
    for (std::size_t j = 0; j < s.size(); ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const double sd = std::max(std::sqrt(var(i)), kMinSd);
      s[j] += std::log(sd) + log_ei_factor((mean(i) - *m.incumbent) / sd);
    }
  }
  for (double& v : s)
    if (std::isnan(v)) v = kLogOfZero;
  return s;
}

}  // namespace

void BayesianPlanner::refine(const Models& m, std::vector<std::vector<double>>& cands,
                             std::vector<double>& scores) {
  std::optional<std::vector<double>> incumbent_unit;
  if (const auto b = best()) incumbent_unit = to_unit(obs_[*b].x);
  for (const double scale : kLocalScales) {
    std::vector<std::vector<double>> centres;
    for (std::size_t i : top(scores, kLocalCentres)) centres.push_back(to_unit(cands[i]));
    if (incumbent_unit) centres.push_back(*incumbent_unit);
    std::vector<std::vector<double>> units;
    for (const auto& c : centres)
      for (std::size_t r = 0; r < kLocalPerCentrePerDim * candidate_dims(dims_.size()); ++r) {
        std::vector<double> u = c;
        for (double& v : u) v += scale * core::normal(fits_->rng, 0.0, 1.0);
        auto p = from_unit(u);
        if (visited(p)) continue;
        units.push_back(to_unit(p));
        cands.push_back(std::move(p));
      }
    const auto more = score(m, as_matrix(units, dims_.size()));
    scores.insert(scores.end(), more.begin(), more.end());
  }
}

std::optional<std::vector<double>> BayesianPlanner::propose() {
  // Candidates in the box's units, snapped, none already run.
  std::vector<std::vector<double>> cands;
  const auto all = lattice();
  if (all) {
    for (auto& p : *all)
      if (!visited(p)) cands.push_back(std::move(p));
  } else {
    std::vector<double> u(dims_.size());
    for (std::size_t i = 0; i < kRandomCandidatesPerDim * candidate_dims(dims_.size()); ++i) {
      for (double& v : u) v = core::uniform_unit(fits_->rng);
      auto p = from_unit(u);
      if (!visited(p)) cands.push_back(std::move(p));
    }
  }
  if (cands.empty()) return std::nullopt;
  const Models m = fit_models();
  std::size_t pick = 0;
  if (!m.any) {
    strategy_ = "random";
    pick = static_cast<std::size_t>(core::uniform_index(fits_->rng, cands.size()));
  } else {
    strategy_ = m.incumbent ? "expected_improvement" : "feasibility";
    std::vector<std::vector<double>> units;
    for (const auto& p : cands) units.push_back(to_unit(p));
    std::vector<double> scores = score(m, as_matrix(units, dims_.size()));
    // A whole lattice was scored exactly; random candidates are refined locally.
    if (!all) refine(m, cands, scores);
    for (std::size_t i = 1; i < scores.size(); ++i)
      if (scores[i] > scores[pick]) pick = i;
  }
  visited_.insert(key(cands[pick]));
  return cands[pick];
}

std::optional<std::string> stop_rule(const std::vector<std::optional<double>>& best_so_far,
                                     int patience, int plateau_window, double plateau_threshold) {
  const auto first = std::find_if(best_so_far.begin(), best_so_far.end(),
                                  [](const std::optional<double>& b) { return b.has_value(); });
  if (first == best_so_far.end()) return std::nullopt;
  const std::size_t last = best_so_far.size() - 1;
  const auto counted = static_cast<std::size_t>(first - best_so_far.begin());
  const auto enough = [&](int size) {
    return size > 0 && last - counted >= static_cast<std::size_t>(size) && best_so_far[last] &&
           best_so_far[last - static_cast<std::size_t>(size)];
  };
  if (enough(patience) &&
      *best_so_far[last] == *best_so_far[last - static_cast<std::size_t>(patience)])
    return "patience";
  if (enough(plateau_window)) {
    const double now = *best_so_far[last];
    const double then = *best_so_far[last - static_cast<std::size_t>(plateau_window)];
    if (std::fabs(now - then) < plateau_threshold * std::fabs(now)) return "plateau";
  }
  return std::nullopt;
}

}  // namespace inferperf::sweep
