// Gaussian-process regression for the Bayesian search planner (sweep/bayesian_planner.hpp): inputs
// already scaled to the unit box [0,1]^d, a Matérn 5/2 kernel with one length scale per input
// (ARD), and outputs standardised (mean 0, sd 1) before fitting so that one set of hyperparameter
// bounds serves objectives in tokens/s and margins in milliseconds alike. The hyperparameters
// maximise the log marginal likelihood by a seeded multi-start coordinate search in log space (no
// external optimiser, so every platform fits the same model from the same data and seed).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "core/rng.hpp"

namespace inferperf::sweep {

// In the units the GP works in: inputs in the unit box, outputs standardised.
struct GpHyperparameters {
  std::vector<double> length_scales;  // one per input dimension
  double signal_variance = 1.0;
  double noise_variance = 1e-6;
};

struct GpPrediction {
  double mean = 0;      // in the outputs' original units
  double variance = 0;  // of the latent function (noise excluded), in original units squared
};

// The Matérn 5/2 correlation at scaled distance r: (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r).
double matern52(double r);

// The bounds of the hyperparameter search (standardised outputs, unit-box inputs).
inline constexpr double kGpMinLengthScale = 0.01;
inline constexpr double kGpMaxLengthScale = 10.0;
inline constexpr double kGpMinSignalVariance = 0.05;
inline constexpr double kGpMaxSignalVariance = 20.0;
inline constexpr double kGpMinNoiseVariance = 1e-6;
inline constexpr double kGpMaxNoiseVariance = 1.0;

class GaussianProcess {
 public:
  // Fits to the points `x` (each of the same size d, coordinates in [0,1]) and outputs `y`,
  // choosing the hyperparameters. `warm` (a previous fit's, e.g. from the last iteration) is one
  // of the starts when its size matches. Points with a non-finite output are dropped.
  void fit(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
           std::uint64_t seed, const std::optional<GpHyperparameters>& warm = std::nullopt);
  // Fits with the hyperparameters given (length_scales must have d entries).
  void fit_fixed(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                 const GpHyperparameters& h);

  GpPrediction predict(const std::vector<double>& x) const;
  // Many points at once (columns of a d x m matrix): one triangular solve for all of them.
  void predict(const Eigen::MatrixXd& points, Eigen::VectorXd& mean,
               Eigen::VectorXd& variance) const;

  const GpHyperparameters& hyperparameters() const { return h_; }
  // Of the standardised outputs under hyperparameters(); 0 with no data, -infinity when the
  // covariance could not be factorised (predictions are then the prior's).
  double log_marginal_likelihood() const { return lml_; }
  std::size_t size() const { return static_cast<std::size_t>(ys_.size()); }

 private:
  void set_data(const std::vector<std::vector<double>>& x, const std::vector<double>& y);
  void factorise();

  Eigen::MatrixXd x_;   // d x n
  Eigen::VectorXd ys_;  // standardised outputs
  double y_mean_ = 0, y_sd_ = 1;
  GpHyperparameters h_;
  Eigen::MatrixXd chol_;   // lower Cholesky factor of K + noise (+ jitter)
  Eigen::VectorXd alpha_;  // (K + noise)^-1 ys
  double lml_ = 0;
};

// The log marginal likelihood of `y` (standardised first, as fit() does) at `x` under `h`:
// -y'K^-1y/2 - log|K|/2 - n log(2 pi)/2; -infinity when K cannot be factorised even with jitter.
double gp_log_marginal_likelihood(const std::vector<std::vector<double>>& x,
                                  const std::vector<double>& y, const GpHyperparameters& h);

}  // namespace inferperf::sweep
