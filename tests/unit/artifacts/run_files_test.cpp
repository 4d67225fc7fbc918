// The run folder's files written and read back: inputs.json (its exact layout, streamed), and a
// run's manifest with its records file (a partial last line from a killed run skipped, a damaged
// line refused with its number).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "artifacts/inputs_json.hpp"
#include "artifacts/run_records.hpp"

namespace inferperf::artifacts {
namespace {

namespace fs = std::filesystem;

class RunFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ip-run-files-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string text(const fs::path& p) const {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(RunFiles, InputsJsonLayoutAndReadBack) {
  auto stats = write_inputs_json(dir_ / kInputsFileName, 2, [](std::size_t i) {
    InputsEntry e;
    e.session_id = "s" + std::to_string(i);
    for (std::size_t k = 0; k <= i; ++k) e.payloads.push_back({{"turn", k}});
    return e;
  });
  ASSERT_TRUE(stats) << stats.error().describe();
  EXPECT_EQ(stats->conversations, 2u);
  EXPECT_EQ(stats->payloads, 3u);
  const std::string want =
      "{\n  \"data\": [\n    {\n      \"session_id\": \"s0\",\n      \"payloads\": [\n"
      "        {\n          \"turn\": 0\n        }\n      ]\n    },\n"
      "    {\n      \"session_id\": \"s1\",\n      \"payloads\": [\n"
      "        {\n          \"turn\": 0\n        },\n        {\n          \"turn\": 1\n        }\n"
      "      ]\n    }\n  ]\n}";
  EXPECT_EQ(text(dir_ / kInputsFileName), want);
  EXPECT_EQ(stats->bytes, want.size());
  EXPECT_FALSE(fs::exists(dir_ / "inputs.json.tmp"));
  auto back = read_inputs_json(dir_);
  ASSERT_TRUE(back) << back.error().describe();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[1].session_id, "s1");
  EXPECT_EQ((*back)[1].payloads.size(), 2u);
}

TEST_F(RunFiles, EmptyInputsJsonAndBadDocuments) {
  ASSERT_TRUE(
      write_inputs_json(dir_ / kInputsFileName, 0, [](std::size_t) { return InputsEntry{}; }));
  EXPECT_EQ(text(dir_ / kInputsFileName), "{\n  \"data\": []\n}");
  std::ofstream(dir_ / kInputsFileName) << "{\"rows\": []}";
  auto r = read_inputs_json(dir_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not an inputs.json document"), std::string::npos);
  fs::remove(dir_ / kInputsFileName);
  EXPECT_FALSE(read_inputs_json(dir_));
}

TEST_F(RunFiles, RecordsAndManifestRoundTrip) {
  report::ReportContext ctx;
  ctx.benchmark_id = "id";
  ctx.cli_command = "inferperf profile";
  ctx.token_source = "server";
  ctx.input_config = nlohmann::ordered_json::object();
  ASSERT_TRUE(write_manifest(dir_, ctx, ExportSettings{}, true));
  std::vector<records::RequestRecord> recs(3);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    recs[i].credit_num = static_cast<std::int64_t>(i);
    recs[i].start_ns = 1000 + static_cast<std::int64_t>(i);
    recs[i].end_ns = 2000 + static_cast<std::int64_t>(i);
  }
  ASSERT_TRUE(save_records(dir_ / kRecordsFileName, recs, core::WallAnchor{0, 0}));
  auto run = read_run(dir_);
  ASSERT_TRUE(run) << run.error().describe();
  EXPECT_TRUE(run->manifest.complete);
  EXPECT_EQ(run->manifest.context.benchmark_id, "id");
  ASSERT_EQ(run->records.size(), 3u);
  EXPECT_EQ(run->records[2].credit_num, 2);

  std::ofstream(dir_ / kRecordsFileName, std::ios::app) << "{\"credit_num\": 3, \"sta";
  run = read_run(dir_);
  ASSERT_TRUE(run) << "a partial last line is a killed run's";
  EXPECT_EQ(run->records.size(), 3u);

  const std::string whole = text(dir_ / kRecordsFileName);
  std::ofstream(dir_ / kRecordsFileName) << "not json\n" << whole;
  run = read_run(dir_);
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().line, 1);
}

}  // namespace
}  // namespace inferperf::artifacts
