// record_to_json / record_from_line: field names, anchor arithmetic and round trips.
#include "records/record_jsonl.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using inferperf::core::WallAnchor;
using inferperf::records::ContentEvent;
using inferperf::records::ErrorInfo;
using inferperf::records::Phase;
using inferperf::records::record_from_line;
using inferperf::records::record_to_json;
using inferperf::records::RequestRecord;
using inferperf::records::ServerTimings;

RequestRecord full_record() {
  RequestRecord r;
  r.phase = Phase::kWarmup;
  r.credit_num = 17;
  r.x_request_id = "req-1";
  r.x_correlation_id = "corr-1";
  r.conversation_id = "conv-1";
  r.turn_index = 2;
  r.worker_id = 3;
  r.intended_ns = 1001;
  r.issued_ns = 1002;
  r.start_ns = 1003;
  r.connect_start_ns = 1004;
  r.connect_end_ns = 1005;
  r.send_start_ns = 1006;
  r.send_end_ns = 1007;
  r.headers_ns = 1008;
  r.first_byte_ns = 1009;
  r.last_event_ns = 1010;
  r.end_ns = 1011;
  r.status = 200;
  r.connection_reused = true;
  r.bytes_sent = 321;
  r.bytes_received = 4321;
  r.reads = 5;
  r.events = 6;
  r.content_events = {ContentEvent{1020, 0, "he\"llo\n", ""}, ContentEvent{1030, 0, "", "thinking"},
                      ContentEvent{1040, 4, "ü", "r"}};
  r.usage.prompt_tokens = 11;
  r.usage.completion_tokens = 22;
  r.usage.total_tokens = 33;
  r.usage.reasoning_tokens = 4;
  r.usage.prompt_cache_read_tokens = 5;
  r.usage.prompt_cache_write_tokens = 0;
  r.usage.prompt_cache_miss_tokens = 6;
  r.usage.tool_use_prompt_tokens = 7;
  r.usage.prompt_audio_seconds = 1.0 / 3.0;
  r.usage.prompt_audio_tokens = 8;
  r.usage.completion_audio_tokens = 9;
  r.usage.accepted_prediction_tokens = 10;
  r.usage.rejected_prediction_tokens = 12;
  r.server_timings = ServerTimings{20.123456789012345, 90.0, 12, 7, 3, "llama.cpp"};
  r.requested_osl = 25;
  r.finish_reason = "length";
  r.was_cancelled = true;
  return r;
}

