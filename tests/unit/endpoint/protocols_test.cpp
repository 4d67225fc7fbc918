// Request bodies (golden JSON written from docs/endpoints.md, Request bodies) and response decoding
// for every endpoint besides chat and completions, on responses written by hand in the formats of
// vLLM, SGLang, Hugging Face TGI/TEI, llama.cpp, OpenAI, Cohere, NIM and Anthropic.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "endpoint/endpoint.hpp"
#include "endpoint/template_render.hpp"

namespace {

using inferperf::config::EndpointType;
using inferperf::dataset::MediaItem;
using inferperf::dataset::Turn;
using inferperf::endpoint::BodyOptions;
using inferperf::endpoint::create_endpoint;
using inferperf::endpoint::DecodedEvent;
using inferperf::endpoint::endpoint_info;
using inferperf::endpoint::make_endpoint;
using inferperf::endpoint::PayloadTemplate;
using inferperf::endpoint::protocol_headers;
using Kind = inferperf::endpoint::DecodedEvent::Kind;
using Extra = std::vector<std::pair<std::string, nlohmann::json>>;

Turn protocol_turn(std::string text, std::optional<int> max_tokens = std::nullopt) {
  Turn t;
  t.text = std::move(text);
  t.max_tokens = max_tokens;
  return t;
}

BodyOptions opts(bool streaming = false, const Extra* extra = nullptr) {
  BodyOptions o;
  o.model = "m";
  o.streaming = streaming;
  o.extra = extra;
  return o;
}

std::string body(EndpointType type, const std::vector<Turn>& history, const BodyOptions& o) {
  return make_endpoint(type)->build_body(history, o).dump();
}

DecodedEvent decode(EndpointType type, std::string_view payload) {
  return make_endpoint(type)->decode(payload);
}

// ---- the endpoint table ------------------------------------------------------------------------

TEST(EndpointTable, PathsAndMetricGates) {
  EXPECT_EQ(make_endpoint(EndpointType::kEmbeddings)->path(false), "v1/embeddings");
  EXPECT_EQ(make_endpoint(EndpointType::kNimRankings)->path(false), "v1/ranking");
  EXPECT_EQ(make_endpoint(EndpointType::kHfTeiRankings)->path(false), "rerank");
  EXPECT_EQ(make_endpoint(EndpointType::kCohereRankings)->path(false), "v2/rerank");
  EXPECT_EQ(make_endpoint(EndpointType::kHuggingfaceGenerate)->path(false), "generate");
  EXPECT_EQ(make_endpoint(EndpointType::kHuggingfaceGenerate)->path(true), "generate_stream");
  EXPECT_EQ(make_endpoint(EndpointType::kImageGeneration)->path(true), "v1/images/generations");
  EXPECT_EQ(make_endpoint(EndpointType::kImageRetrieval)->path(false), "v1/infer");
  EXPECT_EQ(make_endpoint(EndpointType::kVideoGeneration)->path(false), "v1/videos");
  EXPECT_EQ(make_endpoint(EndpointType::kSolidoRag)->path(false), "rag/api/prompt");
  EXPECT_EQ(make_endpoint(EndpointType::kResponses)->path(true), "v1/responses");
  EXPECT_EQ(make_endpoint(EndpointType::kMessages)->path(true), "v1/messages");
  EXPECT_EQ(std::string(endpoint_info(EndpointType::kTemplate).path), "");

  EXPECT_FALSE(endpoint_info(EndpointType::kEmbeddings).produces_tokens);
  EXPECT_TRUE(endpoint_info(EndpointType::kEmbeddings).tokenizes_input);
  EXPECT_FALSE(endpoint_info(EndpointType::kImageRetrieval).tokenizes_input);
  EXPECT_FALSE(endpoint_info(EndpointType::kImageGeneration).produces_tokens);
  EXPECT_TRUE(endpoint_info(EndpointType::kImageGeneration).streams);
  EXPECT_FALSE(endpoint_info(EndpointType::kVideoGeneration).streams);
  EXPECT_TRUE(endpoint_info(EndpointType::kMessages).produces_tokens);
  EXPECT_EQ(std::string(endpoint_info(EndpointType::kNimEmbeddings).title),
            "NIM Embeddings Metrics");
  // The enum, the names and the table agree.
  for (std::size_t i = 0; i < inferperf::config::endpoint_type_names().size(); ++i) {
    const auto type = static_cast<EndpointType>(i);
    EXPECT_EQ(std::string(endpoint_info(type).name), inferperf::config::to_string(type));
    EXPECT_EQ(endpoint_info(type).type, type);
  }
}

TEST(ProtocolHeaders, BearerByDefaultAnthropicForMessages) {
  using H = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(protocol_headers(EndpointType::kChat, "k", {}), (H{{"Authorization", "Bearer k"}}));
  EXPECT_TRUE(protocol_headers(EndpointType::kChat, "", {}).empty());
  EXPECT_EQ(protocol_headers(EndpointType::kMessages, "k", {}),
            (H{{"x-api-key", "k"}, {"anthropic-version", "2023-06-01"}}));
  // The user's own version header wins (case-insensitive).
  EXPECT_EQ(protocol_headers(EndpointType::kMessages, "", {{"Anthropic-Version", "2024-01-01"}}),
            H{});
  // An Authorization header given with -H replaces the one --api-key would add.
  EXPECT_EQ(protocol_headers(EndpointType::kChat, "k", {{"authorization", "Basic x"}}), H{});
}

// ---- bodies
// ---------------------------------------------------------------------------------------

TEST(Bodies, Embeddings) {
  Turn t = protocol_turn("a", 32);  // max tokens mean nothing to an embedder
  t.more_texts = {"b"};
  const Extra extra = {{"encoding_format", "float"}};
  EXPECT_EQ(body(EndpointType::kEmbeddings, {t}, opts(false, &extra)),
            R"({"model":"m","input":["a","b"],"encoding_format":"float"})");
}

TEST(Bodies, ChatEmbeddingsIsAChatBody) {
  EXPECT_EQ(body(EndpointType::kChatEmbeddings, {protocol_turn("hi")}, opts()),
            R"({"messages":[{"role":"user","name":"text","content":"hi"}],"model":"m",)"
            R"("stream":false})");
}

TEST(Bodies, NimEmbeddingsPairsTextsWithImages) {
  Turn t = protocol_turn("cat");
  t.media.push_back(MediaItem{MediaItem::Kind::kImage, "data:image/png;base64,AAA", "", "", ""});
  EXPECT_EQ(body(EndpointType::kNimEmbeddings, {t}, opts()),
            R"({"model":"m","input":["cat data:image/png;base64,AAA"]})");
  Turn images_only;
  images_only.media = t.media;
  EXPECT_EQ(body(EndpointType::kNimEmbeddings, {images_only}, opts()),
            R"({"model":"m","input":["data:image/png;base64,AAA"]})");
}

TEST(Bodies, Rankings) {
  Turn t = protocol_turn("what is x");
  t.passages = {"p1", "p2"};
  EXPECT_EQ(
      body(EndpointType::kNimRankings, {t}, opts()),
      R"({"model":"m","query":{"text":"what is x"},"passages":[{"text":"p1"},{"text":"p2"}]})");
  EXPECT_EQ(body(EndpointType::kHfTeiRankings, {t}, opts()),
            R"({"query":"what is x","texts":["p1","p2"]})");
  EXPECT_EQ(body(EndpointType::kCohereRankings, {t}, opts()),
            R"({"model":"m","query":"what is x","documents":["p1","p2"]})");
}

TEST(Bodies, HuggingfaceGenerateExtraInputsGoIntoParameters) {
  Turn t = protocol_turn("hello", 20);
  t.more_texts = {"world"};
  const Extra extra = {{"temperature", 0.5}};
  EXPECT_EQ(body(EndpointType::kHuggingfaceGenerate, {t}, opts(true, &extra)),
            R"({"inputs":"hello world","parameters":{"max_new_tokens":20,"temperature":0.5}})");
}

TEST(Bodies, ImageGeneration) {
  EXPECT_EQ(body(EndpointType::kImageGeneration, {protocol_turn("a red fox", 10)}, opts()),
            R"({"prompt":"a red fox","model":"m","response_format":"b64_json","n":1})");
  EXPECT_EQ(body(EndpointType::kImageGeneration, {protocol_turn("a red fox")}, opts(true)),
            R"({"prompt":"a red fox","model":"m","response_format":"b64_json","n":1,)"
            R"("stream":true})");
}

TEST(Bodies, ImageRetrievalSendsImagesOnly) {
  Turn t = protocol_turn("ignored");
  t.media.push_back(MediaItem{MediaItem::Kind::kImage, "data:image/png;base64,AAA", "", "", ""});
  t.media.push_back(MediaItem{MediaItem::Kind::kImage, "data:image/png;base64,BBB", "", "", ""});
  EXPECT_EQ(body(EndpointType::kImageRetrieval, {t}, opts()),
            R"({"input":[{"type":"image_url","url":"data:image/png;base64,AAA"},)"
            R"({"type":"image_url","url":"data:image/png;base64,BBB"}]})");
}

TEST(Bodies, VideoGenerationAndSolidoRag) {
  const Extra extra = {{"seconds", "4"}};
  EXPECT_EQ(body(EndpointType::kVideoGeneration, {protocol_turn("waves")}, opts(false, &extra)),
            R"({"prompt":"waves","model":"m","seconds":"4"})");
  EXPECT_EQ(body(EndpointType::kSolidoRag, {protocol_turn("q")}, opts()),
            R"({"query":["q"],"filters":{"family":"Solido","tool":"SDE"},"inference_model":"m"})");
}

TEST(Bodies, ResponsesInputItemsInstructionsAndLimit) {
  Turn a = protocol_turn("q1");
  Turn b = protocol_turn("a1");
  b.role = "assistant";
  Turn c = protocol_turn("q2", 64);
  c.media.push_back(MediaItem{MediaItem::Kind::kImage, "https://x/y.png", "", "", ""});
  BodyOptions o = opts(true);
  o.system_message = "be brief";
  EXPECT_EQ(
      body(EndpointType::kResponses, {a, b, c}, o),
      R"({"input":[)"
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"q1"}]},)"
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"a1"}]},)"
      R"({"type":"message","role":"user","content":[{"type":"input_text","text":"q2"},)"
      R"({"type":"input_image","image_url":"https://x/y.png"}]}],)"
      R"("model":"m","stream":true,"instructions":"be brief","max_output_tokens":64})");
}

