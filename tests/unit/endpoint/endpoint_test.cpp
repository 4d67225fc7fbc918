// Endpoint bodies (exact key order), response decoding and path joining.
#include "endpoint/endpoint.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "endpoint/decode_util.hpp"
#include "endpoint/server_timings.hpp"

namespace {

using inferperf::config::EndpointType;
using inferperf::dataset::Turn;
using inferperf::endpoint::BodyOptions;
using inferperf::endpoint::DecodedEvent;
using inferperf::endpoint::join_path;
using inferperf::endpoint::make_endpoint;
using Kind = inferperf::endpoint::DecodedEvent::Kind;
using Extra = std::vector<std::pair<std::string, nlohmann::json>>;

Turn turn(std::string text, std::optional<int> max_tokens = std::nullopt) {
  Turn t;
  t.text = std::move(text);
  t.max_tokens = max_tokens;
  return t;
}

BodyOptions opts(bool streaming, bool include_usage, bool legacy, const Extra* extra = nullptr) {
  BodyOptions o;
  o.model = "m";
  o.streaming = streaming;
  o.include_usage = include_usage;
  o.use_legacy_max_tokens = legacy;
  o.extra = extra;
  return o;
}

TEST(ChatBody, DefaultFieldsAndKeyOrder) {
  auto ep = make_endpoint(EndpointType::kChat);
  EXPECT_EQ(ep->default_path(), "v1/chat/completions");
  EXPECT_EQ(ep->build_body({turn("hi", 32)}, opts(false, false, false)).dump(),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":false,"max_completion_tokens":32})");
}

TEST(ChatBody, LegacyMaxTokens) {
  auto ep = make_endpoint(EndpointType::kChat);
  EXPECT_EQ(ep->build_body({turn("hi", 32)}, opts(false, false, true)).dump(),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":false,"max_tokens":32})");
}

TEST(ChatBody, NoMaxTokensField) {
  auto ep = make_endpoint(EndpointType::kChat);
  EXPECT_EQ(ep->build_body({turn("hi")}, opts(true, false, false)).dump(),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":true})");
}

TEST(ChatBody, StreamOptionsOnlyWhenStreamingWithUsage) {
  auto ep = make_endpoint(EndpointType::kChat);
  EXPECT_EQ(ep->build_body({turn("hi", 8)}, opts(true, true, false)).dump(),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":true,"max_completion_tokens":8,"stream_options":{"include_usage":true}})");
  EXPECT_EQ(ep->build_body({turn("hi", 8)}, opts(false, true, false)).dump(),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":false,"max_completion_tokens":8})");
}

TEST(ChatBody, ExtraInputsMergeLastAndOverride) {
  auto ep = make_endpoint(EndpointType::kChat);
  const Extra extra = {{"ignore_eos", true}, {"max_completion_tokens", 7}, {"stream", false}};
  EXPECT_EQ(ep->build_body({turn("hi", 32)}, opts(true, true, false, &extra)).dump(),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":false,"max_completion_tokens":7,"stream_options":{"include_usage":true},)"
            R"("ignore_eos":true})");
}

TEST(ChatBody, EveryTurnOfTheHistoryIsAMessage) {
  auto ep = make_endpoint(EndpointType::kChat);
  Turn a = turn("q1", 5);
  Turn b = turn("a1");
  b.role = "assistant";
  Turn c = turn("q2", 9);
  const auto body = ep->build_body({a, b, c}, opts(false, false, false));
  EXPECT_EQ(body["messages"].dump(), R"([{"role":"user","name":"text","content":"q1"},)"
                                     R"({"role":"assistant","name":"text","content":"a1"},)"
                                     R"({"role":"user","name":"text","content":"q2"}])");
  EXPECT_EQ(body["max_completion_tokens"], 9);  // from the last turn
}

TEST(CompletionsBody, PromptListAndMaxTokens) {
  auto ep = make_endpoint(EndpointType::kCompletions);
  EXPECT_EQ(ep->default_path(), "v1/completions");
  EXPECT_EQ(ep->build_body({turn("hi", 32)}, opts(false, false, false)).dump(),
            R"({"prompt":["hi"],"model":"m","stream":false,"max_tokens":32})");
  // The legacy switch changes nothing for completions.
  EXPECT_EQ(ep->build_body({turn("hi", 32)}, opts(true, true, true)).dump(),
            R"({"prompt":["hi"],"model":"m","stream":true,"max_tokens":32,)"
            R"("stream_options":{"include_usage":true}})");
  EXPECT_EQ(ep->build_body({turn("hi")}, opts(false, false, false)).dump(),
            R"({"prompt":["hi"],"model":"m","stream":false})");
}

struct DecodeCase {
  const char* name;
  EndpointType type;
  std::string payload;
  Kind kind;
  std::string content;
  std::string reasoning;
  std::string finish_reason;
  std::string error_substring;  // for kError
};

const std::vector<DecodeCase> kDecodeCases = {
    {"chat_content", EndpointType::kChat,
     R"({"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]})",
     Kind::kData, "Hel", "", "", ""},
    {"chat_reasoning_content", EndpointType::kChat,
     R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":"think"}}]})",
     Kind::kData, "", "think", "", ""},
    {"chat_reasoning", EndpointType::kChat,
     R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning":"hmm"}}]})",
     Kind::kData, "", "hmm", "", ""},
    {"chat_role_only", EndpointType::kChat,
     R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})",
     Kind::kData, "", "", "", ""},
    {"chat_finish_reason", EndpointType::kChat,
     R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"."},"finish_reason":"stop"}]})",
     Kind::kData, ".", "", "stop", ""},
    {"chat_tool_call_arguments", EndpointType::kChat,
     R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x","tool_calls":[{"index":0,"function":{"name":"f","arguments":"{\"a\":"}},{"index":1,"function":{"arguments":"1}"}}]}}]})",
     Kind::kData, "x{\"a\":1}", "", "", ""},
    {"chat_non_streaming", EndpointType::kChat,
     R"({"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"full"},"finish_reason":"length"}]})",
     Kind::kData, "full", "", "length", ""},
    {"chat_wrong_object", EndpointType::kChat,
     R"({"object":"text_completion","choices":[{"text":"x"}]})", Kind::kError, "", "", "",
     "unexpected chat response object 'text_completion'"},
    {"chat_invalid_json", EndpointType::kChat, "{oops", Kind::kError, "", "", "",
     "response is not a JSON object"},
    {"chat_json_array", EndpointType::kChat, "[1,2]", Kind::kError, "", "", "",
     "response is not a JSON object"},
    {"chat_error_object", EndpointType::kChat,
     R"({"error":{"message":"model overloaded","type":"ServiceUnavailable","code":503}})",
     Kind::kError, "", "", "", "model overloaded"},
    {"chat_error_string", EndpointType::kChat, R"({"error":"plain failure"})", Kind::kError, "", "",
     "", "plain failure"},
    {"chat_detail", EndpointType::kChat, R"({"detail":"Not Found"})", Kind::kError, "", "", "",
     "Not Found"},
    {"completions_text", EndpointType::kCompletions,
     R"({"id":"x","object":"text_completion","choices":[{"index":0,"text":" world","finish_reason":null}]})",
     Kind::kData, " world", "", "", ""},
    {"completions_finish", EndpointType::kCompletions,
     R"({"object":"text_completion","choices":[{"index":0,"text":"!","finish_reason":"length"}]})",
     Kind::kData, "!", "", "length", ""},
    {"completions_rejects_chat", EndpointType::kCompletions,
     R"({"object":"chat.completion.chunk","choices":[]})", Kind::kError, "", "", "",
     "unexpected completions response object 'chat.completion.chunk'"},
    {"completions_error_object", EndpointType::kCompletions,
     R"({"error":{"message":"bad prompt"}})", Kind::kError, "", "", "", "bad prompt"},
};

