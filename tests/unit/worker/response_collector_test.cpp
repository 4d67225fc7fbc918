// ResponseCollector: timestamped body bytes -> content events, usage and errors of one record.
#include "worker/response_collector.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/version.hpp"
#include "endpoint/tool_calls.hpp"
#include "records/raw_exchange.hpp"
#include "worker/request_plan.hpp"
#include "worker/worker_pool.hpp"

namespace {

using inferperf::config::EndpointType;
using inferperf::endpoint::assistant_history_message;
using inferperf::endpoint::assistant_history_turn;
using inferperf::endpoint::make_endpoint;
using inferperf::records::ContentEvent;
using inferperf::records::RawExchange;
using inferperf::records::RequestRecord;
using inferperf::worker::RequestPlan;
using inferperf::worker::ResponseCollector;
using inferperf::worker::serialize_request;

const std::string kRole =
    R"(data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})"
    "\n\n";
std::string chunk(const std::string& delta, const std::string& finish = "null") {
  return R"(data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":)" + delta +
         R"(,"finish_reason":)" + finish + "}]}\n\n";
}
const std::string kUsage =
    R"(data: {"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15,"completion_tokens_details":{"reasoning_tokens":1}}})"
    "\n\n";
const std::string kDone = "data: [DONE]\n\n";

struct Fixture {
  Fixture() : endpoint(make_endpoint(EndpointType::kChat)), collector(*endpoint, record) {
    record.start_ns = 50;
  }
  std::unique_ptr<inferperf::endpoint::Endpoint> endpoint;
  RequestRecord record;
  ResponseCollector collector;
};

void expect_event(const ContentEvent& e, std::int64_t ts, std::uint32_t read,
                  const std::string& content, const std::string& reasoning) {
  EXPECT_EQ(e.ts_ns, ts);
  EXPECT_EQ(e.read_index, read);
  EXPECT_EQ(e.content, content);
  EXPECT_EQ(e.reasoning, reasoning);
}

TEST(ResponseCollector, StreamingChatEvents) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream; charset=utf-8", 90);
  f.collector.on_body(kRole, 100, 0);
  f.collector.on_body(chunk(R"({"reasoning_content":"th"})"), 200, 1);
  f.collector.on_body(chunk(R"({"content":"Hel"})") + chunk(R"({"content":"lo"})", "\"stop\""), 300,
                      2);
  f.collector.on_body(kUsage + kDone, 400, 3);
  EXPECT_TRUE(f.collector.wants_more());
  f.collector.finish(500);

  const auto& r = f.record;
  EXPECT_FALSE(r.error.has_value());
  EXPECT_EQ(r.status, 200);
  ASSERT_EQ(r.content_events.size(), 3u);  // role-only, usage-only and [DONE] never count
  expect_event(r.content_events[0], 200, 1, "", "th");
  expect_event(r.content_events[1], 300, 2, "Hel", "");
  expect_event(r.content_events[2], 300, 2, "lo", "");
  EXPECT_EQ(r.events, 6u);
  EXPECT_EQ(r.last_event_ns, 400);
  EXPECT_EQ(r.usage.prompt_tokens, 12);
  EXPECT_EQ(r.usage.completion_tokens, 3);
  EXPECT_EQ(r.usage.total_tokens, 15);
  EXPECT_EQ(r.usage.reasoning_tokens, 1);
  EXPECT_EQ(r.finish_reason, "stop");
  EXPECT_TRUE(r.valid());
}

