// kernel_stamped_reads: how many of a record's reads carry the kernel's receive time. Written by
// both record writers only when non-zero, and read back.
#include <gtest/gtest.h>

#include <string>

#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"

namespace inferperf::records {
namespace {

RequestRecord stamped_record(std::uint32_t kernel_reads) {
  RequestRecord r;
  r.credit_num = 1;
  r.start_ns = 1'000;
  r.reads = 4;
  r.kernel_stamped_reads = kernel_reads;
  r.content_events = {ContentEvent{1'500, 0, "a", ""}};
  return r;
}

TEST(ReadStamps, KernelStampedReadsAreWrittenAndReadBack) {
  const core::WallAnchor anchor{1'000, 1'700'000'000'000'000'000};
  const RequestRecord r = stamped_record(3);
  const std::string line = [&] {
    std::string out;
    append_record_line(r, anchor, out);
    return out;
  }();
  EXPECT_NE(line.find(R"("reads":4,"kernel_stamped_reads":3,"events")"), std::string::npos) << line;
  // Both writers agree, and the line reads back.
  EXPECT_EQ(nlohmann::json::parse(line), nlohmann::json::parse(record_to_json(r, anchor).dump()));
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->kernel_stamped_reads, 3u);
  EXPECT_EQ(back->reads, 4u);
}

TEST(ReadStamps, ClockStampedRecordsKeepTheirShape) {
  const core::WallAnchor anchor{1'000, 1'700'000'000'000'000'000};
  const RequestRecord r = stamped_record(0);
  std::string line;
  append_record_line(r, anchor, line);
  EXPECT_EQ(line.find("kernel_stamped_reads"), std::string::npos) << line;
  EXPECT_FALSE(record_to_json(r, anchor).contains("kernel_stamped_reads"));
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->kernel_stamped_reads, 0u);
}

}  // namespace
}  // namespace inferperf::records
