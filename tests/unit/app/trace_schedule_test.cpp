// AIPerf 0.11's fixed schedule for a timestamped trace: the first timestamp is t = 0 unless a start
// offset is given, and a trace that promotes itself refuses a rate, users or a smoothness.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "app/profile/dataset_setup.hpp"
#include "config/cli.hpp"

namespace inferperf::app {
namespace {

class TraceSchedule : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(trace_) << "{\"timestamp\":1000,\"input_length\":8,\"output_length\":2,"
                             "\"hash_ids\":[1]}\n"
                             "{\"timestamp\":2500,\"input_length\":8,\"output_length\":2,"
                             "\"hash_ids\":[2]}\n";
  }
  core::Result<PreparedDataset> prepare(std::vector<std::string> extra) {
    std::vector<std::string> args = {"profile",
                                     "-m",
                                     "x",
                                     "--use-server-token-count",
                                     "--input-file",
                                     trace_.string(),
                                     "--custom-dataset-type",
                                     "mooncake_trace"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto o = config::parse_command_line(args);
    EXPECT_EQ(o.action, config::CliOutcome::Action::kProfile) << o.message;
    return prepare_dataset(o.config, core::RngFactory(1), nullptr);
  }
  test_files::ScratchDir dir_{"trace-schedule"};
  std::filesystem::path trace_ = dir_.path() / "trace.jsonl";
};

TEST_F(TraceSchedule, TheFirstTimestampIsZeroUnlessAStartOffsetIsGiven) {
  auto explicit_fixed = prepare({"--fixed-schedule"});
  ASSERT_TRUE(explicit_fixed.ok()) << explicit_fixed.error().message;
  EXPECT_EQ(explicit_fixed->schedule_zero_ms, 1000.0);
  auto promoted = prepare({});
  ASSERT_TRUE(promoted.ok()) << promoted.error().message;
  EXPECT_TRUE(promoted->promoted_fixed_schedule);
  EXPECT_EQ(promoted->schedule_zero_ms, 1000.0);
  auto offset = prepare({"--fixed-schedule", "--fixed-schedule-start-offset", "500"});
  ASSERT_TRUE(offset.ok()) << offset.error().message;
  EXPECT_EQ(offset->schedule_zero_ms, 500.0);
}

// Offsets apply to a promoted trace (it is a fixed-schedule phase) and are refused without one.
TEST_F(TraceSchedule, OffsetsApplyToAPromotedTrace) {
  auto promoted = prepare({"--fixed-schedule-start-offset", "2000"});
  ASSERT_TRUE(promoted.ok()) << promoted.error().message;
  EXPECT_TRUE(promoted->promoted_fixed_schedule);
  EXPECT_EQ(promoted->schedule_zero_ms, 2000.0);
  EXPECT_EQ(promoted->dataset.conversations.size(), 1u);  // the row at 1000 ms is dropped
  auto not_promoted =
      prepare({"--fixed-schedule-end-offset", "2000", "--dataset-sampling-strategy", "sequential"});
  ASSERT_FALSE(not_promoted.ok());
  EXPECT_NE(not_promoted.error().message.find("need a fixed-schedule phase"), std::string::npos)
      << not_promoted.error().message;
}

TEST_F(TraceSchedule, PromotionRefusesARateUsersOrSmoothness) {
  auto rate = prepare({"--request-rate", "5"});
  ASSERT_FALSE(rate.ok());
  EXPECT_NE(rate.error().message.find("--request-rate cannot drive: add --no-fixed-schedule"),
            std::string::npos)
      << rate.error().message;
  auto users = prepare({"--user-centric-rate", "2", "--num-users", "1", "--request-count", "2"});
  ASSERT_FALSE(users.ok());
  EXPECT_NE(users.error().message.find("--num-users"), std::string::npos);
  auto kept = prepare({"--request-rate", "5", "--no-fixed-schedule"});
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_FALSE(kept->promoted_fixed_schedule);
}

}  // namespace
}  // namespace inferperf::app