// A stream's events get their room at the first one: as many as tokens were asked for (no copy
// of the events as they grow), within a bound; 32 when no length was asked for.
TEST(ResponseCollector, EventRoomFollowsTheRequestedLength) {
  for (const auto& [osl, room] : std::vector<std::pair<std::optional<int>, std::size_t>>{
           {100, 100}, {5, 5}, {100000, 256}, {0, 1}, {-3, 1}, {std::nullopt, 32}}) {
    Fixture f;
    f.record.requested_osl = osl;
    f.collector.on_headers(200, "OK", "text/event-stream", 90);
    f.collector.on_body(chunk(R"({"content":"a"})"), 100, 0);
    ASSERT_EQ(f.record.content_events.size(), 1u);
    EXPECT_EQ(f.record.content_events.capacity(), room) << osl.value_or(-1);
    const ContentEvent* first = f.record.content_events.data();
    for (std::size_t i = 1; i < std::min<std::size_t>(room, 100); ++i)
      f.collector.on_body(chunk(R"({"content":"b"})"), 100 + static_cast<std::int64_t>(i), 0);
    EXPECT_EQ(f.record.content_events.data(), first) << "the events were moved";
  }
}

TEST(ResponseCollector, ToolCallDeltasBecomeTheAssistantMessage) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(kRole + chunk(R"({"content":"Let me look."})"), 100, 0);
  f.collector.on_body(
      chunk(
          R"({"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"sh","arguments":"{\"cmd\""}}]})"),
      200, 1);
  f.collector.on_body(
      chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":":\"ls\"}"}}]})") +
          chunk(
              R"({"tool_calls":[{"index":1,"id":"call_b","function":{"name":"cat","arguments":"{}"}}]})",
              "\"tool_calls\""),
      300, 2);
  f.collector.on_body(kDone, 400, 3);
  f.collector.finish(500);
  // Metrics see the arguments as output (documented deviation) ...
  EXPECT_EQ(f.collector.content_text(), "Let me look.{\"cmd\":\"ls\"}{}");
  // ... the next turn gets an assistant message with the calls, text without the arguments.
  const auto m = assistant_history_message(f.collector.text_without_tool_arguments(),
                                           f.collector.tool_calls());
  EXPECT_EQ(m["role"], "assistant");
  EXPECT_EQ(m["content"], "Let me look.");
  ASSERT_EQ(m["tool_calls"].size(), 2u);
  EXPECT_EQ(m["tool_calls"][0]["id"], "call_a");
  EXPECT_EQ(m["tool_calls"][0]["function"]["name"], "sh");
  EXPECT_EQ(m["tool_calls"][0]["function"]["arguments"], "{\"cmd\":\"ls\"}");
  EXPECT_EQ(m["tool_calls"][1]["id"], "call_b");
  EXPECT_EQ(m["tool_calls"][1]["type"], "function");
  EXPECT_EQ(f.record.finish_reason, "tool_calls");

  Fixture plain;
  plain.collector.on_headers(200, "OK", "text/event-stream", 90);
  plain.collector.on_body(chunk(R"({"content":"hi"})") + kDone, 100, 0);
  plain.collector.finish(200);
  const auto turn = assistant_history_turn(plain.collector.content_text(),
                                           plain.collector.text_without_tool_arguments(),
                                           plain.collector.tool_calls());
  ASSERT_TRUE(turn.has_value());
  EXPECT_EQ(turn->role, "assistant");
  EXPECT_EQ(turn->text, "hi");
  EXPECT_EQ(turn->messages, nullptr);
}

// A request whose reply no later turn reads keeps neither its text without the tool arguments nor
// its tool calls; what the record and the metrics see is the same either way.
TEST(ResponseCollector, AReplyNotKeptLeavesTheRecordAsItIs) {
  const std::string body =
      chunk(R"({"content":"Let me look."})") +
      chunk(
          R"({"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"sh","arguments":"{}"}}]})",
          "\"tool_calls\"") +
      kDone;
  Fixture kept, dropped;
  dropped.collector.keep_reply(false);
  for (Fixture* f : {&kept, &dropped}) {
    f->collector.on_headers(200, "OK", "text/event-stream", 90);
    f->collector.on_body(body, 100, 0);
    f->collector.finish(200);
  }
  EXPECT_EQ(kept.collector.text_without_tool_arguments(), "Let me look.");
  EXPECT_EQ(kept.collector.tool_calls().size(), 1u);
  EXPECT_TRUE(dropped.collector.text_without_tool_arguments().empty());
  EXPECT_TRUE(dropped.collector.tool_calls().empty());
  EXPECT_EQ(dropped.collector.content_text(), kept.collector.content_text());
  ASSERT_EQ(dropped.record.content_events.size(), kept.record.content_events.size());
  for (std::size_t i = 0; i < kept.record.content_events.size(); ++i) {
    EXPECT_EQ(dropped.record.content_events[i].content, kept.record.content_events[i].content);
  }
  EXPECT_EQ(dropped.record.finish_reason, "tool_calls");
}

