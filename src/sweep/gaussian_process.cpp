#include "sweep/gaussian_process.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Cholesky>

namespace inferperf::sweep {

namespace {

constexpr double kSqrt5 = 2.2360679774997896964;
constexpr double kLog2Pi = 1.8378770664093454836;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
// Likelihood evaluations one fit may spend, up to kBudgetPoints points; beyond that the budget
// shrinks in proportion (to no less than kMinFitBudget), since an evaluation costs O(n^3) (about
// 0.6 ms at 200 points) and the planner fits one GP per SLA filter besides the objective's, each
// starting from its last fit's hyperparameters, which more data moves less.
constexpr int kFitBudget = 200;
constexpr int kBudgetPoints = 100;
constexpr int kMinFitBudget = 80;
constexpr int kRandomStarts = 6;
constexpr int kSearchedStarts = 2;
// The pattern search's first and smallest steps, in natural-log units (a factor of e, then
// down to about 6%: finer than that does not change which point the acquisition picks).
constexpr double kFirstStep = 1.0;
constexpr double kLastStep = 1.0 / 16;

// Matérn 5/2 of a matrix of squared scaled distances, times the signal variance.
Eigen::MatrixXd matern_matrix(const Eigen::ArrayXXd& r2, double signal_variance) {
  const Eigen::ArrayXXd s = (5.0 * r2).sqrt();
  return (signal_variance * (1.0 + s + s.square() / 3.0) * (-s).exp()).matrix();
}

// Cholesky of `k`, adding jitter to its diagonal (from 1e-10 up to 1e-1 of `scale`) when rounding
// leaves it not quite positive definite, as happens with near-duplicate points and tiny noise;
// false when even that fails (or k holds a non-finite value), so callers never see NaN.
bool cholesky(Eigen::MatrixXd k, double scale, Eigen::LLT<Eigen::MatrixXd>& llt) {
  if (!k.allFinite()) return false;
  llt.compute(k);
  double added = 0;
  for (double jitter = 1e-10 * scale; llt.info() != Eigen::Success; jitter *= 10) {
    if (jitter > 0.1 * scale) return false;
    k.diagonal().array() += jitter - added;
    added = jitter;
    llt.compute(k);
  }
  return true;
}

double lml_of(const Eigen::LLT<Eigen::MatrixXd>& llt, const Eigen::VectorXd& y) {
  const Eigen::VectorXd v = llt.matrixL().solve(y);
  const double half_log_det = llt.matrixLLT().diagonal().array().log().sum();
  const double n = static_cast<double>(y.size());
  const double r = -0.5 * v.squaredNorm() - half_log_det - 0.5 * n * kLog2Pi;
  return std::isfinite(r) ? r : kNegInf;
}

// The log marginal likelihood as a function of theta = (ln length scales..., ln signal variance,
// ln noise variance). The per-dimension squared differences are computed once, so that each
// evaluation only rescales and sums them before the Cholesky.
class Likelihood {
 public:
  Likelihood(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) : y_(y) {
    const auto n = x.cols();
    for (Eigen::Index k = 0; k < x.rows(); ++k) {
      const Eigen::ArrayXXd row = x.row(k).replicate(n, 1).array();
      diffs_.push_back((row - row.transpose()).square());
    }
  }
  double operator()(const std::vector<double>& theta) const {
    const auto n = y_.size();
    const std::size_t d = diffs_.size();
    std::vector<double> inv_l2(d);
    for (std::size_t k = 0; k < d; ++k) inv_l2[k] = std::exp(-2.0 * theta[k]);
    const double signal = std::exp(theta[d]);
    // Only the lower triangle: it is all the Cholesky reads, and the kernel's exp is half the
    // cost of an evaluation.
    Eigen::MatrixXd kmat = Eigen::MatrixXd::Zero(n, n);
    Eigen::ArrayXd r2(n), s(n);
    for (Eigen::Index j = 0; j < n; ++j) {
      const Eigen::Index len = n - j;
      r2.head(len).setZero();
      for (std::size_t k = 0; k < d; ++k) r2.head(len) += diffs_[k].col(j).tail(len) * inv_l2[k];
      s.head(len) = (5.0 * r2.head(len)).sqrt();
      const auto sl = s.head(len);
      kmat.col(j).tail(len) = (signal * (1.0 + sl + sl.square() / 3.0) * (-sl).exp()).matrix();
    }
    kmat.diagonal().array() += std::exp(theta[d + 1]);
    Eigen::LLT<Eigen::MatrixXd> llt;
    if (!cholesky(std::move(kmat), signal, llt)) return kNegInf;
    return lml_of(llt, y_);
  }