TEST(Bodies, MessagesNeedMaxTokensAndTakeSystemAsAField) {
  BodyOptions o = opts(true);
  o.system_message = "sys";
  EXPECT_EQ(body(EndpointType::kMessages, {protocol_turn("hi", 12)}, o),
            R"({"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":12,)"
            R"("system":"sys","stream":true})");
  // No output length in the dataset: Anthropic still needs one.
  EXPECT_EQ(body(EndpointType::kMessages, {protocol_turn("hi")}, opts()),
            R"({"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":4096,)"
            R"("stream":false})");
  Turn img = protocol_turn("what is this");
  img.media.push_back(MediaItem{MediaItem::Kind::kImage, "data:image/png;base64,QUJD", "", "", ""});
  EXPECT_EQ(
      make_endpoint(EndpointType::kMessages)->build_body({img}, opts())["messages"].dump(),
      R"([{"role":"user","content":[{"type":"text","text":"what is this"},)"
      R"({"type":"image","source":{"type":"base64","media_type":"image/png","data":"QUJD"}}]}])");
}

// ---- templates ----------------------------------------------------------------------------------

TEST(Template, NamedTemplateRendersTexts) {
  const Extra extra = {{"payload_template", "nv-embedqa"}, {"input_type", "query"}};
  auto ep = create_endpoint(EndpointType::kTemplate, extra);
  ASSERT_TRUE(ep) << ep.error().message;
  Turn t = protocol_turn("say \"hi\"");
  EXPECT_EQ((*ep)->build_body({t}, opts()).dump(),
            R"({"text":["say \"hi\""],"input_type":"query"})");
}

