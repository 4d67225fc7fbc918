// --wait-for-model-mode/-interval and --network-latency-*: defaults, spellings and the rules
// between them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli.hpp"

namespace inferperf::config {
namespace {

CliOutcome parse_readiness(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "x"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

TEST(ReadinessOptions, Defaults) {
  const auto o = parse_readiness({});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.readiness.mode, ReadinessMode::kInference);
  EXPECT_DOUBLE_EQ(o.config.readiness.interval_s, 5.0);
  EXPECT_DOUBLE_EQ(o.config.endpoint.wait_for_model_timeout_s, 0.0);
  EXPECT_FALSE(o.config.network_latency.enabled());
  EXPECT_DOUBLE_EQ(o.config.network_latency.ping_interval_s, 1.0);
}

TEST(ReadinessOptions, ModesInAnySpelling) {
  const std::vector<std::pair<std::string, ReadinessMode>> cases = {
      {"models", ReadinessMode::kModels},
      {"INFERENCE", ReadinessMode::kInference},
      {"Both", ReadinessMode::kBoth}};
  for (const auto& [word, mode] : cases) {
    const auto o = parse_readiness({"--wait-for-model-timeout", "10", "--wait-for-model-mode", word,
                                    "--wait-for-model-interval", "0.2"});
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << word << ": " << o.message;
    EXPECT_EQ(o.config.readiness.mode, mode) << word;
    EXPECT_DOUBLE_EQ(o.config.readiness.interval_s, 0.2);
    EXPECT_DOUBLE_EQ(o.config.endpoint.wait_for_model_timeout_s, 10.0);
  }
  const auto bad = parse_readiness({"--wait-for-model-mode", "health"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.message.find("--wait-for-model-mode"), std::string::npos) << bad.message;
}

TEST(ReadinessOptions, IntervalsMustBePositive) {
  for (const char* flag : {"--wait-for-model-interval", "--network-latency-ping-interval"}) {
    const auto o = parse_readiness({"--network-latency-automatic", flag, "0"});
    EXPECT_EQ(o.exit_code, 2) << flag;
    EXPECT_NE(o.message.find(std::string("error: ") + flag + " must be"), std::string::npos)
        << o.message;
  }
  const auto neg = parse_readiness({"--network-latency-mean", "-1"});
  EXPECT_EQ(neg.exit_code, 2);
  EXPECT_NE(neg.message.find("--network-latency-mean must be"), std::string::npos) << neg.message;
}

TEST(ReadinessOptions, NetworkLatencyModes) {
  const auto automatic =
      parse_readiness({"--network-latency-automatic", "--network-latency-ping-interval", "0.1"});
  ASSERT_EQ(automatic.action, CliOutcome::Action::kProfile) << automatic.message;
  EXPECT_TRUE(automatic.config.network_latency.automatic);
  EXPECT_TRUE(automatic.config.network_latency.enabled());
  EXPECT_DOUBLE_EQ(automatic.config.network_latency.ping_interval_s, 0.1);

  const auto fixed = parse_readiness({"--network-latency-mean", "5"});
  ASSERT_EQ(fixed.action, CliOutcome::Action::kProfile) << fixed.message;
  ASSERT_TRUE(fixed.config.network_latency.mean_ms);
  EXPECT_DOUBLE_EQ(*fixed.config.network_latency.mean_ms, 5.0);
  EXPECT_TRUE(fixed.config.network_latency.enabled());  // the mean implies it

  const auto both = parse_readiness({"--network-latency-automatic", "--network-latency-mean", "5"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.message.find("--network-latency-automatic and --network-latency-mean exclude"),
            std::string::npos)
      << both.message;

  const auto lone = parse_readiness({"--network-latency-ping-interval", "2"});
  EXPECT_EQ(lone.exit_code, 2);
  EXPECT_NE(
      lone.message.find("--network-latency-ping-interval applies only with --network-latency-"),
      std::string::npos)
      << lone.message;
}

}  // namespace
}  // namespace inferperf::config