 private:
  Eigen::VectorXd y_;
  std::vector<Eigen::ArrayXXd> diffs_;
};

std::vector<double> theta_of(const GpHyperparameters& h) {
  std::vector<double> t;
  for (double l : h.length_scales) t.push_back(std::log(l));
  t.push_back(std::log(h.signal_variance));
  t.push_back(std::log(h.noise_variance));
  return t;
}

GpHyperparameters hyper_of(const std::vector<double>& t) {
  GpHyperparameters h;
  for (std::size_t k = 0; k + 2 < t.size(); ++k) h.length_scales.push_back(std::exp(t[k]));
  h.signal_variance = std::exp(t[t.size() - 2]);
  h.noise_variance = std::exp(t.back());
  return h;
}

struct Box {
  std::vector<double> lo, hi;
};

Box theta_box(std::size_t d) {
  Box b;
  b.lo.assign(d, std::log(kGpMinLengthScale));
  b.hi.assign(d, std::log(kGpMaxLengthScale));
  b.lo.push_back(std::log(kGpMinSignalVariance));
  b.hi.push_back(std::log(kGpMaxSignalVariance));
  b.lo.push_back(std::log(kGpMinNoiseVariance));
  b.hi.push_back(std::log(kGpMaxNoiseVariance));
  return b;
}

// One coordinate sweep around `theta` (whose likelihood is `value`): along each coordinate a step
// up, else a step down, kept when it improves. Returns whether anything did.
bool explore(const Likelihood& f, const Box& box, double step, std::vector<double>& theta,
             double& value, int& budget) {
  bool improved = false;
  for (std::size_t i = 0; i < theta.size() && budget > 0; ++i) {
    for (const double dir : {1.0, -1.0}) {
      std::vector<double> trial = theta;
      trial[i] = std::clamp(theta[i] + dir * step, box.lo[i], box.hi[i]);
      if (trial[i] == theta[i] || budget <= 0) continue;
      const double v = f(trial);
      --budget;
      if (!(v > value + 1e-9)) continue;
      theta = std::move(trial);
      value = v;
      improved = true;
      break;  // no need to look the other way
    }
  }
  return improved;
}

// Hooke-Jeeves pattern search from `theta` (whose likelihood is `value`): coordinate sweeps, and
// after each successful one a jump repeating the sweep's whole move, which is what lets it follow
// the likelihood's diagonal ridges (a longer length scale traded against a larger signal
// variance) that plain coordinate steps crawl along. The step halves when a sweep finds nothing.
// Cheap per step and needs no gradient, which the jittered Cholesky would make unreliable.
double pattern_search(const Likelihood& f, const Box& box, std::vector<double>& theta, double value,
                      int& budget) {
  for (double step = kFirstStep; step >= kLastStep && budget > 0;) {
    std::vector<double> base = theta;
    if (!explore(f, box, step, theta, value, budget)) {
      step /= 2;
      continue;
    }
    while (budget > 0) {
      std::vector<double> jump = theta;
      for (std::size_t i = 0; i < jump.size(); ++i)
        jump[i] = std::clamp(2 * theta[i] - base[i], box.lo[i], box.hi[i]);
      double v = f(jump);
      --budget;
      explore(f, box, step, jump, v, budget);
      if (!(v > value + 1e-9)) break;
      base = std::move(theta);
      theta = std::move(jump);
      value = v;
    }
  }
  return value;
}

}  // namespace

double matern52(double r) {
  const double s = kSqrt5 * std::fabs(r);
  return (1.0 + s + s * s / 3.0) * std::exp(-s);
}

void GaussianProcess::set_data(const std::vector<std::vector<double>>& x,
                               const std::vector<double>& y) {
  const std::size_t d = x.empty() ? 0 : x.front().size();
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    bool ok = std::isfinite(y[i]) && x[i].size() == d;
    for (double v : x[i]) ok = ok && std::isfinite(v);
    if (ok) keep.push_back(i);
  }
  const auto n = static_cast<Eigen::Index>(keep.size());
  x_.resize(static_cast<Eigen::Index>(d), n);
  ys_.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const auto i = keep[static_cast<std::size_t>(j)];
    for (std::size_t k = 0; k < d; ++k) x_(static_cast<Eigen::Index>(k), j) = x[i][k];
    ys_(j) = y[i];
  }
  // Sample sd (n - 1); one point, or all equal, keeps the scale 1 so the prior still has width.
  y_mean_ = n > 0 ? ys_.mean() : 0.0;
  y_sd_ =
      n > 1 ? std::sqrt((ys_.array() - y_mean_).square().sum() / static_cast<double>(n - 1)) : 1.0;
  if (!(y_sd_ > 0) || !std::isfinite(y_sd_)) y_sd_ = 1.0;
  ys_ = (ys_.array() - y_mean_) / y_sd_;
}

