// The Gaussian process and the bayesian planner on known functions with fixed seeds: the GP's
// posterior against a hand-worked two-point case, interpolation, and its likelihood against data
// drawn with a known length scale; the planner on a parabola, Branin, a constrained line, an
// integer concurrency-like axis with a latency SLA, an exhausted integer box and a log axis; the
// stopping rules; and reproducibility from the seed.
#include "sweep/bayesian_planner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <set>

#include <Eigen/Cholesky>

#include "sweep/gaussian_process.hpp"

namespace inferperf::sweep {
namespace {

// The first points of the 1-D and 2-D Sobol sequences (the planner's callers pass such a design).
const std::vector<std::vector<double>> kSobol1 = {{0.5}, {0.75}, {0.25}, {0.375}, {0.875}};
const std::vector<std::vector<double>> kSobol2 = {
    {0.5, 0.5}, {0.75, 0.25}, {0.25, 0.75}, {0.375, 0.375}, {0.875, 0.875}};

GpHyperparameters hyper(std::vector<double> ls, double signal, double noise) {
  return GpHyperparameters{std::move(ls), signal, noise};
}

TEST(GaussianProcess, MatchesAHandWorkedTwoPointPosterior) {
  // y {1, 3} standardise to -+1/sqrt(2) (mean 2, sample sd sqrt(2)); with l 0.5, signal 1.5 and
  // noise 0.1 the 2x2 algebra (worked in Python) gives these at x = 0.45.
  GaussianProcess gp;
  gp.fit_fixed({{0.2}, {0.6}}, {1, 3}, hyper({0.5}, 1.5, 0.1));
  const GpPrediction p = gp.predict({0.45});
  EXPECT_NEAR(p.mean, 2.2423346626419116, 1e-12);
  EXPECT_NEAR(p.variance, 0.24858759163612335, 1e-12);
  EXPECT_NEAR(gp.log_marginal_likelihood(), -2.870287188161864, 1e-12);
  // The same by the formulas here: k* K^-1 y and k** - k* K^-1 k*.
  const double s = 1.5, k12 = s * matern52(0.8), det = (s + 0.1) * (s + 0.1) - k12 * k12;
  const double k1 = s * matern52(0.5), k2 = s * matern52(0.3), y = 1 / std::sqrt(2.0);
  const double a1 = ((s + 0.1) * -y - k12 * y) / det, a2 = (-k12 * -y + (s + 0.1) * y) / det;
  EXPECT_NEAR(p.mean, 2 + std::sqrt(2.0) * (k1 * a1 + k2 * a2), 1e-12);
  const double quad = (k1 * k1 * (s + 0.1) - 2 * k1 * k2 * k12 + k2 * k2 * (s + 0.1)) / det;
  EXPECT_NEAR(p.variance, 2 * (s - quad), 1e-12);
  EXPECT_DOUBLE_EQ(matern52(0), 1.0);
}

TEST(GaussianProcess, InterpolatesItsTrainingPoints) {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (double v : {0.0, 0.1, 0.2, 0.3, 0.4}) {
    x.push_back({v});
    y.push_back(500 + 40 * std::sin(9 * v));
  }
  GaussianProcess fixed;
  fixed.fit_fixed(x, y, hyper({0.15}, 1.0, 1e-8));
  GaussianProcess fitted;
  fitted.fit(x, y, 7);
  const double prior = fixed.hyperparameters().signal_variance;
  EXPECT_LT(fitted.hyperparameters().noise_variance, 1e-5);  // smooth data: noise at its floor
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(fixed.predict(x[i]).mean, y[i], 1e-3);
    EXPECT_LT(fixed.predict(x[i]).variance, 1e-3);
    EXPECT_NEAR(fitted.predict(x[i]).mean, y[i], 1e-2);
    EXPECT_LT(fitted.predict(x[i]).variance, 1e-2);
  }
  // Far from the data the variance returns to the prior's (signal variance times the outputs'
  // variance) and the mean to theirs.
  double var_y = 0, mean_y = 0;
  for (double v : y) mean_y += v / 5;
  for (double v : y) var_y += (v - mean_y) * (v - mean_y) / 4;
  const GpPrediction far = fixed.predict({1.0});
  EXPECT_GT(far.variance, 0.99 * prior * var_y);
  EXPECT_NEAR(far.mean, mean_y, 0.05 * std::sqrt(var_y));
  EXPECT_GT(fitted.predict({1.0}).variance, 100 * fitted.predict({0.2}).variance);
  EXPECT_TRUE(std::isfinite(fitted.log_marginal_likelihood()));
}

TEST(GaussianProcess, LikelihoodPrefersTheTrueLengthScale) {
  // A draw from the GP prior with l = 0.2 at 40 evenly spread points (small noise). Under the
  // true hyperparameters, as they read once the outputs are standardised (signal and noise
  // divided by the sample's variance), the likelihood peaks at 0.2, and the fit lands near it.
  std::vector<std::vector<double>> x;
  Eigen::MatrixXd k(40, 40);
  for (int i = 0; i < 40; ++i) x.push_back({i / 39.0});
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j) k(i, j) = matern52(std::fabs(x[i][0] - x[j][0]) / 0.2);
  k.diagonal().array() += 1e-4;
  const Eigen::MatrixXd l = k.llt().matrixL();
  std::mt19937_64 rng(42);
  Eigen::VectorXd z(40);
  for (int i = 0; i < 40; ++i) z(i) = core::normal(rng, 0.0, 1.0);
  const Eigen::VectorXd f = l * z;
  const std::vector<double> y(f.data(), f.data() + f.size());
  const double var = (f.array() - f.mean()).square().sum() / 39;
  std::vector<double> lml;
  for (double ls : {0.02, 0.05, 0.1, 0.2, 0.4, 1.0, 3.0})
    lml.push_back(gp_log_marginal_likelihood(x, y, hyper({ls}, 1.0 / var, 1e-4 / var)));
  for (std::size_t i = 0; i < lml.size(); ++i) {
    if (i == 3) continue;
    EXPECT_GT(lml[3], lml[i]) << i;
  }
  GaussianProcess gp;
  gp.fit(x, y, 3);
  EXPECT_GT(gp.hyperparameters().length_scales[0], 0.13);
  EXPECT_LT(gp.hyperparameters().length_scales[0], 0.3);
  EXPECT_GE(gp.log_marginal_likelihood(), lml[3]);
}

