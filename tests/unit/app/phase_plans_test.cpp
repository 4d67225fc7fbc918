// From a parsed command line to the phase plans and the artifact folder name.
#include "app/profile/phase_plans.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "config/cli.hpp"
#include "core/file_names.hpp"

namespace inferperf::app {
namespace {

namespace fs = std::filesystem;

config::RunConfig parse(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "org/model"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto o = config::parse_command_line(args);
  EXPECT_EQ(o.action, config::CliOutcome::Action::kProfile) << o.message;
  return o.config;
}

TEST(ArtifactLeaf, NamesTheStimulusAsAiperf) {
  EXPECT_EQ(artifact_leaf(parse({"--concurrency", "10"})), "org_model-openai-chat-concurrency10");
  // AIPerf 0.11: a rate phase is named by its concurrency cap only, never by its rate.
  EXPECT_EQ(artifact_leaf(parse({"--request-rate", "10", "--concurrency", "4"})),
            "org_model-openai-chat-concurrency4");
  EXPECT_EQ(artifact_leaf(parse({"--request-rate", "2.5", "--endpoint-type", "completions"})),
            "org_model-openai-completions");
  EXPECT_EQ(artifact_leaf(parse({})), "org_model-openai-chat-concurrency1");
  EXPECT_EQ(artifact_leaf(parse({"--user-centric-rate", "1", "--num-users", "15",
                                 "--session-turns-mean", "20", "--request-count", "100"})),
            "org_model-openai-chat-user_centric-users15-qps1.0");
  EXPECT_EQ(artifact_leaf(parse({"--input-file", "t.jsonl", "--fixed-schedule"})),
            "org_model-openai-chat-fixed_schedule");
}

TEST(PhasePlans, ProfilingCarriesCancellationAndUrlsWarmupDoesNot) {
  const auto c =
      parse({"--request-rate", "5", "--request-count", "20", "--request-cancellation-rate", "10",
             "--warmup-request-count", "3", "--url", "a:1,b:2,c:3"});
  const auto p = profiling_plan(c, 0.0);
  EXPECT_EQ(p.phase, records::Phase::kProfiling);
  EXPECT_EQ(p.rate, 5.0);
  EXPECT_EQ(p.pattern, timing::ArrivalPattern::kPoisson);
  EXPECT_EQ(p.cancel_rate_pct, 10.0);
  EXPECT_EQ(p.url_count, 3);
  EXPECT_EQ(p.num_users, 0);
  const auto w = warmup_plan(c);
  EXPECT_EQ(w.phase, records::Phase::kWarmup);
  EXPECT_EQ(*w.request_count, 3);
  EXPECT_EQ(w.rate, 5.0) << "falls back to the profiling rate";
  EXPECT_EQ(w.cancel_rate_pct, 0.0);
  EXPECT_EQ(w.url_count, 3);
}

TEST(PhasePlans, UserCentricUsesItsRateAndUsers) {
  const auto c = parse({"--user-centric-rate", "4", "--num-users", "8", "--session-turns-mean", "5",
                        "--benchmark-duration", "30"});
  const auto p = profiling_plan(c, 0.0);
  EXPECT_EQ(p.num_users, 8);
  EXPECT_EQ(p.rate, 4.0);
  EXPECT_EQ(p.pattern, timing::ArrivalPattern::kConcurrencyBurst);
  EXPECT_EQ(*p.duration_s, 30.0);
  EXPECT_NE(describe(p).find("user-centric 4 req/s over 8 users (a turn every 2 s each)"),
            std::string::npos)
      << describe(p);
}

TEST(PhasePlans, FixedScheduleTakesItsZero) {
  const auto c = parse({"--input-file", "t.jsonl", "--fixed-schedule"});
  const auto p = profiling_plan(c, 1234.0);
  EXPECT_TRUE(p.fixed_schedule);
  EXPECT_EQ(p.schedule_zero_ms, 1234.0);
}

config::RunConfig with_model(const std::string& model) {
  auto o = config::parse_command_line({"profile", "-m", model, "--concurrency", "2"});
  EXPECT_EQ(o.action, config::CliOutcome::Action::kProfile) << o.message;
  return o.config;
}

TEST(ArtifactLeaf, DataDerivedModelNamesStayOneComponent) {
  EXPECT_EQ(artifact_leaf(with_model("org/model")), "org_model-openai-chat-concurrency2");
  EXPECT_EQ(artifact_leaf(with_model("..")), "_.-openai-chat-concurrency2");
  EXPECT_EQ(artifact_leaf(with_model("../../etc")), "_._.._etc-openai-chat-concurrency2");
  EXPECT_EQ(artifact_leaf(with_model("/abs/m")), "_abs_m-openai-chat-concurrency2");
  EXPECT_EQ(artifact_leaf(with_model(std::string("a\0b\nc", 5))), "a_b_c-openai-chat-concurrency2");
  for (const std::string& model :
       {std::string("x/../../y"), std::string(".."), std::string(400, 'm'), std::string("a\\b"),
        std::string("\x01\x02")}) {
    const std::string leaf = artifact_leaf(with_model(model));
    EXPECT_EQ(leaf.find('/'), std::string::npos) << leaf;
    EXPECT_FALSE(core::has_control_chars(leaf)) << leaf;
    EXPECT_LE(leaf.size(), core::kMaxFileNameBytes) << leaf;
    EXPECT_TRUE(leaf.ends_with("-openai-chat-concurrency2")) << leaf;  // the stimulus is kept
    EXPECT_EQ(fs::path("artifacts") / leaf, (fs::path("artifacts") / leaf).lexically_normal());
    EXPECT_EQ((fs::path("artifacts") / leaf).parent_path(), fs::path("artifacts"));
  }
}

}  // namespace
}  // namespace inferperf::app
