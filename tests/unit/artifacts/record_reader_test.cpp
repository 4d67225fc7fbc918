// Reading a records file one record at a time, with the parse on a thread ahead of the caller:
// every record once, in file order, and a damaged line named by its number.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "artifacts/run_records.hpp"
#include "records/record_line.hpp"

#include "../test_files.hpp"

namespace inferperf::artifacts {
namespace {

namespace fs = std::filesystem;

fs::path reader_file(const std::string& name, int records, const std::string& extra = "") {
  static const test_files::ScratchDir dir("ip-record-reader");
  const fs::path p = dir / name;
  std::ofstream out(p, std::ios::binary);
  std::string line;
  for (int i = 0; i < records; ++i) {
    records::RequestRecord r;
    r.credit_num = i;
    r.start_ns = 1'000 + i;
    r.end_ns = 2'000 + i;
    r.status = 200;
    line.clear();
    records::append_record_line(r, core::WallAnchor{0, 0}, line);
    out << line << '\n';
  }
  out << extra;
  return p;
}

TEST(RecordReader, ReadAheadGivesEveryRecordInFileOrder) {
  // More than the read-ahead window (8 batches of 256), and a partial last batch.
  const fs::path p = reader_file("many.jsonl", 2'600);
  std::vector<std::int64_t> seen;
  auto n = for_each_record_read_ahead(p, [&](records::RequestRecord& r) {
    seen.push_back(r.credit_num);
    EXPECT_EQ(r.start_ns, 1'000 + r.credit_num);
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 2'600);
  ASSERT_EQ(seen.size(), 2'600u);
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], static_cast<std::int64_t>(i));
}

TEST(RecordReader, ACallbackThatThrowsReachesTheCallerAndTheReaderIsReleased) {
  // The reader is blocked on a full window when the caller gives up: it must be let go and
  // joined, and the exception reach the caller (not std::terminate).
  const fs::path p = reader_file("throwing.jsonl", 5'000);
  std::int64_t fed = 0;
  EXPECT_THROW(for_each_record_read_ahead(p,
                                          [&](records::RequestRecord&) {
                                            if (++fed == 10) throw std::runtime_error("tokenizer");
                                          }),
               std::runtime_error);
  EXPECT_EQ(fed, 10);
}

TEST(RecordReader, ADamagedLineIsAnErrorNamingItAfterTheRecordsBeforeIt) {
  const fs::path p = reader_file("damaged.jsonl", 300, "{not json\n{}\n");
  std::int64_t fed = 0;
  auto n = for_each_record_read_ahead(p, [&](records::RequestRecord&) { ++fed; });
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().line, 301);
  EXPECT_EQ(fed, 300);
  // A partial last line (a run killed mid-write) is skipped.
  const fs::path cut = reader_file("cut.jsonl", 10, "{\"phase\":\"prof");
  auto m = for_each_record_read_ahead(cut, [](records::RequestRecord&) {});
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, 10);
}

}  // namespace
}  // namespace inferperf::artifacts