TEST(GaussianProcess, LearnsOneLengthScalePerDimension) {
  // Fast along the first input, slow along the second: ARD gives the first the shorter scale.
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 30; ++i) {
    x.push_back({core::uniform_unit(rng), core::uniform_unit(rng)});
    y.push_back(std::sin(12 * x.back()[0]) + 0.3 * x.back()[1]);
  }
  GaussianProcess gp;
  gp.fit(x, y, 11);
  const auto& ls = gp.hyperparameters().length_scales;
  EXPECT_LT(ls[0] * 3, ls[1]);
}

TEST(GaussianProcess, StaysFiniteOnDuplicatesAndDegenerateData) {
  GaussianProcess gp;
  gp.fit({{0.5}, {0.5}, {0.5}}, {1, 1, 1}, 1);  // identical points, constant output
  const GpPrediction p = gp.predict({0.3});
  EXPECT_TRUE(std::isfinite(p.mean) && std::isfinite(p.variance));
  EXPECT_NEAR(p.mean, 1.0, 1e-6);
  gp.fit_fixed({{0.5}, {0.5}}, {1, 2}, hyper({0.3}, 1.0, 0.0));  // singular: needs jitter
  EXPECT_TRUE(std::isfinite(gp.predict({0.5}).mean));
  EXPECT_TRUE(std::isfinite(gp.log_marginal_likelihood()));
  gp.fit({}, {}, 1);  // no data: the prior
  EXPECT_EQ(gp.predict({0.5}).mean, 0.0);
}

// Drives a planner for up to `n` evaluations of f (objective, margins), ending early once `done`
// says so; the points run.
using Fn = std::function<BoObservation(const std::vector<double>&)>;
std::vector<std::vector<double>> drive(BayesianPlanner& p, const Fn& f, std::size_t n,
                                       const std::function<bool()>& done = {}) {
  std::vector<std::vector<double>> run;
  while (run.size() < n && !(done && done())) {
    const auto x = p.next();
    if (!x) break;
    run.push_back(*x);
    p.record(f(*x));
  }
  return run;
}

BoObservation plain(const std::vector<double>& x, double objective) {
  return BoObservation{x, objective, {}};
}

TEST(BayesianPlanner, FindsTheTopOfAParabola) {
  BayesianPlanner p({{0, 1}}, true, 0, kSobol1, 1);
  drive(
      p, [](const auto& x) { return plain(x, -(x[0] - 0.3) * (x[0] - 0.3)); }, 15);
  ASSERT_TRUE(p.best());
  EXPECT_NEAR(p.observations()[*p.best()].x[0], 0.3, 0.02);
  EXPECT_EQ(p.last_strategy(), "expected_improvement");
}