void expect_same(const RequestRecord& a, const RequestRecord& b) {
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.credit_num, b.credit_num);
  EXPECT_EQ(a.x_request_id, b.x_request_id);
  EXPECT_EQ(a.x_correlation_id, b.x_correlation_id);
  EXPECT_EQ(a.conversation_id, b.conversation_id);
  EXPECT_EQ(a.turn_index, b.turn_index);
  EXPECT_EQ(a.worker_id, b.worker_id);
  EXPECT_EQ(a.intended_ns, b.intended_ns);
  EXPECT_EQ(a.issued_ns, b.issued_ns);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.connect_start_ns, b.connect_start_ns);
  EXPECT_EQ(a.connect_end_ns, b.connect_end_ns);
  EXPECT_EQ(a.tls_handshake_start_ns, b.tls_handshake_start_ns);
  EXPECT_EQ(a.tls_handshake_end_ns, b.tls_handshake_end_ns);
  EXPECT_EQ(a.send_start_ns, b.send_start_ns);
  EXPECT_EQ(a.send_end_ns, b.send_end_ns);
  EXPECT_EQ(a.headers_ns, b.headers_ns);
  EXPECT_EQ(a.first_byte_ns, b.first_byte_ns);
  EXPECT_EQ(a.last_event_ns, b.last_event_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.connection_reused, b.connection_reused);
  EXPECT_EQ(a.bytes_sent, b.bytes_sent);
  EXPECT_EQ(a.bytes_received, b.bytes_received);
  EXPECT_EQ(a.reads, b.reads);
  EXPECT_EQ(a.events, b.events);
  ASSERT_EQ(a.content_events.size(), b.content_events.size());
  for (std::size_t i = 0; i < a.content_events.size(); ++i) {
    EXPECT_EQ(a.content_events[i].ts_ns, b.content_events[i].ts_ns) << i;
    EXPECT_EQ(a.content_events[i].read_index, b.content_events[i].read_index) << i;
    EXPECT_EQ(a.content_events[i].content, b.content_events[i].content) << i;
    EXPECT_EQ(a.content_events[i].reasoning, b.content_events[i].reasoning) << i;
  }
  EXPECT_EQ(a.usage.prompt_tokens, b.usage.prompt_tokens);
  EXPECT_EQ(a.usage.completion_tokens, b.usage.completion_tokens);
  EXPECT_EQ(a.usage.total_tokens, b.usage.total_tokens);
  EXPECT_EQ(a.usage.reasoning_tokens, b.usage.reasoning_tokens);
  EXPECT_EQ(a.usage.prompt_cache_read_tokens, b.usage.prompt_cache_read_tokens);
  EXPECT_EQ(a.usage.prompt_cache_write_tokens, b.usage.prompt_cache_write_tokens);
  EXPECT_EQ(a.usage.prompt_cache_miss_tokens, b.usage.prompt_cache_miss_tokens);
  EXPECT_EQ(a.usage.tool_use_prompt_tokens, b.usage.tool_use_prompt_tokens);
  EXPECT_EQ(a.usage.prompt_audio_seconds, b.usage.prompt_audio_seconds);  // bit for bit
  EXPECT_EQ(a.usage.prompt_audio_tokens, b.usage.prompt_audio_tokens);
  EXPECT_EQ(a.usage.completion_audio_tokens, b.usage.completion_audio_tokens);
  EXPECT_EQ(a.usage.accepted_prediction_tokens, b.usage.accepted_prediction_tokens);
  EXPECT_EQ(a.usage.rejected_prediction_tokens, b.usage.rejected_prediction_tokens);
  ASSERT_EQ(a.server_timings.has_value(), b.server_timings.has_value());
  if (a.server_timings) {
    // Exactly equal: doubles are written with enough digits to read back bit for bit.
    EXPECT_EQ(a.server_timings->prefill_ms, b.server_timings->prefill_ms);
    EXPECT_EQ(a.server_timings->decode_ms, b.server_timings->decode_ms);
    EXPECT_EQ(a.server_timings->prompt_tokens, b.server_timings->prompt_tokens);
    EXPECT_EQ(a.server_timings->predicted_tokens, b.server_timings->predicted_tokens);
    EXPECT_EQ(a.server_timings->cached_tokens, b.server_timings->cached_tokens);
    EXPECT_EQ(a.server_timings->source, b.server_timings->source);
  }
  EXPECT_EQ(a.requested_osl, b.requested_osl);
  EXPECT_EQ(a.finish_reason, b.finish_reason);
  ASSERT_EQ(a.error.has_value(), b.error.has_value());
  if (a.error) {
    EXPECT_EQ(a.error->code, b.error->code);
    EXPECT_EQ(a.error->type.name(), b.error->type.name());
    EXPECT_EQ(a.error->message, b.error->message);
  }
  EXPECT_EQ(a.was_cancelled, b.was_cancelled);
  EXPECT_EQ(a.client_tokens.input, b.client_tokens.input);
  EXPECT_EQ(a.client_tokens.output, b.client_tokens.output);
  EXPECT_EQ(a.client_tokens.reasoning, b.client_tokens.reasoning);
  EXPECT_EQ(a.client_tokens.per_event, b.client_tokens.per_event);
}

constexpr WallAnchor kIdentity{5000, 5000};

TEST(RecordJsonl, RoundTripsEveryField) {
  const RequestRecord r = full_record();
  // Through text, as the file is written and read.
  const std::string line = record_to_json(r, kIdentity).dump();
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(*back, r);
}