// Only a turn before its session's last, in a conversation whose live replies are threaded in,
// has its reply kept.
TEST(ResponseCollector, OnlyATurnWhoseReplyIsThreadedInKeepsIt) {
  using inferperf::dataset::ContextMode;
  inferperf::dataset::Dataset ds;
  ds.conversations.resize(3);
  ds.conversations[0].context_mode = ContextMode::kDeltasWithoutResponses;
  ds.conversations[1].context_mode = ContextMode::kDeltasWithResponses;
  ds.conversations[2].context_mode = ContextMode::kMessageArrayWithResponses;
  const auto turn = [](std::size_t conversation, int index, int turns) {
    inferperf::timing::Credit c;
    c.conversation_index = conversation;
    c.turn_index = index;
    c.num_turns = turns;
    return c;
  };
  using inferperf::worker::threads_reply;
  EXPECT_TRUE(threads_reply(ds, turn(0, 0, 3)));
  EXPECT_TRUE(threads_reply(ds, turn(0, 1, 3)));
  EXPECT_FALSE(threads_reply(ds, turn(0, 2, 3)));  // the last turn
  EXPECT_FALSE(threads_reply(ds, turn(0, 0, 1)));  // a single turn
  EXPECT_FALSE(threads_reply(ds, turn(1, 0, 3)));  // the file's replies are sent instead
  EXPECT_FALSE(threads_reply(ds, turn(2, 0, 3)));  // each turn a whole request
}

// AIPerf 0.11: the last chunk that carries usage gives every usage field; a field that chunk lacks
// is absent even though an earlier chunk sent it.
TEST(ResponseCollector, LastUsageChunkReplacesEarlierUsageWhole) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(
      R"(data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],"usage":{"prompt_tokens":10,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":8}}})"
      "\n\n",
      100, 0);
  f.collector.on_body(
      R"(data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}],"usage":null})"
      "\n\n"
      R"(data: {"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}})"
      "\n\ndata: [DONE]\n\n",
      200, 1);
  f.collector.finish(300);
  EXPECT_FALSE(f.record.error.has_value());
  EXPECT_EQ(f.record.usage.prompt_tokens, 10);
  EXPECT_EQ(f.record.usage.completion_tokens, 2);
  EXPECT_EQ(f.record.usage.total_tokens, 12);
  EXPECT_FALSE(f.record.usage.prompt_cache_read_tokens) << "the last usage object had none";
}

// Any 2xx is a success (AIPerf 0.7+): a 201 stream is decoded, not an error.
TEST(ResponseCollector, AnyTwoHundredStatusIsASuccess) {
  Fixture f;
  f.collector.on_headers(201, "Created", "text/event-stream", 90);
  f.collector.on_body(
      R"(data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]})"
      "\n\ndata: [DONE]\n\n",
      100, 0);
  f.collector.finish(200);
  EXPECT_FALSE(f.record.error.has_value());
  ASSERT_EQ(f.record.content_events.size(), 1u);
  EXPECT_EQ(f.record.content_events[0].content, "hi");
}

TEST(ResponseCollector, EventSplitAcrossReadsTakesTheCompletingRead) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  const std::string ev = chunk(R"({"content":"abc"})");
  f.collector.on_body(ev.substr(0, 20), 100, 0);
  EXPECT_TRUE(f.record.content_events.empty());
  f.collector.on_body(ev.substr(20), 150, 1);
  f.collector.finish(200);
  ASSERT_EQ(f.record.content_events.size(), 1u);
  expect_event(f.record.content_events[0], 150, 1, "abc", "");
}