class DecodeTest : public ::testing::TestWithParam<DecodeCase> {};

TEST_P(DecodeTest, Decodes) {
  const auto& c = GetParam();
  auto ep = make_endpoint(c.type);
  const DecodedEvent d = ep->decode(c.payload);
  ASSERT_EQ(d.kind, c.kind) << d.error_message;
  EXPECT_EQ(d.content, c.content);
  EXPECT_EQ(d.reasoning, c.reasoning);
  EXPECT_EQ(d.finish_reason, c.finish_reason);
  if (c.kind == Kind::kError) {
    EXPECT_NE(d.error_message.find(c.error_substring), std::string::npos) << d.error_message;
  } else {
    EXPECT_EQ(d.error_message, "");
  }
}

INSTANTIATE_TEST_SUITE_P(Payloads, DecodeTest, ::testing::ValuesIn(kDecodeCases),
                         [](const auto& tpi) { return std::string(tpi.param.name); });

TEST(Decode, ErrorObjectCarriesExactMessage) {
  auto ep = make_endpoint(EndpointType::kChat);
  const DecodedEvent d = ep->decode(R"({"error":{"message":"model overloaded"}})");
  EXPECT_EQ(d.kind, Kind::kError);
  EXPECT_EQ(d.error_message, "model overloaded");
}

