// append_record_line writes the bytes nlohmann would: every field, every optional part, strings
// with escapes, UTF-8, invalid UTF-8 and control characters, and randomly generated records.
#include "records/record_line.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "records/record_jsonl.hpp"

namespace inferperf::records {
namespace {

const core::WallAnchor kAnchor{5'000, 1'700'000'000'000'000'000};

std::string reference(const RequestRecord& r) {
  return record_to_json(r, kAnchor).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string fast(const RequestRecord& r) {
  std::string out = "prefix:";  // appends, never clears
  append_record_line(r, kAnchor, out);
  EXPECT_EQ(out.rfind("prefix:", 0), 0u);
  return out.substr(7);
}

RequestRecord plain() {
  RequestRecord r;
  r.credit_num = 3;
  r.x_request_id = "a1";
  r.start_ns = 9'000;
  r.end_ns = 19'000;
  r.content_events = {ContentEvent{12'000, 0, "Hello", ""}, ContentEvent{13'000, 1, " world", ""}};
  return r;
}

TEST(RecordLine, PlainRecordMatches) {
  EXPECT_EQ(fast(plain()), reference(plain()));
}

TEST(RecordLine, EveryOptionalPartMatches) {
  RequestRecord r = plain();
  r.phase = Phase::kWarmup;
  r.tls_handshake_start_ns = 10'000;
  r.tls_handshake_end_ns = 11'000;
  r.usage = {11, 22, 33, 4, 5, 0, 6, 7, 0.1, 8, 9, 10, 12};  // every usage detail too
  r.server_timings = ServerTimings{20.123456789012345, 90.0, 12, 7, 3, "llama.cpp"};
  r.requested_osl = 25;
  r.finish_reason = "length";
  r.outputs = 2;
  r.input_images = 3;
  r.video_inference_time_s = 1.5e-7;
  r.video_peak_memory_mb = 1024.0;
  r.client_tokens.input = 16;
  r.client_tokens.output = 8;
  r.client_tokens.reasoning = 0;
  r.client_tokens.per_event = {1, 2, 0, 5};
  r.error =
      ErrorInfo{503, inferperf::core::RequestErrorType::from_name("ServerError"), "busy \"now\""};
  r.was_cancelled = true;
  r.connection_reused = true;
  EXPECT_EQ(fast(r), reference(r));
  r.error->code.reset();
  r.server_timings->prefill_ms.reset();
  r.client_tokens.per_event.clear();
  EXPECT_EQ(fast(r), reference(r));
}

TEST(RecordLine, StringsEscapeAsNlohmannDoes) {
  const std::string cases[] = {
      "quote \" backslash \\ slash /",
      std::string("controls \b\f\n\r\t \x01\x1f\x7f end"),
      std::string("nul \0 inside", 12),
      "UTF-8: ü € 𝄞 中文 🙂",
      "\xC3",                      // truncated 2-byte sequence
      "ok \xFF bad",               // never valid
      "\xE0\x80\x80 overlong",     // overlong 3-byte
      "\xED\xA0\x80 surrogate",    // UTF-16 surrogate
      "\xF4\x90\x80\x80 too big",  // above U+10FFFF
      "\xC0\xAF",                  // overlong 2-byte
      "mixed \xE2\x82 cut then ok €",
  };
  for (const auto& s : cases) {
    RequestRecord r = plain();
    r.content_events[0].content = s;
    r.content_events[1].reasoning = s;
    r.x_correlation_id = s;
    EXPECT_EQ(fast(r), reference(r)) << "case: " << s;
  }
}

// A content event is assembled on the stack when its texts are plain and short: around that
// limit (the texts' 153 bytes beside the widest numbers), split either way, the bytes still match.
TEST(RecordLine, ContentEventsAroundTheStackLimitMatch) {
  for (std::size_t total = 148; total <= 158; ++total) {
    for (std::size_t content : {std::size_t{0}, total / 2, total}) {
      RequestRecord r = plain();
      r.content_events[0].content = std::string(content, 'c');
      r.content_events[0].reasoning = std::string(total - content, 'r');
      r.content_events[0].ts_ns = -8'000'000'000'000'000'000;  // a 20-character wall time
      r.content_events[0].read_index = 4'294'967'295u;         // the widest read index
      r.content_events[1].ts_ns = 0;                           // written as 0
      ASSERT_EQ(fast(r), reference(r)) << total << " bytes, " << content << " of content";
    }
  }
}

TEST(RecordLine, RandomRecordsMatch) {
  std::mt19937_64 rng(42);
  auto byte_string = [&](std::size_t max_len) {
    std::string s(rng() % (max_len + 1), ' ');
    for (auto& c : s) {
      // Mostly printable ASCII, some controls, some high bytes (valid or not).
      const auto k = rng() % 10;
      c = static_cast<char>(k < 7 ? 0x20 + rng() % 95 : k < 8 ? rng() % 0x20 : 0x80 + rng() % 0x80);
    }
    return s;
  };
  for (int i = 0; i < 2000; ++i) {
    RequestRecord r;
    r.credit_num = static_cast<std::int64_t>(rng() % 100000);
    r.x_request_id = byte_string(8);
    r.start_ns = static_cast<core::MonoNs>(rng() % 1'000'000'000);
    r.end_ns = r.start_ns + static_cast<core::MonoNs>(rng() % 1'000'000);
    r.status = static_cast<int>(rng() % 600);
    const auto n = rng() % 5;
    for (std::uint64_t k = 0; k < n; ++k) {
      r.content_events.push_back(ContentEvent{static_cast<core::MonoNs>(rng() % 100000),
                                              static_cast<std::uint32_t>(k), byte_string(12),
                                              byte_string(3)});
    }
    if (rng() % 3 == 0) r.usage.completion_tokens = static_cast<std::int64_t>(rng() % 500);
    if (rng() % 4 == 0)
      r.error = ErrorInfo{std::nullopt, inferperf::core::RequestErrorType::from_name("X"),
                          byte_string(20)};
    if (rng() % 5 == 0) r.video_inference_time_s = static_cast<double>(rng() % 100000) / 7.0;
    ASSERT_EQ(fast(r), reference(r)) << "record " << i;
  }
}

TEST(RecordLine, ReadsBackAsTheSameRecord) {
  RequestRecord r = plain();
  r.usage.prompt_tokens = 5;
  r.input_images = 2;
  std::string line;
  append_record_line(r, kAnchor, line);
  auto back = record_from_line(line);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->input_images, 2);
  EXPECT_EQ(back->content_events.size(), 2u);
  EXPECT_EQ(back->content_events[1].content, " world");
  EXPECT_EQ(back->start_ns, kAnchor.to_wall(9'000));
}

// analyze/merge recompute the usage metrics from this file: the details must come back.
TEST(RecordLine, UsageDetailsReadBack) {
  RequestRecord r = plain();
  r.usage.prompt_tokens = 100;
  r.usage.prompt_cache_read_tokens = 64;
  r.usage.prompt_cache_miss_tokens = 36;
  r.usage.prompt_audio_seconds = 0.1;
  r.usage.rejected_prediction_tokens = 0;
  std::string line;
  append_record_line(r, kAnchor, line);
  auto back = record_from_line(line);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->usage.prompt_tokens, 100);
  EXPECT_EQ(back->usage.prompt_cache_read_tokens, 64);
  EXPECT_EQ(back->usage.prompt_cache_miss_tokens, 36);
  EXPECT_EQ(back->usage.prompt_audio_seconds, 0.1);
  EXPECT_EQ(back->usage.rejected_prediction_tokens, 0);
  EXPECT_FALSE(back->usage.prompt_cache_write_tokens);
  EXPECT_FALSE(back->usage.accepted_prediction_tokens);
}

}  // namespace
}  // namespace inferperf::records