TEST(ResponseCollector, OnlyRoleAndUsageLeavesNoContent) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(kRole + chunk(R"({"content":""})") + kUsage + kDone, 100, 0);
  f.collector.finish(200);
  EXPECT_TRUE(f.record.content_events.empty());
  EXPECT_FALSE(
      f.record.error.has_value());  // the worker turns this into InvalidInferenceResultError
  EXPECT_FALSE(f.record.valid());
  EXPECT_EQ(f.record.usage.completion_tokens, 3);
  EXPECT_EQ(f.record.events, 4u);
}

TEST(ResponseCollector, LeftoverMessageIsFlushedAtFinish) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  std::string last = chunk(R"({"content":"end"})");
  last.resize(last.size() - 2);  // no terminating blank line
  f.collector.on_body(last, 300, 4);
  EXPECT_TRUE(f.record.content_events.empty());
  f.collector.finish(999);
  ASSERT_EQ(f.record.content_events.size(), 1u);
  expect_event(f.record.content_events[0], 300, 4, "end", "");
}

TEST(ResponseCollector, SseErrorEventUsesTheComment) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(chunk(R"({"content":"a"})") + ": mock fault error-event\nevent: error\n" +
                          R"(data: {"error":{"message":"from data"}})" + "\n\n" +
                          chunk(R"({"content":"after"})"),
                      100, 0);
  EXPECT_FALSE(f.collector.wants_more());
  f.collector.finish(200);
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_EQ(f.record.error->code, 502);
  EXPECT_EQ(f.record.error->type.name(), "SSEResponseError");
  EXPECT_EQ(f.record.error->message, "mock fault error-event");
  ASSERT_EQ(f.record.content_events.size(), 1u);  // nothing after the error
  EXPECT_EQ(f.record.content_events[0].content, "a");
}

TEST(ResponseCollector, SseErrorEventWithoutCommentUsesTheData) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body("event: error\ndata: overloaded\n\n", 100, 0);
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_EQ(f.record.error->message, "overloaded");
}

TEST(ResponseCollector, MalformedChunkIsAParseError) {
  Fixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(R"(data: {"object": "chat.completion.chunk", "choices": [)"
                      "\n\n",
                      100, 0);
  EXPECT_FALSE(f.collector.wants_more());
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_FALSE(f.record.error->code.has_value());
  EXPECT_EQ(f.record.error->type.name(), "ResponseParseError");
  EXPECT_EQ(f.record.error->message.rfind("response is not a JSON object: ", 0), 0u)
      << f.record.error->message;
}

TEST(ResponseCollector, SseEventOverTheCapIsOneErrorNamingTheFlag) {
  Fixture f;
  f.collector.max_sse_event_bytes(4096);
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(kRole + chunk(R"({"content":"a"})"), 100, 0);
  EXPECT_TRUE(f.collector.wants_more());
  // One content event of 8 KiB, cut across two reads, and never ended.
  const std::string big = chunk(R"({"content":")" + std::string(8192, 'x') + R"("})");
  f.collector.on_body(big.substr(0, 3000), 110, 1);
  EXPECT_TRUE(f.collector.wants_more());
  f.collector.on_body(big.substr(3000), 120, 2);
  EXPECT_FALSE(f.collector.wants_more()) << "the exchange must stop and close the connection";
  f.collector.finish(130);
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_FALSE(f.record.error->code.has_value());
  EXPECT_EQ(f.record.error->type.name(), "SSEEventTooLargeError");
  EXPECT_EQ(f.record.error->message, "SSE event exceeded --max-sse-event-bytes (4.0 KiB)");
  ASSERT_EQ(f.record.content_events.size(), 1u);  // what came before is kept
  EXPECT_EQ(f.record.content_events[0].content, "a");
}

TEST(ResponseCollector, SseEventCapSurvivesARestart) {
  Fixture f;
  f.collector.max_sse_event_bytes(64);
  f.collector.restart();  // a video job poll starts a new exchange of the same request
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body("data: " + std::string(100, 'y'), 100, 0);
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_EQ(f.record.error->type.name(), "SSEEventTooLargeError");
}

