#include "sweep/sweep_args.hpp"

#include <gtest/gtest.h>

#include <set>

#include "config/cli.hpp"
#include "sweep/points.hpp"

namespace inferperf::sweep {
namespace {

using Words = std::vector<std::string>;

TEST(SweepArgs, ListsAndOrchestrationFlagsLeaveTheProfileWords) {
  const auto s = extract_sweep_args({"profile",
                                     "-m",
                                     "x",
                                     "--concurrency",
                                     "1,2,4",
                                     "--isl=16,32",
                                     "--num-profile-runs",
                                     "3",
                                     "--sweep-type",
                                     "zip",
                                     "--artifact-dir",
                                     "out",
                                     "--cache-salt-per-run",
                                     "--auto-plot",
                                     "--random-seed",
                                     "7",
                                     "--osl",
                                     "10",
                                     "--sweep-cooldown-seconds=1.5",
                                     "--profile-run-cooldown-seconds",
                                     "2",
                                     "--confidence-level",
                                     "0.9"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x", "--osl", "10"}));
  ASSERT_EQ(s.params.size(), 2u);
  // Ordered by config path as AIPerf 0.11 orders the axes: datasets.* before phases.*.
  EXPECT_EQ(s.params[0].name, "isl");
  EXPECT_EQ(s.params[0].flag, "--isl");
  EXPECT_EQ(s.params[0].values, (Words{"16", "32"}));
  EXPECT_EQ(s.params[0].path, "datasets.main.prompts.isl.mean");
  EXPECT_EQ(s.params[0].dir_name, "mean");
  EXPECT_EQ(s.params[1].name, "concurrency");
  EXPECT_EQ(s.params[1].flag, "--concurrency");
  EXPECT_EQ(s.params[1].values, (Words{"1", "2", "4"}));
  EXPECT_EQ(s.params[1].path, "phases.profiling.concurrency");
  EXPECT_EQ(s.options.num_profile_runs, 3);
  EXPECT_EQ(s.options.sweep_type, "zip");
  EXPECT_EQ(s.options.artifact_dir, "out");
  EXPECT_TRUE(s.options.cache_salt_per_run);
  EXPECT_TRUE(s.options.auto_plot);
  EXPECT_EQ(s.options.random_seed, "7");
  EXPECT_DOUBLE_EQ(s.options.sweep_cooldown_s, 1.5);
  EXPECT_DOUBLE_EQ(s.options.profile_run_cooldown_s, 2.0);
  EXPECT_DOUBLE_EQ(s.options.confidence_level, 0.9);
  EXPECT_TRUE(s.orchestrated());
}

// AIPerf 0.11 reads --sweep-type in any case and with blanks around list items.
TEST(SweepArgs, SweepTypeSpellingsAndTrimmedItems) {
  const auto s = extract_sweep_args(
      {"profile", "--sweep-type", "ZIP", "--concurrency", " 1, 2 ", "--isl", "16 ,32"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_EQ(s.options.sweep_type, "zip");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0].values, (Words{"16", "32"}));
  EXPECT_EQ(s.params[1].values, (Words{"1", "2"}));
  EXPECT_EQ(extract_sweep_args({"profile", "--sweep-type", "_Grid_"}).options.sweep_type, "grid");
}

// The twelve AIPerf 0.11 magic lists, under every spelling inferperf accepts: whole numbers for
// the integer options, floats (written as Python writes them) for the four float ones.
TEST(SweepArgs, EveryMagicListFlagSweeps) {
  struct Case {
    const char* flag;
    const char* list;
    const char* path;
    Words values;
  };
  const std::vector<Case> cases = {
      {"--concurrency", "1,2", "phases.profiling.concurrency", {"1", "2"}},
      {"--prefill-concurrency", "1,02", "phases.profiling.prefill_concurrency", {"1", "2"}},
      {"--request-rate", "5,2.5", "phases.profiling.rate", {"5.0", "2.5"}},
      {"--request-count", "10,20", "phases.profiling.requests", {"10", "20"}},
      {"--num-requests", "10,20", "phases.profiling.requests", {"10", "20"}},
      {"--benchmark-duration", "1,1.5", "phases.profiling.duration", {"1.0", "1.5"}},
      {"--num-conversations", "3,4", "phases.profiling.sessions", {"3", "4"}},
      {"--num-sessions", "3,4", "phases.profiling.sessions", {"3", "4"}},
      {"--num-users", "2,3", "phases.profiling.users", {"2", "3"}},
      {"--isl", "128,256", "datasets.main.prompts.isl.mean", {"128", "256"}},
      {"--synthetic-input-tokens-mean", "1,2", "datasets.main.prompts.isl.mean", {"1", "2"}},
      {"--isl-stddev", "0,4", "datasets.main.prompts.isl.stddev", {"0.0", "4.0"}},
      {"--osl", "8,16", "datasets.main.prompts.osl.mean", {"8", "16"}},
      {"--osl-stddev", "0.5,1", "datasets.main.prompts.osl.stddev", {"0.5", "1.0"}},
      {"--conversation-turn-mean", "2,3", "datasets.main.turns.mean", {"2", "3"}},
      {"--session-turns-mean", "2,3", "datasets.main.turns.mean", {"2", "3"}},
  };
  for (const auto& c : cases) {
    const auto s = extract_sweep_args({"profile", c.flag, c.list});
    ASSERT_TRUE(s.errors.empty()) << c.flag << ": " << s.errors.front();
    ASSERT_EQ(s.params.size(), 1u) << c.flag;
    EXPECT_EQ(s.params[0].flag, c.flag);
    EXPECT_EQ(s.params[0].path, c.path) << c.flag;
    EXPECT_EQ(s.params[0].values, c.values) << c.flag;
  }
  // Integer options take plain integers only; booleans are no numbers.
  for (const char* bad : {"1.5", "true", "1e2"}) {
    const auto s = extract_sweep_args({"profile", "--request-count", std::string("10,") + bad});
    ASSERT_FALSE(s.errors.empty()) << bad;
    EXPECT_NE(s.errors.front().find("--request-count: '"), std::string::npos) << s.errors.front();
  }
  EXPECT_FALSE(extract_sweep_args({"profile", "--request-rate", "1,true"}).errors.empty());
  EXPECT_FALSE(extract_sweep_args({"profile", "--isl-stddev", "1,-1"}).errors.empty());
}

TEST(SweepArgs, SweepModeAndSameSeed) {
  auto s = extract_sweep_args({"profile", "--parameter-sweep-mode", "INDEPENDENT",
                               "--parameter-sweep-same-seed", "--random-seed", "3", "-m", "x"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_EQ(s.options.sweep_mode, "independent");
  EXPECT_TRUE(s.options.sweep_same_seed);
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x"}));
  EXPECT_EQ(extract_sweep_args({"profile"}).options.sweep_mode, "repeated");
  s = extract_sweep_args({"profile", "--parameter-sweep-same-seed"});
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_NE(s.errors[0].find("needs --random-seed"), std::string::npos);
  s = extract_sweep_args({"profile", "--parameter-sweep-cooldown-seconds", "1.5"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_DOUBLE_EQ(s.options.sweep_cooldown_s, 1.5);
  s = extract_sweep_args({"profile", "--parameter-sweep-cooldown-seconds", "-1"});
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_TRUE(s.errors[0].starts_with("--parameter-sweep-cooldown-seconds must be")) << s.errors[0];
  s = extract_sweep_args({"profile", "--parameter-sweep-mode", "sideways"});
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_NE(s.errors[0].find("not repeated or independent"), std::string::npos);
}

TEST(SweepArgs, SingleValuesStayOrdinaryFlags) {
  const auto s = extract_sweep_args({"profile", "--concurrency", "8", "--request-rate=2.5"});
  EXPECT_TRUE(s.errors.empty());
  EXPECT_TRUE(s.params.empty());
  EXPECT_FALSE(s.orchestrated());
  EXPECT_EQ(s.base, (Words{"profile", "--concurrency", "8", "--request-rate=2.5"}));
  const auto runs = extract_sweep_args({"profile", "--num-profile-runs", "2"});
  EXPECT_TRUE(runs.orchestrated());
}

TEST(SweepArgs, OtherCommandsAreUntouched) {
  const Words w = {"analyze", "--concurrency", "1,2", "--num-profile-runs", "3"};
  const auto s = extract_sweep_args(w);
  EXPECT_EQ(s.base, w);
  EXPECT_FALSE(s.orchestrated());
}

TEST(SweepArgs, SwitchesTakeNegationsAndBooleans) {
  auto s = extract_sweep_args(
      {"profile", "--no-set-consistent-seed", "--profile-run-disable-warmup-after-first=false"});
  ASSERT_TRUE(s.errors.empty());
  EXPECT_FALSE(s.options.consistent_seed);
  EXPECT_FALSE(s.options.disable_warmup_after_first);
  s = extract_sweep_args({"profile", "--set-consistent-seed", "false", "-m", "x"});
  EXPECT_FALSE(s.options.consistent_seed);
  EXPECT_EQ(s.base, (Words{"profile", "-m", "x"}));
  s = extract_sweep_args({"profile", "--no-profile-run-disable-warmup-after-first"});
  EXPECT_FALSE(s.options.disable_warmup_after_first);
  s = extract_sweep_args({"profile", "--auto-plot=maybe"});
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_NE(s.errors[0].find("--auto-plot"), std::string::npos);
}

TEST(SweepArgs, BadValuesAreNamed) {
  const std::vector<std::pair<Words, std::string>> cases = {
      {{"profile", "--concurrency", "1,x"}, "'x' in '1,x' is not a whole number"},
      {{"profile", "--concurrency", "1,0"}, "'0' in '1,0'"},
      {{"profile", "--concurrency", "2,2"}, "'2' appears twice"},
      {{"profile", "--request-rate", "1.5,-2"}, "'-2' in '1.5,-2' is not a number above 0"},
      {{"profile", "--osl", "10,"}, "'' in '10,'"},
      {{"profile", "--num-profile-runs", "11"},
       "--num-profile-runs must be a whole number of runs between 1 and 10 (got 11)"},
      {{"profile", "--num-profile-runs", "0"}, "between 1 and 10 (got 0)"},
      {{"profile", "--confidence-level", "1"},
       "--confidence-level must be a fraction above 0 and below 1 (got 1)"},
      {{"profile", "--sweep-type", "random"}, "'random' is not grid or zip"},
      {{"profile", "--sweep-cooldown-seconds", "-1"}, "seconds from 0 to 31,536,000"},
      {{"profile", "--concurrency", "1,2", "--concurrency", "3"}, "swept and given again"},
      {{"profile", "--concurrency", "3", "--concurrency", "1,2"}, "swept and given again"},
      {{"profile", "--num-profile-runs"}, "--num-profile-runs needs a value"},
  };
  for (const auto& [words, expected] : cases) {
    const auto s = extract_sweep_args(words);
    ASSERT_FALSE(s.errors.empty()) << words.back();
    EXPECT_NE(s.errors.front().find(expected), std::string::npos) << s.errors.front();
  }
}

TEST(SweepArgs, ChildArgsPutThePointBackWithTheRunsExtras) {
  const auto s =
      extract_sweep_args({"profile", "-m", "x", "--concurrency", "1,2", "--extra-inputs", "a:1"});
  RunArgs r;
  r.point_values = {"2"};
  r.artifact_dir = "out/concurrency_2";
  r.random_seed = "42";
  r.no_warmup = true;
  r.cache_salt = "00ff00ff00ff";
  EXPECT_EQ(child_args(s, r),
            (Words{"profile", "-m", "x", "--extra-inputs", "a:1", "--concurrency", "2",
                   "--artifact-dir", "out/concurrency_2", "--random-seed", "42", "--no-warmup",
                   "--extra-inputs", R"({"cache_salt":"00ff00ff00ff"})"}));
  EXPECT_EQ(child_args(s, RunArgs{{"1"}, "", std::nullopt, std::nullopt, false}),
            (Words{"profile", "-m", "x", "--extra-inputs", "a:1", "--concurrency", "1"}));
}

// The config a point's child would run with (as the orchestrator probes it).
config::RunConfig point_config(const SweepArgs& s, const std::string& value) {
  auto outcome = config::parse_command_line(child_args(s, RunArgs{{value}}));
  EXPECT_EQ(outcome.action, config::CliOutcome::Action::kProfile) << outcome.message;
  return outcome.config;
}

TEST(SweepArgs, AConcurrencyListIsNeverInheritedByTheWarmup) {
  auto s = extract_sweep_args(
      {"profile", "-m", "x", "--concurrency", "2,4", "--warmup-request-count", "3"});
  ASSERT_TRUE(pin_warmup_concurrency(s, point_config(s, "2")));
  EXPECT_EQ(child_args(s, RunArgs{{"4"}}),
            (Words{"profile", "-m", "x", "--warmup-request-count", "3", "--warmup-concurrency", "1",
                   "--concurrency", "4"}));
  const auto child = point_config(s, "4");
  EXPECT_EQ(child.load.concurrency, 4);
  EXPECT_EQ(child.load.warmup.concurrency, 1);
  EXPECT_EQ(child.load.warmup.request_count, 3);

  // Left alone: a warmup concurrency of its own, a rate warmup, no warmup, no concurrency list.
  for (const Words& typed : {
           Words{"profile", "-m", "x", "--concurrency", "2,4", "--warmup-request-count", "3",
                 "--warmup-concurrency", "3"},
           Words{"profile", "-m", "x", "--concurrency", "2,4", "--warmup-request-count", "3",
                 "--request-rate", "5"},
           Words{"profile", "-m", "x", "--concurrency", "2,4", "--request-count", "3"},
           Words{"profile", "-m", "x", "--concurrency", "2", "--isl", "8,16",
                 "--warmup-request-count", "3"},
       }) {
    auto other = extract_sweep_args(typed);
    const Words before = other.base;
    EXPECT_FALSE(
        pin_warmup_concurrency(other, point_config(other, other.params.front().values.front())))
        << typed[4];
    EXPECT_EQ(other.base, before);
  }
}

TEST(SweepArgs, CacheSaltsAreTwelveHexDigitsOfTheLow48Bits) {
  EXPECT_EQ(cache_salt_from_bits(0), "000000000000");
  EXPECT_EQ(cache_salt_from_bits(0xabcdef0123456789ULL), "ef0123456789");
  EXPECT_EQ(cache_salt_from_bits(0x123e45678901ULL), "123e45678901");
}

TEST(SweepArgs, CacheSaltsAreFreshHex) {
  std::set<std::string> seen;
  for (int i = 0; i < 20; ++i) {
    const auto salt = random_cache_salt();
    ASSERT_EQ(salt.size(), 12u);
    EXPECT_EQ(salt.find_first_not_of("0123456789abcdef"), std::string::npos) << salt;
    seen.insert(salt);
  }
  EXPECT_EQ(seen.size(), 20u);
}

TEST(SweepPoints, GridTurnsTheLastParameterFastest) {
  const std::vector<SweepParam> params = {{"concurrency", "--concurrency", {"1", "2"}},
                                          {"isl", "--isl", {"16", "32", "64"}}};
  auto points = expand_points(params, "grid");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 6u);
  EXPECT_EQ((*points)[0].values, (Words{"1", "16"}));
  EXPECT_EQ((*points)[1].values, (Words{"1", "32"}));
  EXPECT_EQ((*points)[3].values, (Words{"2", "16"}));
  EXPECT_EQ((*points)[5].folder, "concurrency_2__isl_64");  // no dir_name: the short name
  EXPECT_EQ((*points)[5].label, "concurrency=2 isl=64");
}

// AIPerf 0.11's names: `--concurrency 8 --isl 512` is mean_512__concurrency_8, the isl axis
// first (its path sorts first) and turning slowest.
TEST(SweepPoints, FolderNamesAndLabelsFollowTheConfigPaths) {
  const auto s = extract_sweep_args(
      {"profile", "--concurrency", "8,16", "--isl", "512,1024", "--request-rate", "5,10"});
  ASSERT_TRUE(s.errors.empty()) << s.errors.front();
  auto points = expand_points(s.params, "grid");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 8u);
  EXPECT_EQ((*points)[0].folder, "mean_512__concurrency_8__rate_5.0");
  EXPECT_EQ((*points)[1].folder, "mean_512__concurrency_8__rate_10.0");
  EXPECT_EQ((*points)[4].folder, "mean_1024__concurrency_8__rate_5.0");
  EXPECT_EQ((*points)[0].label, "isl=512 concurrency=8 request_rate=5.0");
  EXPECT_EQ((*points)[0].variation_label,
            "datasets.main.prompts.isl.mean=512, phases.profiling.concurrency=8, "
            "phases.profiling.rate=5.0");
  const auto one = extract_sweep_args({"profile", "--isl", "512,64"});
  auto single = expand_points(one.params, "grid");
  ASSERT_TRUE(single);
  EXPECT_EQ((*single)[0].folder, "mean_512");
  EXPECT_EQ((*single)[1].folder, "mean_64");
}

TEST(SweepPoints, ZipPairsItemByItemAndNeedsEqualLengths) {
  std::vector<SweepParam> params = {{"concurrency", "--concurrency", {"1", "2"}},
                                    {"osl", "--osl", {"10", "20"}}};
  auto points = expand_points(params, "zip");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 2u);
  EXPECT_EQ((*points)[1].folder, "concurrency_2__osl_20");
  params[1].values.push_back("30");
  auto bad = expand_points(params, "zip");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--concurrency has 2 values but --osl has 3"),
            std::string::npos)
      << bad.error().message;
}

TEST(SweepPoints, NoParametersIsOnePointInTheRoot) {
  auto points = expand_points({}, "grid");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ((*points)[0].folder, "");
  EXPECT_EQ(run_folder(1), "run_0001");
  EXPECT_EQ(run_folder(10), "run_0010");
  EXPECT_EQ(trial_folder(2), "trial_0002");
}

TEST(SweepArgs, OrchestrationNumbersAreCheckedAgainstTheSharedRangeTable) {
  for (const char* bad : {"1e300", "inf", "nan", "-1", "31536001"}) {
    const auto s = extract_sweep_args(
        {"profile", "--sweep-cooldown-seconds", bad, "--profile-run-cooldown-seconds", bad});
    ASSERT_EQ(s.errors.size(), 2u) << bad;
    EXPECT_EQ(s.errors[0], std::string("--sweep-cooldown-seconds must be a finite number of "
                                       "seconds from 0 to 31,536,000 (365 days) (got ") +
                               bad + ")");
    EXPECT_NE(s.errors[1].find("--profile-run-cooldown-seconds must be"), std::string::npos);
  }
}

TEST(SweepArgs, ANegativeSeedIsLeftToTheProfileParser) {
  const auto s = extract_sweep_args({"profile", "--num-profile-runs", "2", "--random-seed", "-1"});
  EXPECT_FALSE(s.options.random_seed.has_value());
  EXPECT_EQ(s.base, (Words{"profile", "--random-seed", "-1"}));
}

}  // namespace
}  // namespace inferperf::sweep
