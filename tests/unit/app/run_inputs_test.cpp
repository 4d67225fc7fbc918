// inputs.json written beside the run: the first-turn bodies built before it, the size estimate
// and the room check, the background writer (the same file as the synchronous one), the
// reservation cut to size, and a cancelled write that leaves nothing behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "app/profile/run_inputs.hpp"
#include "artifacts/inputs_json.hpp"
#include "artifacts/run_folder.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::app {
namespace {

namespace fs = std::filesystem;

class RunInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ip-run-inputs-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto chat = endpoint::create_endpoint(config::EndpointType::kChat, {});
    ASSERT_TRUE(chat);
    endpoint_ = std::move(*chat);
    plan_.endpoint = endpoint_.get();
    plan_.body_options.model = "m1";
    plan_.dataset = &ds_;
    // Three conversations: one turn, two turns, and a quote and a newline to escape.
    for (int i = 0; i < 3; ++i) {
      dataset::Conversation c;
      c.session_id = "s" + std::to_string(i);
      for (int k = 0; k <= i % 2; ++k) {
        dataset::Turn t;
        t.text = std::string(2000 + 100 * i, 'a' + static_cast<char>(k)) + "\"\n";
        t.max_tokens = 10 + k;
        c.turns.push_back(std::move(t));
      }
      ds_.conversations.push_back(std::move(c));
    }
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  static std::string text(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
  std::unique_ptr<endpoint::Endpoint> endpoint_;
  dataset::Dataset ds_;
  worker::RequestPlan plan_;
};

TEST_F(RunInputs, FirstBodiesAreTheCompactFirstPayloadsExceptAssembledPrompts) {
  dataset::Conversation assembled;
  assembled.session_id = "blocks";
  dataset::Turn t;
  t.synthesized = dataset::SynthesizedPrompt{512, {1, 2}, "", 0, 0};
  assembled.turns.push_back(t);
  ds_.conversations.push_back(assembled);
  prebuild_first_bodies(ds_, plan_);
  ASSERT_EQ(plan_.bodies.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto entry = run_inputs_entry(ds_, plan_, i);
    EXPECT_EQ(entry.session_id, "s" + std::to_string(i));
    ASSERT_EQ(entry.payloads.size(), i % 2 + 1);
    EXPECT_EQ(plan_.bodies[i], entry.payloads[0].dump());
    EXPECT_NE(plan_.bodies[i].find("\"model\":\"m1\""), std::string::npos) << plan_.bodies[i];
  }
  EXPECT_TRUE(plan_.bodies[3].empty());  // built per request from the blocks
}

TEST_F(RunInputs, ABackgroundWriteIsTheSynchronousFileAndTheEstimateErrsHigh) {
  prebuild_first_bodies(ds_, plan_);
  const fs::path sync_path = dir_ / "sync.json";
  const fs::path bg_path = dir_ / "bg.json";
  InputsJsonWriter sync(sync_path, ds_, plan_, false, false);
  EXPECT_FALSE(sync.background());
  const auto& a = sync.finish();
  ASSERT_TRUE(a) << a.error().describe();
  const std::uint64_t estimate = inputs_json_size_estimate(ds_, 5.0);
  ASSERT_TRUE(artifacts::reserve_inputs_json(bg_path, estimate).value());
  EXPECT_EQ(fs::file_size(bg_path.string() + ".tmp"), estimate);  // the space is taken up front
  InputsJsonWriter bg(bg_path, ds_, plan_, true, true);
  EXPECT_TRUE(bg.background());
  const auto& b = bg.finish();
  ASSERT_TRUE(b) << b.error().describe();
  EXPECT_EQ(b.value().conversations, 3u);
  EXPECT_EQ(b.value().payloads, 4u);
  EXPECT_EQ(b.value().bytes, a.value().bytes);
  // The reserved file was cut to what was written, and nothing else is left.
  EXPECT_EQ(fs::file_size(bg_path), b.value().bytes);
  EXPECT_EQ(text(bg_path), text(sync_path));
  EXPECT_FALSE(fs::exists(bg_path.string() + ".tmp"));
  // The estimate is above the file, but not wildly (texts dominate here).
  EXPECT_GE(estimate, b.value().bytes);
  EXPECT_LE(estimate, 2 * b.value().bytes);
  // Read back as `analyze` reads it.
  fs::rename(bg_path, dir_ / artifacts::kInputsFileName);
  auto back = artifacts::read_inputs_json(dir_);
  ASSERT_TRUE(back);
  EXPECT_EQ(back.value()[2].payloads[0].dump(), plan_.bodies[2]);
}

TEST_F(RunInputs, ABackgroundWriteThatFailsSaysItAsTheSynchronousWrite) {
  const fs::path path = dir_ / "gone" / "inputs.json";
  InputsJsonWriter bg(path, ds_, plan_, false, true);
  const auto& r = bg.finish();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().describe(), path.string() + ": cannot be written");
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(RunInputs, ACancelledWriteLeavesNoFile) {
  std::atomic<bool> cancel{true};
  artifacts::InputsJsonWrite how;
  how.cancel = &cancel;
  const fs::path path = dir_ / "inputs.json";
  auto r = artifacts::write_inputs_json(
      path, 3, [&](std::size_t i) { return run_inputs_entry(ds_, plan_, i); }, how);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "not finished");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

TEST_F(RunInputs, NoRoomIsAnErrorThatLeavesNothing) {
  const fs::path path = dir_ / "inputs.json";
  auto r = artifacts::reserve_inputs_json(path, 1ull << 62);  // 4 EiB: no file system has it
  if (r && !r.value()) GTEST_SKIP() << "this file system cannot reserve space";
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no room"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().file, path.string());
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
  // A folder that is not there: the error the write before the run gave.
  auto missing = artifacts::reserve_inputs_json(dir_ / "gone" / "inputs.json", 10);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "cannot be written");
}

TEST(RunInputsRoom, WrittenOnlyWhenItTakesAtMostHalfTheFreeSpace) {
  const fs::path path = "/data/run/inputs.json";
  EXPECT_EQ(inputs_json_room_problem(path, 500, 1000), "");
  EXPECT_EQ(inputs_json_room_problem(path, 500, std::nullopt), "");  // cannot tell: written
  const std::string p = inputs_json_room_problem(path, 501, 1000);
  EXPECT_NE(p.find("/data/run/inputs.json is not written"), std::string::npos) << p;
  EXPECT_NE(p.find("about 501 B"), std::string::npos) << p;
  EXPECT_NE(p.find("/data/run has 1000 B free"), std::string::npos) << p;
  EXPECT_NE(inputs_json_room_problem(path, 3ull << 30, 5ull << 30).find("about 3.0 GiB"),
            std::string::npos);
}

TEST(RunInputsRoom, FreeSpaceIsReadFromTheFileSystem) {
  const auto free = artifacts::free_bytes_at(fs::temp_directory_path());
  ASSERT_TRUE(free.has_value());
  EXPECT_GT(*free, 0u);
  EXPECT_FALSE(artifacts::free_bytes_at("/no/such/folder/anywhere").has_value());
}

}  // namespace
}  // namespace inferperf::app
