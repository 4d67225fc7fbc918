// Load-mode selection and validation (docs/architecture.md, Credit flow): every invalid combination
// is its own clear error with exit code 2; valid ones resolve to the documented defaults.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "config/cli.hpp"

namespace inferperf::config {
namespace {

struct BadCase {
  std::vector<std::string> args;  // after "profile -m x"
  std::string message;            // a distinctive part of the error
};

class InvalidLoadOptions : public ::testing::TestWithParam<BadCase> {};

TEST_P(InvalidLoadOptions, ExitTwoWithItsOwnMessage) {
  std::vector<std::string> args = {"profile", "-m", "x"};
  args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
  const CliOutcome o = parse_command_line(args);
  EXPECT_EQ(o.action, CliOutcome::Action::kExit);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find(GetParam().message), std::string::npos)
      << "expected '" << GetParam().message << "' in: " << o.message;
}

INSTANTIATE_TEST_SUITE_P(
    Table, InvalidLoadOptions,
    ::testing::Values(
        BadCase{{"--request-count", "5", "--num-sessions", "5"},
                "--request-count and --num-sessions cannot be used together"},
        // AIPerf 0.11: the smoothness no longer picks gamma by itself.
        BadCase{{"--request-rate", "4", "--vllm-burstiness", "0.5"},
                "--arrival-smoothness shapes gamma arrivals: it needs --request-rate and "
                "--arrival-pattern gamma"},
        BadCase{{"--arrival-pattern", "poisson"}, "--arrival-pattern poisson needs --request-rate"},
        BadCase{{"--request-rate", "0"},
                "--request-rate must be a finite number of requests per second between 0.001 and "
                "10,000,000 (got 0)"},
        BadCase{{"--request-rate", "nan"}, "--request-rate must be a finite number"},
        // A rate whose interval rounds to 0 ns used to spin the issuer forever.
        BadCase{{"--request-rate", "1e11", "--request-count", "100"},
                "--request-rate must be a finite number of requests per second between 0.001 and "
                "10,000,000 (got 1e11)"},
        BadCase{{"--request-rate", "inf"}, "--request-rate must be a finite number"},
        BadCase{{"--user-centric-rate", "1e300", "--num-users", "2", "--request-count", "9"},
                "--user-centric-rate must be a finite number"},
        // Beyond 2^63 the parser hands over INT64_MAX: an unbounded run.
        BadCase{{"--request-count", "99999999999999999999"},
                "--request-count must be a whole number between 1 and 1,000,000,000,000 (got "
                "99999999999999999999)"},
        BadCase{{"--num-sessions", "9223372036854775807"},
                "--num-sessions must be a whole number between 1 and"},
        BadCase{{"--request-timeout-seconds", "nan"},
                "--request-timeout-seconds must be a finite number of seconds"},
        BadCase{{"--request-timeout-seconds", "inf"},
                "--request-timeout-seconds must be a finite number of seconds"},
        BadCase{
            {"--request-rate", "5", "--arrival-pattern", "constant", "--arrival-smoothness", "2"},
            "--arrival-smoothness shapes gamma arrivals: it needs --request-rate and "
            "--arrival-pattern gamma (got constant)"},
        BadCase{{"--request-rate", "5", "--vllm-burstiness", "0"},
                "--vllm-burstiness must be a finite number between 0.01 and 1,000 (got 0)"},
        BadCase{{"--concurrency", "2", "--request-rate-ramp-duration", "5"},
                "--request-rate-ramp-duration can only be used with --request-rate"},
        BadCase{{"--concurrency-ramp-duration", "5"},
                "--concurrency-ramp-duration needs --concurrency"},
        BadCase{{"--streaming", "--concurrency", "4", "--prefill-concurrency-ramp-duration", "2"},
                "--prefill-concurrency-ramp-duration needs --prefill-concurrency"},
        BadCase{{"--concurrency", "4", "--prefill-concurrency", "2"},
                "--prefill-concurrency needs --streaming"},
        BadCase{{"--streaming", "--concurrency", "2", "--prefill-concurrency", "4"},
                "--prefill-concurrency (4) must not exceed --concurrency (2)"},
        BadCase{{"--benchmark-grace-period", "-1"},
                "--benchmark-grace-period must be a finite number of seconds from 0 to 31,536,000"},
        BadCase{{"--failed-request-threshold", "1.5"},
                "--failed-request-threshold must be a fraction from 0 to 1 (got 1.5)"},
        BadCase{{"--failed-request-threshold", "-0.1"},
                "--failed-request-threshold must be a fraction from 0 to 1 (got -0.1)"},
        BadCase{{"--request-cancellation-rate", "0"},
                "--request-cancellation-rate must be a finite percentage above 0, at most 100"},
        BadCase{{"--request-cancellation-rate", "150"},
                "--request-cancellation-rate must be a finite percentage above 0, at most 100"},
        BadCase{{"--request-cancellation-delay", "1"},
                "--request-cancellation-delay needs --request-cancellation-rate"},
        BadCase{{"--warmup-request-count", "3", "--num-warmup-sessions", "3"},
                "--warmup-request-count and --num-warmup-sessions cannot be used together"},
        BadCase{{"--warmup-concurrency", "3"}, "need a warmup stop condition"},
        BadCase{{"--warmup-concurrency-ramp-duration", "3"}, "need a warmup stop condition"},
        BadCase{{"--warmup-request-count", "3", "--warmup-request-rate-ramp-duration", "2"},
                "--warmup-request-rate-ramp-duration needs a warmup request rate"},
        BadCase{{"--streaming", "--concurrency", "4", "--warmup-request-count", "3",
                 "--warmup-prefill-concurrency-ramp-duration", "2"},
                "--warmup-prefill-concurrency-ramp-duration needs a warmup prefill concurrency"},
        BadCase{{"--warmup-request-count", "3", "--warmup-concurrency-ramp-duration", "0"},
                "--warmup-concurrency-ramp-duration must be"},
        BadCase{{"--warmup-request-count", "3", "--warmup-grace-period", "1"},
                "--warmup-grace-period can only be used with --warmup-duration"},
        BadCase{{"--warmup-request-count", "3", "--warmup-arrival-pattern", "gamma"},
                "--warmup-arrival-pattern gamma needs --warmup-request-rate"},
        BadCase{{"--num-sessions", "0"},
                "--num-sessions must be a whole number between 1 and 1,000,000,000,000 (got 0)"},
        BadCase{{"--conversation-turn-mean", "0"},
                "--conversation-turn-mean must be a finite number of turns between 1 and 10,000"},
        BadCase{{"--concurrency-ramp-duration", "0", "--concurrency", "2"},
                "--concurrency-ramp-duration must be a finite number of seconds from 0.001"},
        BadCase{{"--user-centric-rate", "5", "--session-turns-mean", "3", "--request-count", "9"},
                "--user-centric-rate needs --num-users"},
        BadCase{{"--num-users", "3"}, "--num-users needs --user-centric-rate"},
        BadCase{{"--user-centric-rate", "0", "--num-users", "3", "--session-turns-mean", "3",
                 "--request-count", "9"},
                "--user-centric-rate must be a finite number of requests per second between 0.001"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "3", "--request-count", "9"},
                "--session-turns-mean must be at least 2 (got 1)"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "3", "--session-turns-mean", "3",
                 "--request-count", "9", "--request-rate", "5"},
                "--user-centric-rate cannot be combined with --request-rate"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "3", "--session-turns-mean", "3",
                 "--request-count", "9", "--arrival-pattern", "constant"},
                "it cannot be combined with --arrival-pattern or --arrival-smoothness"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "3", "--session-turns-mean", "3"},
                "--user-centric-rate needs a stop condition"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "8", "--session-turns-mean", "3",
                 "--request-count", "4"},
                "--num-users (8) must not exceed --request-count (4)"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "8", "--session-turns-mean", "3",
                 "--num-sessions", "4"},
                "--num-users (8) must not exceed --num-sessions (4)"},
        BadCase{{"--user-centric-rate", "5", "--num-users", "3", "--input-file", "x.jsonl",
                 "--fixed-schedule", "--request-count", "9"},
                "--user-centric-rate cannot be combined with --fixed-schedule"},
        BadCase{{"--url", "a:1", "--url", "b:1", "--url-strategy", "random"}, "--url-strategy"},
        BadCase{{"--fixed-schedule"}, "--fixed-schedule needs --input-file"},
        BadCase{{"--fixed-schedule-auto-offset"}, "need a fixed-schedule phase"},
        BadCase{{"--fixed-schedule-end-offset", "100"}, "need a fixed-schedule phase"},
        BadCase{{"--input-file", "x.jsonl", "--fixed-schedule", "--request-rate", "3"},
                "it cannot be combined with --request-rate"},
        BadCase{{"--input-file", "x.jsonl", "--fixed-schedule", "--dataset-sampling-strategy",
                 "random"},
                "--dataset-sampling-strategy cannot be used with --fixed-schedule"},
        BadCase{{"--custom-dataset-type", "single_turn"},
                "--custom-dataset-type needs --input-file"},
        BadCase{{"--synthesis-max-osl", "64"}, "--synthesis-* options reshape a trace"},
        BadCase{{"--prompt-input-tokens-block-size", "64"}, "it needs --input-file"}));