TEST(ResponseCollector, HttpErrorStatusCarriesReasonAndBody) {
  Fixture f;
  f.collector.on_headers(500, "Internal Server Error", "application/json", 90);
  f.collector.on_body(R"({"detail":)", 100, 0);
  f.collector.on_body(R"("Simulated error"})", 110, 1);
  f.collector.finish(120);
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_EQ(f.record.status, 500);
  EXPECT_EQ(f.record.error->code, 500);
  EXPECT_EQ(f.record.error->type.name(), "Internal Server Error");
  EXPECT_EQ(f.record.error->message, R"({"detail":"Simulated error"})");
  EXPECT_TRUE(f.record.content_events.empty());
}

TEST(ResponseCollector, HttpErrorWithoutReasonOrBody) {
  Fixture f;
  f.collector.on_headers(404, "", "", 90);
  f.collector.finish(120);
  ASSERT_TRUE(f.record.error.has_value());
  EXPECT_EQ(f.record.error->code, 404);
  EXPECT_EQ(f.record.error->type.name(), "HTTPError");
  EXPECT_EQ(f.record.error->message, "HTTP 404");
}

TEST(ResponseCollector, NonStreamingBodyIsOneEventAtTheLastRead) {
  Fixture f;
  const std::string body =
      R"({"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"whole answer"},"finish_reason":"length"}],"usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}})";
  f.collector.on_headers(200, "OK", "application/json", 90);
  f.collector.on_body(body.substr(0, 30), 100, 0);
  f.collector.on_body(body.substr(30), 180, 1);
  f.collector.finish(200);
  const auto& r = f.record;
  EXPECT_FALSE(r.error.has_value());
  ASSERT_EQ(r.content_events.size(), 1u);
  expect_event(r.content_events[0], 180, 1, "whole answer", "");
  EXPECT_EQ(r.events, 1u);
  EXPECT_EQ(r.last_event_ns, 180);
  EXPECT_EQ(r.finish_reason, "length");
  EXPECT_EQ(r.usage.completion_tokens, 2);
}

TEST(ResponseCollector, ServerTimingsFromTheFinalChunk) {
  Fixture f;
  const auto with_timings = [](const std::string& finish, const std::string& timings) {
    return R"(data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},)"
           R"("finish_reason":)" +
           finish + "}],\"timings\":" + timings + "}\n\n";
  };
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(chunk(R"({"content":"a"})"), 100, 0);
  // An interim object (timings_per_token) is replaced whole by the final chunk's.
  f.collector.on_body(with_timings("null", R"({"prompt_ms":5,"prompt_n":3,"cache_n":1})"), 110, 1);
  f.collector.on_body(with_timings("\"stop\"", R"({"prompt_n":3,"prompt_ms":20.5,)"
                                               R"("predicted_n":1,"predicted_ms":90})") +
                          kDone,
                      200, 2);
  f.collector.finish(210);
  const auto& r = f.record;
  EXPECT_FALSE(r.error.has_value());
  ASSERT_EQ(r.content_events.size(), 1u);
  ASSERT_TRUE(r.server_timings.has_value());
  EXPECT_EQ(r.server_timings->source, "llama.cpp");
  EXPECT_EQ(r.server_timings->prefill_ms, 20.5);
  EXPECT_EQ(r.server_timings->decode_ms, 90.0);
  EXPECT_EQ(r.server_timings->prompt_tokens, 3);
  EXPECT_EQ(r.server_timings->predicted_tokens, 1);
  EXPECT_FALSE(r.server_timings->cached_tokens.has_value());
  EXPECT_EQ(r.finish_reason, "stop");
}

TEST(ResponseCollector, MalformedServerTimingsLeaveAGoodRecord) {
  Fixture f;
  const std::string body =
      R"({"object":"chat.completion","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}],)"
      R"("timings":{"prompt_ms":"soon","predicted_ms":90}})";
  f.collector.on_headers(200, "OK", "application/json", 90);
  f.collector.on_body(body, 150, 0);
  f.collector.finish(160);
  EXPECT_FALSE(f.record.error.has_value());
  EXPECT_TRUE(f.record.valid());
  EXPECT_FALSE(f.record.server_timings.has_value());
}