double branin(const std::vector<double>& x) {
  const double pi = 3.14159265358979323846;
  const double b = 5.1 / (4 * pi * pi), c = 5 / pi, t = 1 / (8 * pi);
  const double u = x[1] - b * x[0] * x[0] + c * x[0] - 6;
  return u * u + 10 * (1 - t) * std::cos(x[0]) + 10;
}

TEST(BayesianPlanner, MinimisesBranin) {
  // The global minimum is 0.397887 (at three points). The drive ends once under 0.5, which with
  // this seed takes 13 evaluations (13 to 23 over seeds 1 to 30), to spare the sanitizer trees.
  BayesianPlanner p({{-5, 10}, {0, 15}}, false, 0, kSobol2, 5);
  const auto reached = [&p] { return p.best() && *p.observations()[*p.best()].objective < 0.5; };
  const auto run = drive(
      p, [](const auto& x) { return plain(x, branin(x)); }, 40, reached);
  EXPECT_TRUE(reached()) << run.size();
}

TEST(BayesianPlanner, ClosesInOnAConstraintBoundary) {
  // Maximise x subject to x <= 0.6: the answer is the boundary.
  BayesianPlanner p({{0, 1}}, true, 1, kSobol1, 3);
  const auto run = drive(
      p,
      [](const auto& x) {
        return BoObservation{x, x[0], {0.6 - x[0]}};
      },
      15);
  ASSERT_TRUE(p.best());
  const double best = p.observations()[*p.best()].x[0];
  EXPECT_LE(best, 0.6);
  EXPECT_GT(best, 0.57);
  int near = 0;
  for (std::size_t i = run.size() - 5; i < run.size(); ++i)
    near += std::fabs(run[i][0] - 0.6) < 0.05;
  EXPECT_GE(near, 4);
}

TEST(BayesianPlanner, FindsTheConstrainedOptimumOnAnIntegerAxis) {
  // Throughput c (96 - c) peaks at 48, but latency 5 + c^2/20 must stay under 51 (c <= 30).
  BayesianPlanner p({{1, 64, true}}, true, 1, kSobol1, 4);
  const auto run = drive(
      p,
      [](const auto& x) {
        const double c = x[0], latency = 5 + c * c / 20;
        return BoObservation{x, c * (96 - c), {filter_margin("lt", 51, latency)}};
      },
      15);
  ASSERT_TRUE(p.best());
  EXPECT_EQ(p.observations()[*p.best()].x[0], 30);
  std::set<double> seen;
  for (const auto& x : run) {
    EXPECT_EQ(x[0], std::round(x[0]));
    EXPECT_TRUE(seen.insert(x[0]).second) << "repeated " << x[0];
  }
}

TEST(BayesianPlanner, ReturnsNothingOnceAnIntegerBoxIsRunThrough) {
  BayesianPlanner p({{1, 4, true}}, true, 0, {{0.0}, {0.01}}, 5);  // both snap to 1: one is skipped
  std::set<double> seen;
  for (int i = 0; i < 4; ++i) {
    const auto x = p.next();
    ASSERT_TRUE(x);
    EXPECT_TRUE(seen.insert((*x)[0]).second);
    p.record(plain(*x, (*x)[0]));
  }
  EXPECT_EQ(seen, (std::set<double>{1, 2, 3, 4}));
  EXPECT_FALSE(p.next());
  // With no initial design the first point is a random one.
  BayesianPlanner q({{1, 4, true}}, true, 0, {}, 5);
  ASSERT_TRUE(q.next());
  EXPECT_EQ(q.last_strategy(), "random");
}

TEST(BayesianPlanner, SearchesALogAxisInLogSpace) {
  // The best of -(log2 x - 5)^2 on [1, 1024] is 32, a fifth of the way along in log space.
  BayesianPlanner p({{1, 1024, false, true}}, true, 0, kSobol1, 6);
  const auto run = drive(
      p, [](const auto& x) { return plain(x, -std::pow(std::log2(x[0]) - 5, 2)); }, 15);
  EXPECT_EQ(run[0][0], 32);  // the design's 0.5 maps to the geometric middle
  for (const auto& x : run) EXPECT_TRUE(x[0] >= 1 && x[0] <= 1024);
}

