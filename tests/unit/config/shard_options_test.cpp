// --shard-count/--shard-index/--start-at and their Kubernetes environment defaults.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "config/cli.hpp"

namespace inferperf::config {
namespace {

// Sets or clears the two environment variables for one test, restoring "unset" after.
class ShardEnv : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    unsetenv("JOB_COMPLETION_INDEX");
    unsetenv("INFERPERF_SHARD_COUNT");
  }
};

CliOutcome parse(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "x", "--random-seed", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

TEST_F(ShardEnv, FlagsGiveTheShard) {
  const auto o = parse({"--shard-count", "4", "--shard-index", "3", "--start-at", "1800000000.25"});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.shard.count, 4);
  EXPECT_EQ(o.config.shard.index, 3);
  ASSERT_TRUE(o.config.shard.start_at);
  EXPECT_DOUBLE_EQ(*o.config.shard.start_at, 1800000000.25);
  EXPECT_TRUE(o.config.shard.sharded());
}

TEST_F(ShardEnv, AnIndexedJobsEnvironmentIsTheDefaultAndFlagsWin) {
  setenv("JOB_COMPLETION_INDEX", "2", 1);
  setenv("INFERPERF_SHARD_COUNT", "3", 1);
  auto o = parse({});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.shard.count, 3);
  EXPECT_EQ(o.config.shard.index, 2);
  o = parse({"--shard-index", "0"});
  EXPECT_EQ(o.config.shard.index, 0);
}

TEST_F(ShardEnv, AnIndexWithoutAShardCountIsIgnored) {
  setenv("JOB_COMPLETION_INDEX", "7", 1);  // any Indexed Job sets it
  const auto o = parse({});
  ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << o.message;
  EXPECT_EQ(o.config.shard.count, 1);
  EXPECT_EQ(o.config.shard.index, 0);
  EXPECT_FALSE(o.config.shard.sharded());
}

TEST_F(ShardEnv, BadValuesAreRefusedByName) {
  setenv("INFERPERF_SHARD_COUNT", "three", 1);
  auto o = parse({});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find("INFERPERF_SHARD_COUNT=three: not a whole number"), std::string::npos)
      << o.message;
  unsetenv("INFERPERF_SHARD_COUNT");
  o = parse({"--shard-count", "0"});
  EXPECT_NE(o.message.find(
                "--shard-count must be a whole number of shards between 1 and 1,000,000 (got 0)"),
            std::string::npos);
  o = parse({"--shard-count", "2", "--shard-index", "2"});
  EXPECT_NE(o.message.find("--shard-index must be between 0 and --shard-count - 1 = 1 (got 2)"),
            std::string::npos)
      << o.message;
  o = parse({"--start-at", "-5"});
  EXPECT_NE(
      o.message.find("--start-at must be a Unix time in seconds between 1,000,000,000 (2001) and "
                     "9,000,000,000 (2255) (got -5)"),
      std::string::npos);
  o = parse_command_line({"profile", "-m", "x", "--shard-count", "2"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find("give every shard the same --random-seed"), std::string::npos);
}

}  // namespace
}  // namespace inferperf::config