TEST(Template, InlineTemplateWithVariables) {
  const Extra extra = {
      {"payload_template",
       R"({"q": {{ text|tojson }}, "m": "{{ model }}", "n": {{ max_tokens }}, "first": {{ texts[0]|tojson }}})"}};
  auto ep = create_endpoint(EndpointType::kTemplate, extra);
  ASSERT_TRUE(ep) << ep.error().message;
  EXPECT_EQ((*ep)->build_body({protocol_turn("x", 5)}, opts()).dump(),
            R"({"q":"x","m":"m","n":5,"first":"x"})");
}

TEST(Template, BadTemplatesFailAtStartUp) {
  EXPECT_FALSE(create_endpoint(EndpointType::kTemplate, {}));  // no payload_template
  EXPECT_FALSE(create_endpoint(EndpointType::kTemplate, {{"payload_template", "no-such-name"}}));
  auto statements = create_endpoint(EndpointType::kTemplate,
                                    {{"payload_template", "{% for x in texts %}{% endfor %}"}});
  ASSERT_FALSE(statements);
  EXPECT_NE(statements.error().message.find("statements"), std::string::npos);
  auto not_json =
      create_endpoint(EndpointType::kTemplate, {{"payload_template", "{ {{ text }} }"}});
  ASSERT_FALSE(not_json);
  EXPECT_NE(not_json.error().message.find("JSON"), std::string::npos);
  EXPECT_FALSE(PayloadTemplate::parse("{{ text|upper }}"));
}

