#include "sweep/sweep_args.hpp"

#include <gtest/gtest.h>

#include <set>

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
  EXPECT_EQ(s.params[0].name, "concurrency");
  EXPECT_EQ(s.params[0].flag, "--concurrency");
  EXPECT_EQ(s.params[0].values, (Words{"1", "2", "4"}));
  EXPECT_EQ(s.params[1].name, "isl");
  EXPECT_EQ(s.params[1].flag, "--isl");
  EXPECT_EQ(s.params[1].values, (Words{"16", "32"}));
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
  EXPECT_EQ(s.params[0].values, (Words{"1", "2"}));
  EXPECT_EQ(s.params[1].values, (Words{"16", "32"}));
  EXPECT_EQ(extract_sweep_args({"profile", "--sweep-type", "_Grid_"}).options.sweep_type, "grid");
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
  EXPECT_EQ((*points)[5].folder, "concurrency_2-isl_64");
  EXPECT_EQ((*points)[5].label, "concurrency=2 isl=64");
}

TEST(SweepPoints, ZipPairsItemByItemAndNeedsEqualLengths) {
  std::vector<SweepParam> params = {{"concurrency", "--concurrency", {"1", "2"}},
                                    {"osl", "--osl", {"10", "20"}}};
  auto points = expand_points(params, "zip");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 2u);
  EXPECT_EQ((*points)[1].folder, "concurrency_2-osl_20");
  params[1].values.push_back("30");
  auto bad = expand_points(params, "zip");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--osl has 3"), std::string::npos) << bad.error().message;
}

TEST(SweepPoints, NoParametersIsOnePointInTheRoot) {
  auto points = expand_points({}, "grid");
  ASSERT_TRUE(points);
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ((*points)[0].folder, "");
  EXPECT_EQ(run_folder(1), "run_0001");
  EXPECT_EQ(run_folder(10), "run_0010");
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
