// The collector without kept records (set_keep_records(false)): every record goes to the records
// file and none stays in memory, except those the file does not hold after a failed write.
#include "records/collector.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>

#include "../test_files.hpp"
#include "numbered_record.hpp"

namespace inferperf::records {
namespace {

namespace fs = std::filesystem;

fs::path collector_file(const std::string& name) {
  static const test_files::ScratchDir dir("ip-collector");
  return dir / name;
}

std::vector<std::int64_t> session_nums(const fs::path& p) {
  std::istringstream in(test_files::read_whole_file(p));
  std::vector<std::int64_t> out;
  std::string line;
  while (std::getline(in, line))
    out.push_back(nlohmann::json::parse(line).at("session_num").get<std::int64_t>());
  return out;
}

TEST(CollectorStreaming, KeepsNoRecordOnceItIsOnDisk) {
  const fs::path p = collector_file("all.jsonl");
  RecordQueue queue;
  Collector c(queue, core::WallAnchor::capture());
  ASSERT_TRUE(c.open(p));
  c.set_keep_records(false);
  c.start();
  for (int i = 0; i < 300; ++i) queue.push(numbered(i));  // more than one batch
  EXPECT_TRUE(c.finish().empty());
  EXPECT_EQ(c.completed(), 300);
  EXPECT_EQ(c.records_written(), 300);
  const auto nums = session_nums(p);
  ASSERT_EQ(nums.size(), 300u);
  for (std::size_t i = 0; i < nums.size(); ++i) EXPECT_EQ(nums[i], static_cast<std::int64_t>(i));
}

TEST(CollectorStreaming, AfterAFailedWriteKeepsExactlyTheRecordsTheFileLacks) {
  setenv("INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES", "2000", 1);
  const fs::path p = collector_file("cut.jsonl");
  RecordQueue queue;
  Collector c(queue, core::WallAnchor::capture());
  ASSERT_TRUE(c.open(p));
  c.set_keep_records(false);
  c.start();
  for (int i = 0; i < 50; ++i) queue.push(numbered(i));
  const auto tail = c.finish();
  unsetenv("INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES");
  ASSERT_TRUE(c.write_failed());
  const auto on_disk = session_nums(p);
  ASSERT_EQ(static_cast<std::int64_t>(on_disk.size()), c.records_written());
  ASSERT_GT(on_disk.size(), 0u);
  // The file's records then the kept ones: every record once, in the order received.
  ASSERT_EQ(on_disk.size() + tail.size(), 50u);
  for (std::size_t i = 0; i < on_disk.size(); ++i)
    EXPECT_EQ(on_disk[i], static_cast<std::int64_t>(i));
  for (std::size_t i = 0; i < tail.size(); ++i)
    EXPECT_EQ(tail[i].credit_num, static_cast<std::int64_t>(on_disk.size() + i));
}

}  // namespace
}  // namespace inferperf::records