TEST(Template, UnknownVariablesAndBadResponseFieldsFailAtStartUp) {
  auto unknown = create_endpoint(EndpointType::kTemplate,
                                 {{"payload_template", R"({"m": {{ request.model|tojson }}})"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("'request'"), std::string::npos);
  for (const char* field : {"data[*].embedding", "a[]", "[0]", "a[x]", ""}) {
    if (!*field) continue;
    auto bad = create_endpoint(EndpointType::kTemplate,
                               {{"payload_template", "nv-embedqa"}, {"response_field", field}});
    EXPECT_FALSE(bad) << field;
  }
  // Quoted keys, even empty ones, are names, not indices.
  auto quoted = create_endpoint(
      EndpointType::kTemplate, {{"payload_template", "nv-embedqa"}, {"response_field", "out['']"}});
  ASSERT_TRUE(quoted);
  EXPECT_EQ((*quoted)->decode(R"({"out":{"":"empty key"}})").content, "empty key");
}

TEST(Template, NullErrorFieldsAreNotErrors) {
  auto ep = create_endpoint(EndpointType::kTemplate, {{"payload_template", "nv-embedqa"}});
  ASSERT_TRUE(ep);
  const auto d = (*ep)->decode(R"({"error":null,"text":"fine"})");
  EXPECT_EQ(d.kind, Kind::kData);
  EXPECT_EQ(d.content, "fine");
}

TEST(Template, ResponseFieldSelectsTheText) {
  const Extra extra = {{"payload_template", R"({"p": {{ text|tojson }}})"},
                       {"response_field", "result.outputs[1].text"}};
  auto ep = create_endpoint(EndpointType::kTemplate, extra);
  ASSERT_TRUE(ep);
  auto d = (*ep)->decode(R"({"result":{"outputs":[{"text":"no"},{"text":"yes"}]}})");
  EXPECT_EQ(d.kind, Kind::kData);
  EXPECT_EQ(d.content, "yes");
}

TEST(Template, AutoDetection) {
  auto ep = create_endpoint(EndpointType::kTemplate, {{"payload_template", "nv-embedqa"}});
  ASSERT_TRUE(ep);
  EXPECT_EQ((*ep)
                ->decode(R"({"data":[{"object":"embedding","embedding":[0.1]},)"
                         R"({"object":"embedding","embedding":[0.2]}]})")
                .outputs,
            2);
  EXPECT_EQ((*ep)->decode(R"({"rankings":[{"index":0,"logit":1.0}]})").outputs, 1);
  EXPECT_EQ((*ep)->decode(R"({"output":["a","b"]})").content, "ab");
  EXPECT_EQ((*ep)->decode(R"({"choices":[{"message":{"content":"chat"}}]})").content, "chat");
  EXPECT_EQ((*ep)->decode(R"({"choices":[{"delta":{"content":"tok"}}]})").content, "tok");
  EXPECT_EQ((*ep)->decode("plain words").content, "plain words");
}

// ---- output limits (payload rows, preflight) ----------------------------------------------------

TEST(OutputLimit, TheBodysOwnKeyElseTheEndpoints) {
  using inferperf::endpoint::set_output_limit;
  auto limited = [](EndpointType type, nlohmann::ordered_json body, bool legacy, int n, bool cap) {
    const bool ok = set_output_limit(body, type, legacy, n, cap);
    return (ok ? "" : "none:") + body.dump();
  };
  EXPECT_EQ(limited(EndpointType::kChat, {{"messages", 1}}, false, 8, false),
            R"({"messages":1,"max_completion_tokens":8})");
  EXPECT_EQ(limited(EndpointType::kChat, {{"messages", 1}}, true, 8, false),
            R"({"messages":1,"max_tokens":8})");
  EXPECT_EQ(limited(EndpointType::kChat, {{"prompt", "x"}}, false, 8, false),
            R"({"prompt":"x","max_tokens":8})");
  EXPECT_EQ(limited(EndpointType::kResponses, {{"input", 1}}, false, 16, false),
            R"({"input":1,"max_output_tokens":16})");
  EXPECT_EQ(limited(EndpointType::kMessages, {{"messages", 1}}, false, 16, false),
            R"({"messages":1,"max_tokens":16})");
  EXPECT_EQ(limited(EndpointType::kHuggingfaceGenerate, {{"inputs", "x"}}, false, 5, false),
            R"({"inputs":"x","parameters":{"max_new_tokens":5}})");
  EXPECT_EQ(limited(EndpointType::kHuggingfaceGenerate,
                    {{"inputs", "x"}, {"parameters", {{"max_new_tokens", 3}}}}, false, 5, true),
            R"({"inputs":"x","parameters":{"max_new_tokens":3}})");  // capped: smaller kept
  EXPECT_EQ(limited(EndpointType::kChat, {{"max_tokens", 500}}, false, 16, true),
            R"({"max_tokens":16})");
  EXPECT_EQ(limited(EndpointType::kEmbeddings, {{"input", 1}}, false, 16, false),
            R"(none:{"input":1})");
}

TEST(OutputLimit, PayloadRowsGetTheRowsLengthUnderTheEndpointsKey) {
  Turn t;
  t.payload = std::make_shared<const nlohmann::ordered_json>(
      nlohmann::ordered_json{{"model", "m"}, {"input", "hi"}});
  t.max_tokens = 32;
  auto ep = make_endpoint(EndpointType::kResponses);
  EXPECT_EQ(inferperf::endpoint::build_request_body(*ep, {t}, opts()).dump(),
            R"({"model":"m","input":"hi","max_output_tokens":32})");
}

// ---- decoders -----------------------------------------------------------------------------------

struct Case {
  const char* name;
  EndpointType type;
  std::string payload;
  Kind kind;
  std::string content;
  std::string reasoning = "";
  std::int64_t outputs = 0;
  std::optional<std::int64_t> prompt_tokens = std::nullopt;
  std::optional<std::int64_t> completion_tokens = std::nullopt;
  std::string finish_reason = "";
  std::string error_substring = "";
};

const std::vector<Case> kCases = {
    // OpenAI / vLLM embeddings.
    {"openai_embeddings", EndpointType::kEmbeddings,
     R"({"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,-0.2]},)"
     R"({"object":"embedding","index":1,"embedding":[0.3,0.4]}],"model":"e5",)"
     R"("usage":{"prompt_tokens":7,"total_tokens":7}})",
     Kind::kData, "", "", 2, 7},
    {"embeddings_wrong_item", EndpointType::kEmbeddings,
     R"({"object":"list","data":[{"object":"text","index":0}]})", Kind::kError, "", "", 0,
     std::nullopt, std::nullopt, "", "embedding"},
    {"embeddings_error_object", EndpointType::kNimEmbeddings,
     R"({"error":{"message":"input too long","type":"BadRequestError","code":400}})", Kind::kError,
     "", "", 0, std::nullopt, std::nullopt, "", "input too long"},
    // Rerankers.
    {"nim_rankings", EndpointType::kNimRankings,
     R"({"rankings":[{"index":1,"logit":2.5},{"index":0,"logit":-1.0}]})", Kind::kData, "", "", 2},
    {"tei_rerank_list", EndpointType::kHfTeiRankings,
     R"([{"index":0,"score":0.99},{"index":2,"score":0.5},{"index":1,"score":0.01}])", Kind::kData,
     "", "", 3},
    {"tei_rerank_results", EndpointType::kHfTeiRankings, R"({"results":[{"index":0,"score":0.9}]})",
     Kind::kData, "", "", 1},
    {"cohere_rerank", EndpointType::kCohereRankings,
     R"({"id":"r1","results":[{"index":0,"relevance_score":0.98},{"index":1,"relevance_score":0.1}],)"
     R"("meta":{"api_version":{"version":"2"},"billed_units":{"search_units":1}}})",
     Kind::kData, "", "", 2},
    {"cohere_missing_results", EndpointType::kCohereRankings, R"({"id":"r1"})", Kind::kError, "",
     "", 0, std::nullopt, std::nullopt, "", "results"},
    // Hugging Face TGI.
    {"tgi_stream_token", EndpointType::kHuggingfaceGenerate,
     R"({"index":3,"token":{"id":1234,"text":" world","logprob":-0.3,"special":false},)"
     R"("generated_text":null,"details":null})",
     Kind::kData, " world"},
    {"tgi_stream_last", EndpointType::kHuggingfaceGenerate,
     R"({"index":4,"token":{"id":2,"text":"</s>","logprob":0.0,"special":true},)"
     R"("generated_text":"Hello world","details":{"finish_reason":"eos_token","generated_tokens":4,"seed":null}})",
     Kind::kData, "", "", 0, std::nullopt, 4, "eos_token"},
    {"tgi_generate_object", EndpointType::kHuggingfaceGenerate,
     R"({"generated_text":"Hello world"})", Kind::kData, "Hello world"},
    {"tgi_generate_list", EndpointType::kHuggingfaceGenerate, R"([{"generated_text":"listed"}])",
     Kind::kData, "listed"},
    {"tgi_error_event", EndpointType::kHuggingfaceGenerate,
     R"({"error":"Input validation error: inputs too long","error_type":"validation"})",
     Kind::kError, "", "", 0, std::nullopt, std::nullopt, "", "Input validation error"},
    // Images.
    {"image_generation_body", EndpointType::kImageGeneration,
     R"({"created":1700000000,"data":[{"b64_json":"iVBORw0KGgo=","revised_prompt":"a fox"}],)"
     R"("usage":{"input_tokens":9,"output_tokens":272,"total_tokens":281}})",
     Kind::kData, "", "", 1, 9, 272},
    {"image_generation_partial", EndpointType::kImageGeneration,
     R"({"type":"image_generation.partial_image","b64_json":"AAA","partial_image_index":0})",
     Kind::kData, ""},
    {"image_generation_completed", EndpointType::kImageGeneration,
     R"({"type":"image_generation.completed","b64_json":"AAA","usage":{"input_tokens":3,"output_tokens":100,"total_tokens":103}})",
     Kind::kData, "", "", 1, 3, 100},
    {"image_retrieval", EndpointType::kImageRetrieval,
     R"({"data":[{"index":0,"bounding_boxes":{"chart":[]}},{"index":1,"bounding_boxes":{}}],)"
     R"("usage":{"images_size_mb":0.1}})",
     Kind::kData, "", "", 2},
    // Video jobs.
    {"video_queued", EndpointType::kVideoGeneration,
     R"({"id":"video_1","object":"video","status":"queued","progress":0,"model":"sora-2"})",
     Kind::kData, ""},
    {"video_completed", EndpointType::kVideoGeneration,
     R"({"id":"video_1","object":"video","status":"completed","progress":100,"inference_time_s":3.5,"peak_memory_mb":2048})",
     Kind::kData, "", "", 1},
    {"video_failed", EndpointType::kVideoGeneration,
     R"({"id":"video_1","object":"video","status":"failed","error":{"code":"moderation","message":"blocked"}})",
     Kind::kError, "", "", 0, std::nullopt, std::nullopt, "", "blocked"},
    {"video_cancelled", EndpointType::kVideoGeneration,
     R"({"id":"video_1","object":"video","status":"cancelled"})", Kind::kError, "", "", 0,
     std::nullopt, std::nullopt, "", "cancelled"},
    {"video_unsafe_id", EndpointType::kVideoGeneration,
     R"({"id":"../x y","object":"video","status":"queued"})", Kind::kError, "", "", 0, std::nullopt,
     std::nullopt, "", "path"},
    {"anthropic_tool_use_whole", EndpointType::kMessages,
     R"({"type":"message","content":[{"type":"tool_use","id":"t1","name":"f","input":{"a":1}}],)"
     R"("stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":9}})",
     Kind::kData, R"({"a":1})", "", 0, 3, 9, "tool_use"},
    // SOLIDO RAG answers as chat.
    {"solido_rag_chunk", EndpointType::kSolidoRag,
     R"({"id":"rag-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"SDE"}}]})",
     Kind::kData, "SDE"},
    // OpenAI Responses API.
    {"responses_text_delta", EndpointType::kResponses,
     R"({"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"})",
     Kind::kData, "Hi"},
    {"responses_reasoning_delta", EndpointType::kResponses,
     R"({"type":"response.reasoning_text.delta","item_id":"rs_1","output_index":0,"content_index":0,"delta":"think"})",
     Kind::kData, "", "think"},
    {"responses_lifecycle", EndpointType::kResponses,
     R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress"}})",
     Kind::kData, ""},
    {"responses_completed_usage", EndpointType::kResponses,
     R"({"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed",)"
     R"("usage":{"input_tokens":11,"output_tokens":20,"total_tokens":31,"output_tokens_details":{"reasoning_tokens":4}}}})",
     Kind::kData, "", "", 0, 11, 20, "completed"},
    {"responses_whole_object", EndpointType::kResponses,
     R"({"id":"resp_1","object":"response","status":"completed","output":[)"
     R"({"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"plan"}]},)"
     R"({"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Done.","annotations":[]}]}],)"
     R"("usage":{"input_tokens":5,"output_tokens":2,"total_tokens":7}})",
     Kind::kData, "Done.", "plan", 0, 5, 2, "completed"},
    {"responses_failed", EndpointType::kResponses,
     R"({"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"overloaded"}}})",
     Kind::kError, "", "", 0, std::nullopt, std::nullopt, "", "overloaded"},
    // Anthropic Messages.
    {"anthropic_message_start", EndpointType::kMessages,
     R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],)"
     R"("model":"claude","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}})",
     Kind::kData, "", "", 0, 25, 1},
    {"anthropic_text_delta", EndpointType::kMessages,
     R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}})",
     Kind::kData, "Hello"},
    {"anthropic_thinking_delta", EndpointType::kMessages,
     R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}})",
     Kind::kData, "", "hmm"},
    {"anthropic_ping", EndpointType::kMessages, R"({"type":"ping"})", Kind::kData, ""},
    {"anthropic_message_delta", EndpointType::kMessages,
     R"({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}})",
     Kind::kData, "", "", 0, std::nullopt, 15, "end_turn"},
    {"anthropic_whole_message", EndpointType::kMessages,
     R"({"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[)"
     R"({"type":"thinking","thinking":"a","signature":"s"},{"type":"text","text":"b"}],)"
     R"("stop_reason":"max_tokens","usage":{"input_tokens":3,"output_tokens":2}})",
     Kind::kData, "b", "a", 0, 3, 2, "max_tokens"},
    {"anthropic_error", EndpointType::kMessages,
     R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", Kind::kError,
     "", "", 0, std::nullopt, std::nullopt, "", "Overloaded"},
    // llama.cpp's OpenAI-compatible chat with its timings extension, SGLang's usage chunk.
    {"llama_cpp_chat_timings", EndpointType::kChat,
     R"({"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1,"id":"chatcmpl-1",)"
     R"("model":"gpt-3.5-turbo","object":"chat.completion.chunk",)"
     R"("usage":{"completion_tokens":12,"prompt_tokens":8,"total_tokens":20},)"
     R"("timings":{"prompt_n":8,"prompt_ms":10.5,"predicted_n":12,"predicted_ms":120.0}})",
     Kind::kData, "", "", 0, 8, 12, "stop"},
    {"sglang_usage_only_chunk", EndpointType::kChat,
     R"({"id":"1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],)"
     R"("usage":{"prompt_tokens":4,"total_tokens":9,"completion_tokens":5}})",
     Kind::kData, "", "", 0, 4, 5},
};