TEST(LoadModes, FixedScheduleNeedsNoStopConditionAndAddsNoConcurrency) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--input-file", "t.jsonl", "--fixed-schedule"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_FALSE(o.config.load.concurrency.has_value());
  EXPECT_FALSE(o.config.load.request_count.has_value());
  EXPECT_EQ(o.config.input.sampling_strategy, SamplingStrategy::kSequential)
      << "files default to sequential";
  EXPECT_TRUE(o.config.warnings.empty());
}

TEST(LoadModes, GracePeriodAndFailureThresholdWorkInEveryMode) {
  // The grace period also bounds the wait after a first SIGINT, so a count-based run takes it.
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--request-count", "50", "--benchmark-grace-period",
                          "2.5", "--failed-request-threshold", "0.2"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_DOUBLE_EQ(o.config.grace_period_s(), 2.5);
  ASSERT_TRUE(o.config.load.failed_request_threshold.has_value());
  EXPECT_DOUBLE_EQ(*o.config.load.failed_request_threshold, 0.2);
}

TEST(LoadModes, UserCentricAddsNoDefaultsAndWaitsForEveryReply) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--user-centric-rate", "2", "--num-users", "4",
                          "--session-turns-mean", "3", "--benchmark-duration", "10"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& l = o.config.load;
  EXPECT_EQ(*l.user_centric_rate, 2.0);
  EXPECT_EQ(*l.num_users, 4);
  EXPECT_FALSE(l.concurrency.has_value()) << "no ceiling unless asked";
  EXPECT_FALSE(l.request_count.has_value());
  EXPECT_TRUE(std::isinf(o.config.grace_period_s())) << "grace defaults to infinity";
  EXPECT_TRUE(o.config.warnings.empty());
}