TEST(Decode, UsageOnlyChunk) {
  auto ep = make_endpoint(EndpointType::kChat);
  const DecodedEvent d = ep->decode(
      R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":5,)"
      R"("completion_tokens":7,"total_tokens":12,"completion_tokens_details":{"reasoning_tokens":2}}})");
  ASSERT_EQ(d.kind, Kind::kData);
  EXPECT_EQ(d.content, "");
  EXPECT_EQ(d.reasoning, "");
  ASSERT_TRUE(d.usage.has_value());
  EXPECT_EQ(d.usage->prompt_tokens, 5);
  EXPECT_EQ(d.usage->completion_tokens, 7);
  EXPECT_EQ(d.usage->total_tokens, 12);
  EXPECT_EQ(d.usage->reasoning_tokens, 2);
}

TEST(Decode, NullUsageIsAbsent) {
  auto ep = make_endpoint(EndpointType::kChat);
  const DecodedEvent a = ep->decode(
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a"}}],"usage":null})");
  EXPECT_FALSE(a.usage.has_value());
  const DecodedEvent b = ep->decode(
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a"}}],"usage":{"prompt_tokens":3}})");
  ASSERT_TRUE(b.usage.has_value());
  EXPECT_EQ(b.usage->prompt_tokens, 3);
  EXPECT_FALSE(b.usage->completion_tokens.has_value());
  EXPECT_FALSE(b.usage->reasoning_tokens.has_value());
}

// AIPerf 0.11 usage shapes (spec delta 3.3), as each vendor sends them.
std::optional<inferperf::endpoint::Usage> usage_of(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::object obj;
  DecodedEvent out;
  if (!inferperf::endpoint::parse_object(json, parser, obj, out)) return std::nullopt;
  inferperf::endpoint::read_usage(obj, out);
  return out.usage;
}

