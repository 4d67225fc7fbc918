// The records writer checks every write: /dev/full (every write fails with ENOSPC) and the
// test hook's byte limit (a disk that fills part-way through a line).
#include "records/records_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "records/collector.hpp"

#include "../test_files.hpp"
#include "numbered_record.hpp"

namespace inferperf::records {
namespace {

namespace fs = std::filesystem;

using test_files::read_whole_file;

// The scratch folder of this test binary's records files.
fs::path temp_file(const std::string& name) {
  static const test_files::ScratchDir dir("ip-records-file");
  return dir / name;
}

// Sets the test hook for one scope.
struct WriteLimit {
  explicit WriteLimit(const char* bytes) {
    setenv("INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES", bytes, 1);
  }
  ~WriteLimit() { unsetenv("INFERPERF_TEST_FAIL_WRITES_AFTER_BYTES"); }
};

TEST(RecordsFile, WritesWholeLinesAndCountsThem) {
  const fs::path p = temp_file("ok.jsonl");
  RecordsFile f;
  ASSERT_TRUE(f.open(p));
  f.append("{\"a\":1}\n");
  f.append("{\"a\":2}\n");
  EXPECT_TRUE(f.flush());
  f.append("{\"a\":3}\n");
  EXPECT_TRUE(f.close());
  EXPECT_FALSE(f.failed());
  EXPECT_EQ(f.lines_written(), 3);
  EXPECT_EQ(f.bytes_written(), 24);
  EXPECT_EQ(read_whole_file(p), "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n");
}

TEST(RecordsFile, DevFullFailsAtTheFirstFlushWithTheReason) {
  RecordsFile f;
  ASSERT_TRUE(f.open("/dev/full"));
  f.append("{\"a\":1}\n");
  EXPECT_FALSE(f.flush());
  EXPECT_TRUE(f.failed());
  EXPECT_EQ(f.error(), "writing /dev/full failed: No space left on device");
  EXPECT_EQ(f.lines_written(), 0);
  f.append("{\"a\":2}\n");  // dropped: nothing more is tried
  EXPECT_FALSE(f.flush());
  EXPECT_FALSE(f.close());
  EXPECT_EQ(f.error(), "writing /dev/full failed: No space left on device") << "the first one";
}

TEST(RecordsFile, ADiskFullMidLineKeepsTheWholeLinesOnly) {
  const WriteLimit limit("25");  // room for two 10-byte lines and half of the third
  const fs::path p = temp_file("partial.jsonl");
  RecordsFile f;
  ASSERT_TRUE(f.open(p));
  for (int i = 0; i < 5; ++i) f.append("123456789\n");
  EXPECT_FALSE(f.flush());
  EXPECT_EQ(f.error(), "writing " + p.string() + " failed: No space left on device");
  EXPECT_EQ(f.lines_written(), 2);
  EXPECT_EQ(f.bytes_written(), 20);
  EXPECT_FALSE(f.close());
  EXPECT_EQ(read_whole_file(p), "123456789\n123456789\n") << "the partial third line is cut off";
}

TEST(RecordsFile, AFailureInALaterFlushKeepsTheEarlierOnes) {
  const WriteLimit limit("30");
  const fs::path p = temp_file("later.jsonl");
  RecordsFile f;
  ASSERT_TRUE(f.open(p));
  f.append("123456789\n");
  ASSERT_TRUE(f.flush());
  f.append("123456789\n123456789\n123456789\n");
  EXPECT_FALSE(f.flush());
  EXPECT_EQ(f.lines_written(), 3);
  EXPECT_EQ(read_whole_file(p).size(), 30u);
}

TEST(CollectorWrites, TheFirstFailedWriteIsReportedOnceAndEveryRecordIsStillKept) {
  RecordQueue queue;
  Collector c(queue, core::WallAnchor::capture());
  ASSERT_TRUE(c.open("/dev/full"));
  std::vector<std::pair<std::string, std::int64_t>> reports;
  c.set_on_write_failure(
      [&](const std::string& e, std::int64_t kept) { reports.emplace_back(e, kept); });
  c.start();
  for (int i = 0; i < 300; ++i) queue.push(numbered(i));  // more than one batch
  const auto recs = c.finish();
  EXPECT_EQ(recs.size(), 300u) << "the metrics still see every record";
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].first, "writing /dev/full failed: No space left on device");
  EXPECT_EQ(reports[0].second, 0);
  EXPECT_TRUE(c.write_failed());
  EXPECT_EQ(c.records_written(), 0);
}

TEST(CollectorWrites, WhatReachedTheDiskBeforeTheFailureReadsBackAsWholeRecords) {
  const WriteLimit limit("2000");
  const fs::path p = temp_file("collector.jsonl");
  RecordQueue queue;
  Collector c(queue, core::WallAnchor::capture());
  ASSERT_TRUE(c.open(p));
  std::int64_t kept = -1;
  c.set_on_write_failure([&](const std::string&, std::int64_t k) { kept = k; });
  c.start();
  for (int i = 0; i < 50; ++i) queue.push(numbered(i));
  EXPECT_EQ(c.finish().size(), 50u);
  ASSERT_GT(kept, 0);
  EXPECT_LT(kept, 50);
  std::istringstream in(read_whole_file(p));
  std::string line;
  std::int64_t n = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("session_num").get<std::int64_t>(), n++);
  }
  EXPECT_EQ(n, kept);
  EXPECT_LE(fs::file_size(p), 2000u);
}

}  // namespace
}  // namespace inferperf::records