// --export-level raw: the collector also keeps the exchange as received in record.raw.
struct RawFixture {
  static RequestRecord with_raw() {
    RequestRecord r;
    r.raw = std::make_shared<RawExchange>();
    return r;
  }
  RawFixture() : endpoint(make_endpoint(EndpointType::kChat)), collector(*endpoint, record) {}
  std::unique_ptr<inferperf::endpoint::Endpoint> endpoint;
  RequestRecord record = with_raw();
  ResponseCollector collector;
};

using Fields = std::vector<std::pair<std::string, std::string>>;

TEST(ResponseCollectorRaw, StreamingKeepsEveryMessageWithItsRead) {
  RawFixture f;
  f.collector.on_header_fields("Content-Type: text/event-stream\nX-A: 1\nx-b: 2\nX-A: 3\n");
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  const std::string c = chunk(R"({"content":"Hel"})");
  f.collector.on_body(kRole + c.substr(0, 10), 100, 0);
  f.collector.on_body(c.substr(10) + ": ping\n\n", 200, 1);
  f.collector.on_body(kDone, 300, 2);
  f.collector.finish(400);
  f.collector.finish_raw(400);
  const RawExchange& raw = *f.record.raw;
  EXPECT_EQ(raw.response_headers,
            (Fields{{"Content-Type", "text/event-stream"}, {"X-A", "1, 3"}, {"x-b", "2"}}));
  ASSERT_EQ(raw.responses.size(), 4u);
  const std::vector<std::int64_t> stamps = {100, 200, 200, 300};
  for (std::size_t i = 0; i < stamps.size(); ++i) {
    EXPECT_EQ(raw.responses[i].perf_ns, stamps[i]) << i;
    EXPECT_FALSE(raw.responses[i].text.has_value()) << i;
  }
  EXPECT_EQ(raw.responses[0].packets, (Fields{{"data", kRole.substr(6, kRole.size() - 8)}}));
  EXPECT_EQ(raw.responses[1].packets, (Fields{{"data", c.substr(6, c.size() - 8)}}));
  EXPECT_EQ(raw.responses[2].packets, (Fields{{"comment", "ping"}}));
  EXPECT_EQ(raw.responses[3].packets, (Fields{{"data", "[DONE]"}}));
  ASSERT_EQ(f.record.content_events.size(), 1u);  // decoding is unchanged
}

TEST(ResponseCollectorRaw, SecretResponseHeadersAreRedacted) {
  RawFixture f;
  f.collector.on_header_fields(
      "Content-Type: application/json\nSet-Cookie: session=abc\nset-cookie: b=2\n"
      "X-Auth-Token: t\nX-RateLimit-Remaining-Tokens: 10\n");
  EXPECT_EQ(f.record.raw->response_headers, (Fields{{"Content-Type", "application/json"},
                                                    {"Set-Cookie", "<redacted>"},
                                                    {"set-cookie", "<redacted>"},
                                                    {"X-Auth-Token", "<redacted>"},
                                                    {"X-RateLimit-Remaining-Tokens", "10"}}));
}

TEST(ResponseCollectorRaw, MessagesAfterAnErrorEventAreStillKept) {
  RawFixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body("event: error\ndata: overloaded\n\n" + chunk(R"({"content":"x"})"), 100, 0);
  f.collector.finish_raw(200);
  ASSERT_TRUE(f.record.error.has_value());
  ASSERT_EQ(f.record.raw->responses.size(), 2u);
  EXPECT_EQ(f.record.raw->responses[0].packets,
            (Fields{{"event", "error"}, {"data", "overloaded"}}));
}

TEST(ResponseCollectorRaw, LeftoverMessageAtFinishTakesTheLastRead) {
  RawFixture f;
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body("data: end", 300, 4);
  f.collector.finish(999);
  f.collector.finish_raw(999);
  ASSERT_EQ(f.record.raw->responses.size(), 1u);
  EXPECT_EQ(f.record.raw->responses[0].perf_ns, 300);
  EXPECT_EQ(f.record.raw->responses[0].packets, (Fields{{"data", "end"}}));
}