// The usage details under their own keys, only those the server sent (a 0 is sent); older files
// without them still read, with the details absent.
TEST(RecordJsonl, UsageDetailsKeysAndOlderFiles) {
  RequestRecord r;
  r.start_ns = 5000;
  r.content_events = {ContentEvent{5500, 0, "a", ""}};
  r.usage.prompt_tokens = 10;
  r.usage.prompt_cache_read_tokens = 0;
  r.usage.prompt_audio_seconds = 2.5;
  const std::string line = record_to_json(r, kIdentity).dump();
  EXPECT_NE(
      line.find(
          R"("usage":{"prompt_tokens":10,"prompt_cache_read_tokens":0,"prompt_audio_seconds":2.5})"),
      std::string::npos)
      << line;
  auto old =
      record_from_line(R"({"phase":"profiling","session_num":1,"start_ns":1,"content_events":[],)"
                       R"("usage":{"prompt_tokens":3}})");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->usage.prompt_tokens, 3);
  EXPECT_FALSE(old->usage.prompt_cache_read_tokens);
  EXPECT_FALSE(old->usage.prompt_audio_seconds);
}

TEST(RecordJsonl, RoundTripsClientTokenCounts) {
  RequestRecord r = full_record();
  r.client_tokens.input = 120;
  r.client_tokens.output = 7;
  r.client_tokens.per_event = {3, 4};
  const std::string line = record_to_json(r, kIdentity).dump();
  EXPECT_NE(line.find(R"("client_tokens":{"input":120,"output":7,"per_event":[3,4]})"),
            std::string::npos)
      << line;
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(*back, r);
}

TEST(RecordJsonl, RoundTripsErrorRecord) {
  RequestRecord r;
  r.credit_num = 4;
  r.start_ns = 77;
  r.end_ns = 99;
  r.status = 503;
  r.error =
      ErrorInfo{503, inferperf::core::RequestErrorType::http("Service Unavailable"), "overloaded"};
  auto back = record_from_line(record_to_json(r, kIdentity).dump());
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(*back, r);
  ASSERT_TRUE(back->error.has_value());
  EXPECT_EQ(back->error->code, 503);
}

TEST(RecordJsonl, RoundTripsErrorWithoutCode) {
  RequestRecord r;
  r.start_ns = 1;
  r.error = ErrorInfo{std::nullopt, inferperf::core::RequestErrorKind::kResponseParse, "bad"};
  const auto j = record_to_json(r, kIdentity);
  EXPECT_TRUE(j["error"]["code"].is_null());
  auto back = record_from_line(j.dump());
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(*back, r);
}

