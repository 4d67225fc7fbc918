// --vary-seed-per-trial (AIPerf 0.11): the seeds are SHA-256 of
// "<base>:variation:<label>:trial:<n>" (first 8 bytes, big-endian, top bit cleared); the expected
// values were computed with Python's hashlib.
#include "sweep/trial_seed.hpp"

#include <gtest/gtest.h>

namespace inferperf::sweep {
namespace {

TEST(TrialSeed, ShaOfBaseLabelAndTrial) {
  EXPECT_EQ(trial_seed(5, "base", 0), 5923050222508316399ull);
  EXPECT_EQ(trial_seed(5, "base", 1), 4322289136321147357ull);
  EXPECT_EQ(trial_seed(42, "phases.profiling.concurrency=2", 0), 2639850759700845630ull);
  EXPECT_EQ(trial_seed(42, "phases.profiling.concurrency=4", 1), 1343651307053479506ull);
}

TEST(TrialSeed, SingleRunUsesTrialZeroOfBaseOnlyWhenAsked) {
  SweepOptions o;
  EXPECT_FALSE(single_run_seed(o).has_value());
  o.random_seed = "5";
  EXPECT_EQ(single_run_seed(o), "5");
  o.vary_seed_per_trial = true;
  EXPECT_EQ(single_run_seed(o), "5923050222508316399");
}

TEST(TrialSeed, TheFlagAndItsNegationAreTakenOffTheCommandLine) {
  auto s = extract_sweep_args({"profile", "-m", "x", "--vary-seed-per-trial"});
  EXPECT_TRUE(s.options.vary_seed_per_trial);
  s = extract_sweep_args(
      {"profile", "-m", "x", "--vary-seed-per-trial", "--no-vary-seed-per-trial"});
  EXPECT_FALSE(s.options.vary_seed_per_trial);
  s = extract_sweep_args({"profile", "-m", "x", "--plot-required", "--no-sweep-table"});
  EXPECT_TRUE(s.options.plot_required);
  EXPECT_TRUE(s.errors.empty());
}

// AIPerf 0.11: the dataset size is the largest swept --num-conversations (else --request-count)
// when --num-dataset-entries is not given, for every point.
TEST(SweepDatasetEntries, TheLargestSweptCountSizesEveryPoint) {
  auto s = extract_sweep_args({"profile", "-m", "x", "--request-count", "4,16,8"});
  ASSERT_TRUE(s.errors.empty());
  EXPECT_EQ(s.base,
            (std::vector<std::string>{"profile", "-m", "x", "--num-dataset-entries", "16"}));
  s = extract_sweep_args(
      {"profile", "-m", "x", "--request-count", "4,16", "--num-conversations", "3,5"});
  EXPECT_EQ(s.base.back(), "5");
  s = extract_sweep_args({"profile", "-m", "x", "--request-count", "4,16", "--num-sessions", "2"});
  EXPECT_EQ(s.base, (std::vector<std::string>{"profile", "-m", "x", "--num-sessions", "2"}));
  s = extract_sweep_args({"profile", "-m", "x", "--request-count", "4,16", "--num-prompts=7"});
  EXPECT_EQ(s.base, (std::vector<std::string>{"profile", "-m", "x", "--num-prompts=7"}));
}

}  // namespace
}  // namespace inferperf::sweep