TEST(ResponseCollectorRaw, ErrorBodyIsKeptWhole) {
  RawFixture f;
  const std::string big(100 * 1024, 'e');
  f.collector.on_headers(503, "Service Unavailable", "text/plain", 90);
  f.collector.on_body(big.substr(0, 5000), 100, 0);
  f.collector.on_body(big.substr(5000), 180, 1);
  f.collector.finish(200);
  f.collector.finish_raw(200);
  ASSERT_EQ(f.record.raw->responses.size(), 1u);
  const auto& resp = f.record.raw->responses[0];
  EXPECT_EQ(resp.perf_ns, 180);
  ASSERT_TRUE(resp.text.has_value());
  EXPECT_EQ(*resp.text, big);
  EXPECT_EQ(resp.content_type, "text/plain");
  EXPECT_TRUE(resp.packets.empty());
}

TEST(ResponseCollectorRaw, NonStreamingBodyAndEmptyBody) {
  RawFixture f;
  f.collector.on_headers(200, "OK", "application/json", 90);
  f.collector.on_body(R"({"choices":[{"message":{"content":"hi"}}]})", 150, 0);
  f.collector.finish(160);
  f.collector.finish_raw(160);
  ASSERT_EQ(f.record.raw->responses.size(), 1u);
  EXPECT_EQ(*f.record.raw->responses[0].text, R"({"choices":[{"message":{"content":"hi"}}]})");
  EXPECT_EQ(f.record.raw->responses[0].content_type, "application/json");

  RawFixture empty;
  empty.collector.on_headers(204, "No Content", "", 90);
  empty.collector.finish(95);
  empty.collector.finish_raw(95);
  ASSERT_EQ(empty.record.raw->responses.size(), 1u);
  EXPECT_EQ(empty.record.raw->responses[0].perf_ns, 90);  // the head's read
  EXPECT_EQ(*empty.record.raw->responses[0].text, "");
}

TEST(ResponseCollectorRaw, NoResponseNoEntries) {
  RawFixture f;
  f.collector.finish_raw(50);
  EXPECT_TRUE(f.record.raw->responses.empty());
}

TEST(ResponseCollectorRaw, NothingIsKeptWithoutRaw) {
  Fixture f;
  f.collector.on_header_fields("Content-Type: text/event-stream\n");
  f.collector.on_headers(200, "OK", "text/event-stream", 90);
  f.collector.on_body(chunk(R"({"content":"a"})") + kDone, 100, 0);
  f.collector.finish(200);
  f.collector.finish_raw(200);
  EXPECT_EQ(f.record.raw, nullptr);
  EXPECT_EQ(f.record.content_events.size(), 1u);
}