TEST(Usage, OpenAiDetails) {
  const auto u = usage_of(
      R"({"id":"c","object":"chat.completion","choices":[],"usage":{"prompt_tokens":1200,)"
      R"("completion_tokens":300,"total_tokens":1500,"prompt_tokens_details":{"cached_tokens":1024,)"
      R"("audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":128,"audio_tokens":7,)"
      R"("accepted_prediction_tokens":40,"rejected_prediction_tokens":3}}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 1200);
  EXPECT_EQ(u->completion_tokens, 300);
  EXPECT_EQ(u->total_tokens, 1500);
  EXPECT_EQ(u->reasoning_tokens, 128);
  EXPECT_EQ(u->prompt_cache_read_tokens, 1024);
  EXPECT_EQ(u->prompt_audio_tokens, 0);
  EXPECT_EQ(u->completion_audio_tokens, 7);
  EXPECT_EQ(u->accepted_prediction_tokens, 40);
  EXPECT_EQ(u->rejected_prediction_tokens, 3);
  EXPECT_FALSE(u->prompt_cache_write_tokens);
  EXPECT_FALSE(u->prompt_cache_miss_tokens);
  EXPECT_FALSE(u->tool_use_prompt_tokens);
  EXPECT_FALSE(u->prompt_audio_seconds);
}

TEST(Usage, AnthropicCacheFields) {
  auto ep = make_endpoint(EndpointType::kMessages);
  const DecodedEvent d = ep->decode(
      R"({"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[)"
      R"({"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":21,)"
      R"("cache_creation_input_tokens":188086,"cache_read_input_tokens":5,"output_tokens":393}})");
  ASSERT_TRUE(d.usage);
  EXPECT_EQ(d.usage->prompt_tokens, 21);
  EXPECT_EQ(d.usage->completion_tokens, 393);
  EXPECT_EQ(d.usage->prompt_cache_read_tokens, 5);
  EXPECT_EQ(d.usage->prompt_cache_write_tokens, 188086);
  EXPECT_FALSE(d.usage->total_tokens);
}

TEST(Usage, GeminiUsageMetadata) {
  const auto u = usage_of(
      R"({"candidates":[{"content":{"parts":[{"text":"x"}],"role":"model"}}],"usageMetadata":{)"
      R"("promptTokenCount":2000,"candidatesTokenCount":50,"totalTokenCount":2110,)"
      R"("thoughtsTokenCount":60,"cachedContentTokenCount":1500,"toolUsePromptTokenCount":12}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 2000);
  EXPECT_EQ(u->completion_tokens, 50);
  EXPECT_EQ(u->total_tokens, 2110);
  EXPECT_EQ(u->reasoning_tokens, 60);
  EXPECT_EQ(u->prompt_cache_read_tokens, 1500);
  EXPECT_EQ(u->tool_use_prompt_tokens, 12);
}

TEST(Usage, DeepSeekHitAndMiss) {
  const auto u =
      usage_of(R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":100,)"
               R"("completion_tokens":9,"total_tokens":109,"prompt_cache_hit_tokens":64,)"
               R"("prompt_cache_miss_tokens":36}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_cache_read_tokens, 64);
  EXPECT_EQ(u->prompt_cache_miss_tokens, 36);
}

TEST(Usage, CohereTokensAndOtherSynonyms) {
  // Cohere v1 `meta.tokens`, v2 `usage.tokens`; the billed units are not the counts.
  auto u = usage_of(R"({"text":"x","meta":{"billed_units":{"input_tokens":1,"output_tokens":2},)"
                    R"("tokens":{"input_tokens":11,"output_tokens":22}}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 11);
  EXPECT_EQ(u->completion_tokens, 22);
  u = usage_of(R"({"usage":{"billed_units":{"input_tokens":1},"tokens":{"input_tokens":5,)"
               R"("output_tokens":6}}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 5);
  EXPECT_EQ(u->completion_tokens, 6);
  // Bedrock-style camelCase, IBM-style names, audio seconds and a top-level cached_tokens.
  u = usage_of(
      R"({"usage":{"inputTokens":7,"outputTokens":8,"totalTokens":15,)"
      R"("cacheReadInputTokens":4,"cacheWriteInputTokens":3,"prompt_audio_seconds":2.5}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 7);
  EXPECT_EQ(u->completion_tokens, 8);
  EXPECT_EQ(u->total_tokens, 15);
  EXPECT_EQ(u->prompt_cache_read_tokens, 4);
  EXPECT_EQ(u->prompt_cache_write_tokens, 3);
  EXPECT_EQ(u->prompt_audio_seconds, 2.5);
  u = usage_of(R"({"usage":{"input_token_count":3,"generated_token_count":4,"cached_tokens":2}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 3);
  EXPECT_EQ(u->completion_tokens, 4);
  EXPECT_EQ(u->prompt_cache_read_tokens, 2);
  // First present wins: the details' cached_tokens before a top-level one; null is absent.
  u = usage_of(R"({"usage":{"prompt_tokens":null,"input_tokens":9,"cached_tokens":1,)"
               R"("prompt_tokens_details":{"cached_tokens":6}}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 9);
  EXPECT_EQ(u->prompt_cache_read_tokens, 6);
  EXPECT_FALSE(usage_of(R"({"usage":{"unknown":1}})")) << "no known count: no usage";
}

// The usage object's members are read once into a small array (24 of them; more fall back to
// simdjson's lookup): the first member of a name wins as simdjson's lookup finds it, whether it
// is a count or not, on both sides of that limit, escaped names included.
TEST(Usage, MemberLookupMatchesTheObjectsOwnOnBothSidesOfItsLimit) {
  for (int filler : {0, 22, 23, 24, 40}) {
    std::string body = R"({"usage":{)";
    for (int i = 0; i < filler; ++i)
      body += "\"x" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    // A first prompt_tokens that is not a count hides a later one (as at_key finds the first);
    // the next vendor name is taken instead.
    body += R"("prompt_tokens":null,"prompt_tokens":5,"input_tokens":9,)";
    body += R"("completion\u005ftokens":7,"total_tokens":16.0}})";
    const auto u = usage_of(body);
    ASSERT_TRUE(u) << filler;
    EXPECT_EQ(u->prompt_tokens, 9) << filler;
    EXPECT_EQ(u->completion_tokens, 7) << filler;  // the escaped name is the same name
    EXPECT_EQ(u->total_tokens, 16) << filler;
  }
  // A usageMetadata envelope inside usage, with Cohere's tokens object inside it.
  const auto u = usage_of(R"({"usage":{"usageMetadata":{"tokens":{"input_tokens":3},)"
                          R"("output_tokens":4}}})");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->prompt_tokens, 3);
  EXPECT_EQ(u->completion_tokens, 4);
}

// Each chunk's usage stands alone (the collector keeps the last one whole): a later usage chunk
// without cached_tokens decodes without it.
TEST(Usage, EachStreamChunkDecodesOnlyItsOwnUsage) {
  auto ep = make_endpoint(EndpointType::kChat);
  const DecodedEvent first = ep->decode(
      R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"}}],)"
      R"("usage":{"prompt_tokens":10,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":8}}})");
  const DecodedEvent last =
      ep->decode(R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":10,)"
                 R"("completion_tokens":5,"total_tokens":15}})");
  ASSERT_TRUE(first.usage && last.usage);
  EXPECT_EQ(first.usage->prompt_cache_read_tokens, 8);
  EXPECT_FALSE(last.usage->prompt_cache_read_tokens);
  EXPECT_EQ(last.usage->completion_tokens, 5);
}

TEST(Decode, CompletionsUsage) {
  auto ep = make_endpoint(EndpointType::kCompletions);
  const DecodedEvent d = ep->decode(
      R"({"object":"text_completion","choices":[{"text":"done"}],"usage":{"prompt_tokens":4,"completion_tokens":9,"total_tokens":13}})");
  ASSERT_EQ(d.kind, Kind::kData);
  EXPECT_EQ(d.content, "done");
  ASSERT_TRUE(d.usage.has_value());
  EXPECT_EQ(d.usage->completion_tokens, 9);
  EXPECT_EQ(d.usage->total_tokens, 13);
}

// llama.cpp's server adds a top-level "timings" object to a non-streaming body and to the final
// chunk of a stream.
constexpr const char* kLlamaTimings =
    R"("timings":{"cache_n":3,"prompt_n":12,"prompt_ms":20.5,"prompt_per_token_ms":1.708,)"
    R"("prompt_per_second":585.3,"predicted_n":7,"predicted_ms":90,"predicted_per_token_ms":12.86,)"
    R"("predicted_per_second":77.7})";

TEST(ServerTimings, StreamingFinalChunk) {
  auto ep = make_endpoint(EndpointType::kChat);
  const DecodedEvent mid =
      ep->decode(R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a"}}]})");
  EXPECT_FALSE(mid.server_timings.has_value());
  const DecodedEvent last = ep->decode(
      std::string(R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},)"
                  R"("finish_reason":"stop"}],)") +
      kLlamaTimings + "}");
  ASSERT_EQ(last.kind, Kind::kData);
  EXPECT_EQ(last.finish_reason, "stop");
  ASSERT_TRUE(last.server_timings.has_value());
  const auto& t = *last.server_timings;
  EXPECT_EQ(t.source, "llama.cpp");
  EXPECT_DOUBLE_EQ(t.prefill_ms.value_or(-1), 20.5);
  EXPECT_DOUBLE_EQ(t.decode_ms.value_or(-1), 90.0);  // an integer in JSON is still milliseconds
  EXPECT_EQ(t.prompt_tokens, 12);
  EXPECT_EQ(t.predicted_tokens, 7);
  EXPECT_EQ(t.cached_tokens, 3);
}

TEST(ServerTimings, NonStreamingBodies) {
  const DecodedEvent chat = make_endpoint(EndpointType::kChat)
                                ->decode(std::string(R"({"object":"chat.completion","choices":[)"
                                                     R"({"message":{"content":"full"}}],)") +
                                         kLlamaTimings + "}");
  ASSERT_EQ(chat.kind, Kind::kData);
  EXPECT_EQ(chat.content, "full");
  ASSERT_TRUE(chat.server_timings.has_value());
  EXPECT_DOUBLE_EQ(chat.server_timings->prefill_ms.value_or(-1), 20.5);
  const DecodedEvent text =
      make_endpoint(EndpointType::kCompletions)
          ->decode(
              std::string(R"({"object":"text_completion","choices":[{"text":"t"}],)") +
              R"("timings":{"prompt_n":4,"prompt_ms":1.25,"predicted_n":2,"predicted_ms":3.5}})");
  ASSERT_EQ(text.kind, Kind::kData);
  ASSERT_TRUE(text.server_timings.has_value());
  EXPECT_DOUBLE_EQ(text.server_timings->decode_ms.value_or(-1), 3.5);
  EXPECT_EQ(text.server_timings->predicted_tokens, 2);
  EXPECT_FALSE(text.server_timings->cached_tokens.has_value());
}

TEST(ServerTimings, AbsentOrNullIsNullopt) {
  auto ep = make_endpoint(EndpointType::kChat);
  for (const char* payload : {
           R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}]})",
           R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],"timings":null})",
           R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],"timings":{}})",
       }) {
    const DecodedEvent d = ep->decode(payload);
    ASSERT_EQ(d.kind, Kind::kData) << payload;
    EXPECT_FALSE(d.server_timings.has_value()) << payload;
  }
}