class Decoders : public ::testing::TestWithParam<Case> {};

TEST_P(Decoders, Decode) {
  const Case& c = GetParam();
  const DecodedEvent d = decode(c.type, c.payload);
  ASSERT_EQ(d.kind, c.kind) << d.error_message;
  if (c.kind == Kind::kError) {
    EXPECT_NE(d.error_message.find(c.error_substring), std::string::npos) << d.error_message;
    return;
  }
  EXPECT_EQ(d.content, c.content);
  EXPECT_EQ(d.reasoning, c.reasoning);
  EXPECT_EQ(d.outputs, c.outputs);
  EXPECT_EQ(d.finish_reason, c.finish_reason);
  const auto prompt = d.usage ? d.usage->prompt_tokens : std::nullopt;
  const auto completion = d.usage ? d.usage->completion_tokens : std::nullopt;
  EXPECT_EQ(prompt, c.prompt_tokens);
  EXPECT_EQ(completion, c.completion_tokens);
}

INSTANTIATE_TEST_SUITE_P(Formats, Decoders, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

TEST(Decoders, VideoJobFieldsAndProgressFlags) {
  const auto d = decode(EndpointType::kVideoGeneration,
                        R"({"id":"video_9","status":"in_progress","progress":40,)"
                        R"("inference_time_s":1.25,"peak_memory_mb":512.5})");
  ASSERT_TRUE(d.job);
  EXPECT_EQ(d.job->id, "video_9");
  EXPECT_EQ(d.job->status, "in_progress");
  EXPECT_EQ(d.job->progress, 40.0);
  EXPECT_EQ(d.job->inference_time_s, 1.25);
  EXPECT_EQ(d.job->peak_memory_mb, 512.5);
  EXPECT_TRUE(decode(EndpointType::kImageGeneration,
                     R"({"type":"image_generation.partial_image","b64_json":"A"})")
                  .progress);
  EXPECT_EQ(decode(EndpointType::kResponses,
                   R"({"type":"response.completed","response":{"usage":{"input_tokens":1,)"
                   R"("output_tokens":5,"output_tokens_details":{"reasoning_tokens":3}}}})")
                .usage->reasoning_tokens,
            3);
}

// ---- the warmup marker (AIPerf 0.11, #1040; docs/endpoints.md, Warmup requests)
// ------------------

nlohmann::ordered_json marked(EndpointType type, const std::vector<Turn>& history,
                              const BodyOptions& o, bool expect_changed = true) {
  auto b = make_endpoint(type)->build_body(history, o);
  EXPECT_EQ(inferperf::endpoint::apply_warmup_marker(b, type), expect_changed);
  return b;
}

TEST(WarmupMarker, ChatWithoutSystemMessageGetsOneFirst) {
  auto o = opts();
  o.user_context = "ctx";
  const auto plain = make_endpoint(EndpointType::kChat)->build_body({protocol_turn("hi", 4)}, o);
  const auto b = marked(EndpointType::kChat, {protocol_turn("hi", 4)}, o);
  ASSERT_EQ(b["messages"].size(), plain["messages"].size() + 1);
  EXPECT_EQ(b["messages"][0].dump(), R"({"role":"system","content":"warmup"})");
  // Everything after the marker is the profiling body unchanged.
  auto rest = b;
  rest["messages"].erase(rest["messages"].begin());
  EXPECT_EQ(rest.dump(), plain.dump());
}

TEST(WarmupMarker, ChatSystemStringIsPrefixed) {
  auto o = opts();
  o.system_message = "be brief";
  const auto b = marked(EndpointType::kChat, {protocol_turn("hi")}, o);
  ASSERT_EQ(b["messages"].size(), 2u);
  EXPECT_EQ(b["messages"][0].dump(), R"({"role":"system","content":"warmup\nbe brief"})");
  EXPECT_EQ(b["messages"][1]["content"], "hi");
}

TEST(WarmupMarker, ChatSystemContentPartsGetALeadingTextPart) {
  Turn t;
  t.messages = std::make_shared<const nlohmann::ordered_json>(nlohmann::ordered_json::array(
      {{{"role", "system"}, {"content", {{{"type", "text"}, {"text", "rules"}}}}},
       {{"role", "user"}, {"content", "q"}}}));
  const auto b = marked(EndpointType::kChat, {t}, opts());
  EXPECT_EQ(b["messages"].dump(),
            R"([{"role":"system","content":[{"type":"text","text":"warmup"},)"
            R"({"type":"text","text":"rules"}]},{"role":"user","content":"q"}])");
}

TEST(WarmupMarker, ChatEmbeddingsUsesTheChatRule) {
  const auto b = marked(EndpointType::kChatEmbeddings, {protocol_turn("hi")}, opts());
  EXPECT_EQ(b["messages"][0].dump(), R"({"role":"system","content":"warmup"})");
}

TEST(WarmupMarker, CompletionsPromptsArePrefixed) {
  Turn t = protocol_turn("hello", 8);
  t.more_texts = {"again"};
  const auto b = marked(EndpointType::kCompletions, {t}, opts());
  EXPECT_EQ(b["prompt"].dump(), R"(["warmup\nhello","warmup\nagain"])");
  nlohmann::ordered_json single = {{"prompt", "p"}, {"model", "m"}};
  EXPECT_TRUE(inferperf::endpoint::apply_warmup_marker(single, EndpointType::kCompletions));
  EXPECT_EQ(single.dump(), R"({"prompt":"warmup\np","model":"m"})");
}

TEST(WarmupMarker, MessagesAndResponsesUseTheirSystemField) {
  auto o = opts();
  EXPECT_EQ(marked(EndpointType::kMessages, {protocol_turn("hi")}, o)["system"], "warmup");
  EXPECT_EQ(marked(EndpointType::kResponses, {protocol_turn("hi")}, o)["instructions"], "warmup");
  o.system_message = "sys";
  EXPECT_EQ(marked(EndpointType::kMessages, {protocol_turn("hi")}, o)["system"], "warmup\nsys");
  EXPECT_EQ(marked(EndpointType::kResponses, {protocol_turn("hi")}, o)["instructions"],
            "warmup\nsys");
}

TEST(WarmupMarker, OtherEndpointsAreLeftAlone) {
  for (EndpointType type : {EndpointType::kEmbeddings, EndpointType::kNimRankings,
                            EndpointType::kHuggingfaceGenerate, EndpointType::kImageGeneration}) {
    const auto plain = make_endpoint(type)->build_body({protocol_turn("hi", 4)}, opts());
    EXPECT_EQ(marked(type, {protocol_turn("hi", 4)}, opts(), false).dump(), plain.dump())
        << endpoint_info(type).name;
  }
}

}  // namespace
