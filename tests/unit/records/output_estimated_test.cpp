// ClientTokens::output_estimated: written by both record writers (the same bytes) only when set,
// and read back.
#include <gtest/gtest.h>

#include <string>

#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"

namespace inferperf::records {
namespace {

const core::WallAnchor kEstimateAnchor{5'000, 1'700'000'000'000'000'000};

std::string fast_line(const RequestRecord& r) {
  std::string out;
  append_record_line(r, kEstimateAnchor, out);
  return out;
}

TEST(OutputEstimated, WrittenOnlyWhenSetAndReadBack) {
  RequestRecord r;
  r.credit_num = 1;
  r.start_ns = 6'000;
  r.end_ns = 7'000;
  r.client_tokens.output = 26'214'400;
  r.client_tokens.per_event = {26'214'400};
  const std::string plain = fast_line(r);
  EXPECT_EQ(plain.find("output_estimated"), std::string::npos) << plain;

  r.client_tokens.output_estimated = true;
  const std::string line = fast_line(r);
  EXPECT_NE(line.find(R"("client_tokens":{"output":26214400,"per_event":[26214400],)"
                      R"("output_estimated":true})"),
            std::string::npos)
      << line;
  EXPECT_EQ(line, record_to_json(r, kEstimateAnchor)
                      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->client_tokens.output_estimated);
  auto plain_back = record_from_line(plain);
  ASSERT_TRUE(plain_back.ok());
  EXPECT_FALSE(plain_back->client_tokens.output_estimated);
}

}  // namespace
}  // namespace inferperf::records