TEST(ServerTimings, MalformedTimingsAreIgnoredAndTheResponseStaysGood) {
  auto ep = make_endpoint(EndpointType::kChat);
  for (const char* timings : {
           R"("timings":"fast")", R"("timings":[20,90])",
           R"("timings":{"prompt_ms":"20","predicted_ms":90})",
           R"("timings":{"prompt_ms":20,"predicted_ms":{"ms":90}})",
           R"("timings":{"prompt_ms":20,"predicted_ms":90,"predicted_n":7.5})",
           R"("timings":{"prompt_ms":20,"predicted_ms":90,"prompt_n":"12"})",
           R"("timings":{"prompt_ms":-1,"predicted_ms":90})",
           R"("timings":{"prompt_ms":true,"predicted_ms":90})",
           R"("timings":{"prompt_n":12,"predicted_n":7})",  // no times at all
       }) {
    const std::string payload =
        std::string(R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a"},)") +
        R"("finish_reason":"stop"}],)" + timings + "}";
    const DecodedEvent d = ep->decode(payload);
    ASSERT_EQ(d.kind, Kind::kData) << payload;
    EXPECT_EQ(d.content, "a") << payload;
    EXPECT_EQ(d.finish_reason, "stop") << payload;
    EXPECT_FALSE(d.server_timings.has_value()) << payload;
  }
}