TEST(SerializeRequest, ExactBytes) {
  auto endpoint = make_endpoint(EndpointType::kChat);
  RequestPlan plan;
  inferperf::worker::Target target;
  target.url.host = "h";
  target.url.port = 8000;
  target.path = "/v1/chat/completions";
  plan.headers = {{"Authorization", "Bearer k"}};
  plan.streaming = true;
  plan.endpoint = endpoint.get();
  // The bytes of a streaming chat POST to h:8000 with these ids and body.
  const auto expected = [](const std::string& id, const std::string& corr,
                           const std::string& body) {
    return std::string(
               "POST /v1/chat/completions HTTP/1.1\r\nHost: h:8000\r\nUser-Agent: inferperf/") +
           inferperf::kVersion + "\r\nX-Request-ID: " + id + "\r\nX-Correlation-ID: " + corr +
           "\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\n"
           "Accept: text/event-stream\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  EXPECT_EQ(serialize_request(plan, target, "{\"a\":1}", "rid", "cid"),
            expected("rid", "cid", "{\"a\":1}"));
  // A head assembled once serves every request to its target: only the ids and body differ.
  const auto head = inferperf::worker::request_head(plan, target);
  EXPECT_EQ(serialize_request(plan, head, "[12]", "r2", "c2"), expected("r2", "c2", "[12]"));
  // A video job's poll: the same identity and user headers.
  EXPECT_EQ(inferperf::worker::serialize_get(plan, target, "/v1/videos/v1", "r3", "c3"),
            std::string("GET /v1/videos/v1 HTTP/1.1\r\nHost: h:8000\r\nUser-Agent: inferperf/") +
                inferperf::kVersion +
                "\r\nX-Request-ID: r3\r\nX-Correlation-ID: c3\r\nAuthorization: Bearer k\r\n"
                "Accept: application/json\r\n\r\n");
  // Through one head: another session header's name, an IPv6 host, and form bodies whose
  // boundary follows each request's id.
  plan.session_header = "X-Session";
  plan.headers.clear();
  plan.multipart = true;
  inferperf::worker::Target v6 = target;
  v6.url.host = "::1";
  const auto form_head = inferperf::worker::request_head(plan, v6);
  const std::string f1 = serialize_request(plan, form_head, R"({"prompt":"p"})", "AB-1", "s");
  const std::string f2 = serialize_request(plan, form_head, R"({"prompt":"p"})", "CD-2", "s");
  EXPECT_TRUE(f1.starts_with("POST /v1/chat/completions HTTP/1.1\r\nHost: [::1]:8000\r\n")) << f1;
  EXPECT_NE(f1.find("\r\nX-Request-ID: AB-1\r\nX-Session: s\r\nContent-Type: "
                    "multipart/form-data; boundary=inferperf-ab1\r\n"),
            std::string::npos)
      << f1;
  EXPECT_NE(f2.find("boundary=inferperf-cd2\r\n"), std::string::npos) << f2;
  EXPECT_EQ(f2.find("inferperf-ab1"), std::string::npos) << f2;
  plan.multipart = false;
  plan.session_header = "X-Correlation-ID";
  plan.streaming = false;
  target.url.port = 80;
  const std::string r = serialize_request(plan, target, "", "r", "c");
  EXPECT_NE(r.find("\r\nHost: h\r\n"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nAccept: application/json\r\n"), std::string::npos) << r;
  EXPECT_TRUE(r.ends_with("\r\nContent-Length: 0\r\n\r\n")) << r;
}

// Warmup bodies (AIPerf 0.11, #1040) are the profiling body plus the endpoint's warmup marker; the
// default (profiling) build is what run_inputs prebuilds, byte for byte.
TEST(BuildBodyText, WarmupBodyCarriesTheMarkerProfilingBodyDoesNot) {
  auto endpoint = make_endpoint(EndpointType::kChat);
  RequestPlan plan;
  plan.endpoint = endpoint.get();
  plan.body_options.model = "m";
  plan.body_options.system_message = "shared";
  inferperf::dataset::Conversation conv;
  conv.session_id = "s";
  inferperf::dataset::Turn t;
  t.text = "hi";
  const std::vector<inferperf::dataset::Turn> history = {t};
  const std::string profiling = inferperf::worker::build_body_text(plan, conv, history);
  EXPECT_EQ(profiling, inferperf::worker::build_body(plan, conv, history).dump());
  EXPECT_EQ(profiling.find("warmup"), std::string::npos) << profiling;
  const std::string warmup = inferperf::worker::build_body_text(plan, conv, history, true);
  auto expected = nlohmann::json::parse(profiling);
  expected["messages"][0]["content"] = "warmup\nshared";
  EXPECT_EQ(nlohmann::json::parse(warmup), expected) << warmup;

  auto completions = make_endpoint(EndpointType::kCompletions);
  plan.endpoint = completions.get();
  EXPECT_NE(inferperf::worker::build_body_text(plan, conv, history, true)
                .find(R"("prompt":["warmup\nhi"])"),
            std::string::npos);
  EXPECT_EQ(inferperf::worker::build_body_text(plan, conv, history).find("warmup"),
            std::string::npos);
}

}  // namespace