TEST(RecordJsonl, ExactJsonForAMinimalRecord) {
  RequestRecord r;
  r.credit_num = 1;
  r.start_ns = 1'000;
  r.content_events = {ContentEvent{1'500, 2, "a", ""}};
  r.usage.completion_tokens = 1;
  // anchor: mono 1000 <-> wall 1'700'000'000'000'000'000; zero stamps stay 0.
  const WallAnchor anchor{1'000, 1'700'000'000'000'000'000};
  EXPECT_EQ(
      record_to_json(r, anchor).dump(),
      R"({"phase":"profiling","session_num":1,"x_request_id":"","x_correlation_id":"",)"
      R"("conversation_id":"","turn_index":0,"worker_id":0,"intended_ns":0,"issued_ns":0,)"
      R"("start_ns":1700000000000000000,"connect_start_ns":0,"connect_end_ns":0,)"
      R"("send_start_ns":0,"send_end_ns":0,"headers_ns":0,"first_byte_ns":0,)"
      R"("last_event_ns":0,"end_ns":0,"status":0,"connection_reused":false,"bytes_sent":0,)"
      R"("bytes_received":0,"reads":0,"events":0,)"
      R"("content_events":[[1700000000000000500,2,"a",""]],"usage":{"completion_tokens":1}})");
}

TEST(RecordJsonl, TlsHandshakeStampsOnlyWhenThereWasOne) {
  RequestRecord r;
  r.start_ns = 1'000;
  r.connect_start_ns = 1'001;
  r.connect_end_ns = 1'002;
  r.tls_handshake_start_ns = 1'003;
  r.tls_handshake_end_ns = 1'010;
  r.content_events = {ContentEvent{1'500, 0, "a", ""}};
  const std::string line = record_to_json(r, kIdentity).dump();
  EXPECT_NE(line.find(R"("connect_end_ns":1002,"tls_handshake_start_ns":1003,)"
                      R"("tls_handshake_end_ns":1010,"send_start_ns")"),
            std::string::npos)
      << line;
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(*back, r);
  r.tls_handshake_start_ns = r.tls_handshake_end_ns = 0;
  EXPECT_EQ(record_to_json(r, kIdentity).dump().find("tls_handshake"), std::string::npos);
}

TEST(RecordJsonl, ServerTimingsKeyAndPartialFields) {
  RequestRecord r;
  r.start_ns = 1'000;
  r.content_events = {ContentEvent{1'500, 0, "a", ""}};
  r.server_timings = ServerTimings{20.5, std::nullopt, 12, std::nullopt, std::nullopt, "llama.cpp"};
  const std::string line = record_to_json(r, kIdentity).dump();
  EXPECT_NE(line.find(R"("usage":{},"server_timings":{"source":"llama.cpp","prefill_ms":20.5,)"
                      R"("prompt_tokens":12})"),
            std::string::npos)
      << line;
  auto back = record_from_line(line);
  ASSERT_TRUE(back.ok()) << back.error().message;
  expect_same(*back, r);
  EXPECT_FALSE(back->server_timings->decode_ms.has_value());
}

TEST(RecordJsonl, FilesWithoutServerTimingsStillRead) {
  // A line as written before server timings existed.
  auto back = record_from_line(
      R"({"phase":"profiling","session_num":1,"start_ns":1000,"content_events":[[1500,0,"a",""]],)"
      R"("usage":{"completion_tokens":1}})");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->server_timings.has_value());
  // No timings: no key.
  RequestRecord r = *back;
  EXPECT_EQ(record_to_json(r, kIdentity).dump().find("server_timings"), std::string::npos);
}

TEST(RecordJsonl, MalformedInputIsAnError) {
  const std::vector<std::string> bad = {
      R"({})",                     // nothing
      R"({"phase":"profiling"})",  // no session_num
      R"({"phase":"profiling","session_num":"x","start_ns":1,"content_events":[],"usage":{}})",
      R"({"phase":"profiling","session_num":1,"start_ns":1,"content_events":[[1,2]],"usage":{}})",
      R"({"phase":"profiling","session_num":1,"start_ns":1,"content_events":[]})",  // no usage
      R"({"phase":"profiling","session_num":1,"start_ns":1,"content_events":[],"usage":{},)"
      R"("error":{"type":"x"}})",  // error without code
      R"({"phase":"profiling","session_num":1,"start_ns":1,"content_events":[],"usage":{},)"
      R"("server_timings":{"prefill_ms":"20"}})",  // a number written as text
      R"([1,2,3])",
  };
  for (const auto& text : bad) {
    auto r = record_from_line(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().kind, inferperf::core::ErrorKind::kInput) << text;
    EXPECT_NE(r.error().message.find("malformed record"), std::string::npos) << r.error().message;
  }
}

TEST(RecordJsonl, ErrorsNameTheFieldOrSayTheLineIsNotJson) {
  const std::string head = R"({"phase":"profiling","session_num":1,"start_ns":1,)";
  auto message = [](const std::string& text) {
    auto r = record_from_line(text);
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_EQ(message(R"({"phase":"profiling","session_num":"x"})")
                .rfind("malformed record: session_num: ", 0),
            0u);
  EXPECT_EQ(message(head + R"("content_events":[],"usage":{},"turn_index":1.5})")
                .rfind("malformed record: turn_index: ", 0),
            0u)
      << "a whole number written with a fraction is not read as one";
  EXPECT_EQ(message(head + R"("content_events":[[1,0,"a"]],"usage":{}})"),
            "malformed record: content_events: an event has 3 parts, not 4");
  EXPECT_EQ(message(head + R"("content_events":[],"usage":{}},)").rfind("not valid JSON: ", 0), 0u);
  EXPECT_EQ(message(head.substr(0, 20)).rfind("not valid JSON: ", 0), 0u) << "a cut line";
}

}  // namespace