TEST(BayesianPlanner, SeeksFeasibilityFirstAndCountsMissingMetricsAsFailing) {
  // Nothing in the design meets x >= 0.9: the planner heads for where the SLA might hold.
  BayesianPlanner p({{0, 1}}, true, 1, {{0.1}, {0.3}, {0.5}}, 7);
  const auto f = [](const std::vector<double>& x) {
    return BoObservation{x, -x[0], {filter_margin("ge", 0.9, x[0])}};
  };
  drive(p, f, 3);
  EXPECT_FALSE(p.best());
  const auto x = p.next();
  ASSERT_TRUE(x);
  EXPECT_EQ(p.last_strategy(), "feasibility");
  EXPECT_GT((*x)[0], 0.8);
  p.record(BoObservation{*x, 1.0, {std::numeric_limits<double>::quiet_NaN()}});
  EXPECT_FALSE(p.feasible(3));
  p.record(BoObservation{{0.95}, std::nullopt, {0.05}});
  EXPECT_FALSE(p.feasible(4));
  p.record(BoObservation{{0.97}, -0.97, {0.07}});
  EXPECT_TRUE(p.feasible(5));
  EXPECT_EQ(p.best(), 5u);
  EXPECT_EQ(p.best_so_far(),
            (std::vector<std::optional<double>>{std::nullopt, std::nullopt, std::nullopt,
                                                std::nullopt, std::nullopt, -0.97}));
}

TEST(BayesianPlanner, SameSeedSameProposals) {
  const auto f = [](const std::vector<double>& x) { return plain(x, branin(x)); };
  BayesianPlanner a({{-5, 10}, {0, 15}}, false, 0, kSobol2, 9);
  BayesianPlanner b({{-5, 10}, {0, 15}}, false, 0, kSobol2, 9);
  BayesianPlanner c({{-5, 10}, {0, 15}}, false, 0, kSobol2, 10);
  const auto ra = drive(a, f, 8), rb = drive(b, f, 8), rc = drive(c, f, 8);
  EXPECT_EQ(ra, rb);
  EXPECT_NE(ra, rc);
}

TEST(FilterMargin, SignsAndEquality) {
  EXPECT_EQ(filter_margin("lt", 500, 400.0), 100);
  EXPECT_EQ(filter_margin("le", 500, 600.0), -100);
  EXPECT_EQ(filter_margin("gt", 10, 12.0), 2);
  EXPECT_EQ(filter_margin("ge", 10, 10.0), 0);
  EXPECT_LT(filter_margin("lt", 500, 500.0), 0);  // strict and met exactly: does not hold
  EXPECT_LT(filter_margin("gt", 10, 10.0), 0);
  EXPECT_TRUE(std::isnan(filter_margin("lt", 500, std::nullopt)));
  EXPECT_TRUE(std::isnan(filter_margin("eq", 500, 1.0)));
}

std::vector<std::optional<double>> series(std::size_t none, std::vector<double> values) {
  std::vector<std::optional<double>> s(none);
  s.insert(s.end(), values.begin(), values.end());
  return s;
}

TEST(StopRule, Patience) {
  // Plateau off (threshold 0): the best found at the first feasible iteration, then 10 without a
  // strict improvement. Iterations before it are not counted.
  const std::vector<double> flat(11, 100.0);
  EXPECT_EQ(stop_rule(series(3, flat), 10, 8, 0.0), "patience");
  EXPECT_FALSE(stop_rule(series(3, {flat.begin(), flat.end() - 1}), 10, 8, 0.0));
  std::vector<double> late(11, 101.0);
  late[0] = 100;  // an improvement 9 iterations ago
  EXPECT_FALSE(stop_rule(series(0, late), 10, 8, 0.0));
  // A best of exactly 0 never plateaus (0 < 0.01 * 0 is false), so patience decides.
  EXPECT_EQ(stop_rule(series(0, std::vector<double>(11, 0.0))), "patience");
  EXPECT_FALSE(stop_rule(series(20, {})));
}

TEST(StopRule, Plateau) {
  // Growing 0.1% an iteration: after 8 iterations the best moved 0.8% < 1% of itself.
  std::vector<double> slow{100};
  for (int i = 0; i < 8; ++i) slow.push_back(slow.back() * 1.001);
  EXPECT_EQ(stop_rule(series(2, slow)), "plateau");
  EXPECT_FALSE(stop_rule(series(2, {slow.begin(), slow.end() - 1})));
  // Growing 1% an iteration never plateaus; no movement at all plateaus after 8.
  std::vector<double> fast{100};
  for (int i = 0; i < 20; ++i) fast.push_back(fast.back() * 1.01);
  EXPECT_FALSE(stop_rule(series(0, fast)));
  EXPECT_EQ(stop_rule(series(0, std::vector<double>(9, -250.0))), "plateau");
  // Minimising works the same: the best falls instead.
  std::vector<double> down{100};
  for (int i = 0; i < 8; ++i) down.push_back(down.back() * 0.999);
  EXPECT_EQ(stop_rule(series(0, down)), "plateau");
}

}  // namespace
}  // namespace inferperf::sweep