TEST(ServerTimings, OneTimeFieldIsEnough) {
  auto ep = make_endpoint(EndpointType::kChat);
  const DecodedEvent d = ep->decode(
      R"({"object":"chat.completion","choices":[],"timings":{"prompt_ms":4.0,"predicted_ms":null}})");
  ASSERT_TRUE(d.server_timings.has_value());
  EXPECT_DOUBLE_EQ(d.server_timings->prefill_ms.value_or(-1), 4.0);
  EXPECT_FALSE(d.server_timings->decode_ms.has_value());
}

TEST(ServerTimings, RegistryStartsWithLlamaCpp) {
  const auto& decoders = inferperf::endpoint::server_timings_decoders();
  ASSERT_FALSE(decoders.empty());
  EXPECT_EQ(decoders.front().name, "llama.cpp");
}

struct JoinCase {
  const char* base;
  const char* custom;
  const char* def;
  const char* expected;
};

TEST(JoinPath, Table) {
  const std::vector<JoinCase> table = {
      {"/v1", "", "v1/chat/completions", "/v1/chat/completions"},
      {"", "", "v1/chat/completions", "/v1/chat/completions"},
      {"", "", "v1/completions", "/v1/completions"},
      {"", "/foo", "v1/chat/completions", "/foo"},
      {"", "foo/bar", "v1/chat/completions", "/foo/bar"},
      {"/v1", "/foo", "v1/chat/completions", "/v1/foo"},
      {"/v1/", "v1/completions", "v1/chat/completions", "/v1/completions"},
      {"/api", "", "v1/completions", "/api/v1/completions"},
      {"/x/v1", "/v1/chat/completions", "v1/completions", "/x/v1/chat/completions"},
      {"/v10", "", "v1/chat/completions", "/v10/v1/chat/completions"},
  };
  for (const auto& c : table) {
    EXPECT_EQ(join_path(c.base, c.custom, c.def), c.expected)
        << "base '" << c.base << "' custom '" << c.custom << "'";
  }
}

}  // namespace