TEST(LoadModes, SeveralUrlsAreRoundRobin) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--url", "http://a:1,http://b:2", "--url", "c:3"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.endpoint.urls,
            (std::vector<std::string>{"http://a:1", "http://b:2", "http://c:3"}));
  EXPECT_EQ(o.config.endpoint.url_strategy, UrlStrategy::kRoundRobin);
}

TEST(LoadModes, RateAloneIsPoissonWithTenRequests) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x", "--request-rate", "2.5"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& l = o.config.load;
  EXPECT_EQ(l.arrival_pattern, ArrivalPattern::kPoisson);
  EXPECT_EQ(*l.request_rate, 2.5);
  EXPECT_FALSE(l.concurrency.has_value()) << "no ceiling unless asked";
  EXPECT_EQ(*l.request_count, 10);
  EXPECT_EQ(o.config.warnings.size(), 1u);
}

TEST(LoadModes, SmoothnessShapesAGammaRate) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--request-rate", "4", "--arrival-pattern", "gamma",
                          "--vllm-burstiness", "0.5", "--request-count", "3"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.load.arrival_pattern, ArrivalPattern::kGamma);
  EXPECT_EQ(*o.config.load.smoothness, 0.5);
}

TEST(LoadModes, NoRateIsABurstWithConcurrencyOneAndTenRequests) {
  const CliOutcome o = parse_command_line({"profile", "-m", "x"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.load.arrival_pattern, ArrivalPattern::kConcurrencyBurst);
  EXPECT_EQ(*o.config.load.concurrency, 1);
  EXPECT_EQ(*o.config.load.request_count, 10);
  // AIPerf 0.11: 10 whatever the concurrency.
  const CliOutcome big = parse_command_line({"profile", "-m", "x", "--concurrency", "16"});
  EXPECT_EQ(*big.config.load.request_count, 10);
}

TEST(LoadModes, SessionsAreAStopConditionAndWarmupFallsBack) {
  const CliOutcome o = parse_command_line(
      {"profile", "-m", "x", "--request-rate", "3", "--concurrency", "4", "--num-sessions", "6",
       "--warmup-request-count", "5", "--conversation-turn-mean", "3", "--session-turn-delay-mean",
       "20", "--dataset-sampling-strategy", "sequential"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& l = o.config.load;
  EXPECT_FALSE(l.request_count.has_value());
  EXPECT_EQ(*l.num_sessions, 6);
  EXPECT_TRUE(l.warmup_enabled);
  EXPECT_EQ(*l.warmup.request_rate, 3.0);
  EXPECT_EQ(l.warmup.arrival_pattern, ArrivalPattern::kPoisson);
  EXPECT_EQ(*l.warmup.concurrency, 4);
  EXPECT_EQ(o.config.input.turn_mean, 3.0);
  EXPECT_EQ(o.config.input.turn_delay_mean_ms, 20.0);
  EXPECT_EQ(o.config.input.sampling_strategy, SamplingStrategy::kSequential);
}

TEST(LoadModes, WarmupOwnLoadOverridesProfiling) {
  const CliOutcome o =
      parse_command_line({"profile", "-m", "x", "--concurrency", "8", "--request-count", "20",
                          "--warmup-duration", "2", "--warmup-request-rate", "50"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& w = o.config.load.warmup;
  EXPECT_EQ(w.arrival_pattern, ArrivalPattern::kPoisson);
  EXPECT_EQ(*w.request_rate, 50.0);
  EXPECT_EQ(*w.concurrency, 8) << "the profiling concurrency is the warmup ceiling";
}

// AIPerf 0.11: the warmup ramps default to the profiling ramps, each only where the warmup phase
// has that load; a given one wins.
TEST(LoadModes, WarmupRampsDefaultToTheProfilingRamps) {
  CliOutcome o = parse_command_line({"profile", "-m", "x", "--streaming", "--concurrency", "8",
                                     "--prefill-concurrency", "2", "--concurrency-ramp-duration",
                                     "4", "--prefill-concurrency-ramp-duration", "3",
                                     "--warmup-request-count", "5"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  const auto& w = o.config.load.warmup;
  EXPECT_EQ(w.concurrency_ramp_s, 4.0);
  EXPECT_EQ(w.prefill_ramp_s, 3.0);
  EXPECT_FALSE(w.rate_ramp_s.has_value()) << "no rate, no rate ramp";

  o = parse_command_line({"profile", "-m", "x", "--request-rate", "10",
                          "--request-rate-ramp-duration", "2", "--warmup-duration", "5",
                          "--warmup-request-rate-ramp-duration", "1.5"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.load.warmup.rate_ramp_s, 1.5) << "the given warmup ramp wins";
  EXPECT_EQ(o.config.load.rate_ramp_s, 2.0) << "the profiling ramp is its own";
  EXPECT_FALSE(o.config.load.warmup.concurrency_ramp_s.has_value());

  // The warmup's own rate takes the profiling concurrency's ramp only with a concurrency.
  o = parse_command_line({"profile", "-m", "x", "--concurrency", "4", "--concurrency-ramp-duration",
                          "2", "--warmup-request-count", "4", "--warmup-request-rate", "5",
                          "--warmup-concurrency-ramp-duration", "1"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.load.warmup.concurrency_ramp_s, 1.0);
  EXPECT_FALSE(o.config.load.warmup.rate_ramp_s.has_value());
}

// The --no- forms of AIPerf 0.11's negatable booleans that inferperf has (or whose negation is
// what it does) are accepted.
TEST(LoadModes, NegatableBooleansAreAccepted) {
  const CliOutcome o = parse_command_line(
      {"profile", "-m", "x", "--no-auto-plot", "--no-profile-run-disable-warmup-after-first",
       "--no-set-consistent-seed", "--no-vary-seed-per-trial", "--auto-plot"});
  EXPECT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.exit_code, 0) << o.message;
}

}  // namespace
}  // namespace inferperf::config