void GaussianProcess::fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                          std::uint64_t seed, const std::optional<GpHyperparameters>& warm) {
  set_data(x, y);
  const auto d = static_cast<std::size_t>(x_.rows());
  h_ = GpHyperparameters{std::vector<double>(d, 0.25), 1.0, 1e-4};
  if (ys_.size() == 0) return factorise();
  const Likelihood f(x_, ys_);
  const Box box = theta_box(d);
  const auto n = static_cast<int>(ys_.size());
  int budget =
      n <= kBudgetPoints ? kFitBudget : std::max(kMinFitBudget, kFitBudget * kBudgetPoints / n);
  // Starts: a middling default, the warm start, and random points of the box; each is evaluated
  // once and the best few are searched from.
  std::vector<std::pair<double, std::vector<double>>> starts;
  const auto add = [&](std::vector<double> t) {
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = std::clamp(t[i], box.lo[i], box.hi[i]);
    const double v = f(t);
    --budget;
    starts.emplace_back(v, std::move(t));
  };
  add(theta_of(h_));
  if (warm && warm->length_scales.size() == d && warm->signal_variance > 0 &&
      warm->noise_variance > 0)
    add(theta_of(*warm));
  std::mt19937_64 rng(seed);
  for (int s = 0; s < kRandomStarts; ++s) {
    std::vector<double> t(d + 2);
    for (std::size_t i = 0; i < t.size(); ++i)
      t[i] = box.lo[i] + core::uniform_unit(rng) * (box.hi[i] - box.lo[i]);
    add(std::move(t));
  }
  std::stable_sort(starts.begin(), starts.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  double best = kNegInf;
  std::vector<double> best_theta = starts.front().second;
  for (std::size_t s = 0; s < starts.size() && s < kSearchedStarts; ++s) {
    auto theta = starts[s].second;
    const double v = pattern_search(f, box, theta, starts[s].first, budget);
    if (v > best) {
      best = v;
      best_theta = std::move(theta);
    }
  }
  h_ = hyper_of(best_theta);
  factorise();
}

void GaussianProcess::fit_fixed(const std::vector<std::vector<double>>& x,
                                const std::vector<double>& y, const GpHyperparameters& h) {
  set_data(x, y);
  h_ = h;
  h_.length_scales.resize(static_cast<std::size_t>(x_.rows()), 0.25);
  factorise();
}

void GaussianProcess::factorise() {
  const auto n = ys_.size();
  lml_ = n == 0 ? 0.0 : kNegInf;
  chol_.resize(0, 0);
  alpha_ = Eigen::VectorXd::Zero(n);
  if (n == 0) return;
  Eigen::ArrayXXd r2 = Eigen::ArrayXXd::Zero(n, n);
  for (Eigen::Index k = 0; k < x_.rows(); ++k) {
    const Eigen::ArrayXXd row = x_.row(k).replicate(n, 1).array();
    const double l = h_.length_scales[static_cast<std::size_t>(k)];
    r2 += (row - row.transpose()).square() / (l * l);
  }
  Eigen::MatrixXd kmat = matern_matrix(r2, h_.signal_variance);
  kmat.diagonal().array() += h_.noise_variance;
  Eigen::LLT<Eigen::MatrixXd> llt;
  // Failure (only with absurd hyperparameters given to fit_fixed) leaves chol_ empty: predictions
  // fall back to the prior rather than NaN.
  if (!cholesky(std::move(kmat), h_.signal_variance, llt)) return;
  chol_ = llt.matrixL();
  alpha_ = llt.solve(ys_);
  lml_ = lml_of(llt, ys_);
}

void GaussianProcess::predict(const Eigen::MatrixXd& points, Eigen::VectorXd& mean,
                              Eigen::VectorXd& variance) const {
  const auto m = points.cols();
  mean = Eigen::VectorXd::Constant(m, y_mean_);
  variance = Eigen::VectorXd::Constant(m, h_.signal_variance * y_sd_ * y_sd_);
  if (chol_.size() == 0 || points.rows() != x_.rows()) return;
  const auto n = x_.cols();
  Eigen::ArrayXXd r2 = Eigen::ArrayXXd::Zero(n, m);
  for (Eigen::Index k = 0; k < x_.rows(); ++k) {
    const double l = h_.length_scales[static_cast<std::size_t>(k)];
    r2 += (x_.row(k).transpose().replicate(1, m) - points.row(k).replicate(n, 1)).array().square() /
          (l * l);
  }
  const Eigen::MatrixXd ks = matern_matrix(r2, h_.signal_variance);
  const Eigen::MatrixXd v = chol_.triangularView<Eigen::Lower>().solve(ks);
  const Eigen::VectorXd mu = ks.transpose() * alpha_;
  const Eigen::VectorXd var = h_.signal_variance - v.colwise().squaredNorm().transpose().array();
  for (Eigen::Index j = 0; j < m; ++j) {
    // Rounding can take the variance a hair below zero at a training point.
    if (std::isfinite(mu(j))) mean(j) = y_mean_ + y_sd_ * mu(j);
    if (std::isfinite(var(j))) variance(j) = std::max(var(j), 0.0) * y_sd_ * y_sd_;
  }
}

GpPrediction GaussianProcess::predict(const std::vector<double>& x) const {
  Eigen::MatrixXd p(static_cast<Eigen::Index>(x.size()), 1);
  for (std::size_t k = 0; k < x.size(); ++k) p(static_cast<Eigen::Index>(k), 0) = x[k];
  Eigen::VectorXd mean, variance;
  predict(p, mean, variance);
  return {mean(0), variance(0)};
}

double gp_log_marginal_likelihood(const std::vector<std::vector<double>>& x,
                                  const std::vector<double>& y, const GpHyperparameters& h) {
  GaussianProcess gp;
  gp.fit_fixed(x, y, h);
  return gp.log_marginal_likelihood();
}

}  // namespace inferperf::sweep
