// Response builders of the mock's non-chat routes (apps/mock-server/routes.hpp).
#include "routes.hpp"
#include "core/base64.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace inferperf::mock;
using nlohmann::json;

// The SSE messages of a stream as (event, data JSON) pairs.
std::vector<std::pair<std::string, json>> parse_sse(const std::string& text) {
  std::vector<std::pair<std::string, json>> out;
  std::istringstream in(text);
  std::string line, event;
  while (std::getline(in, line)) {
    if (line.rfind("event: ", 0) == 0) event = line.substr(7);
    if (line.rfind("data:", 0) == 0) {
      out.emplace_back(event, json::parse(line.substr(5)));
      event.clear();
    }
  }
  return out;
}

GenerationPlan plan_for(const std::string& model, const std::string& prompt, std::int64_t max) {
  GenerationRequest g;
  g.chat = true;
  g.model = model;
  g.prompt_text = prompt;
  g.max_tokens = max;
  return plan_generation(g);
}

TEST(Embeddings, DimensionDeterminismAndUsage) {
  FixedReply r;
  ASSERT_FALSE(embeddings_reply(R"({"model":"e","input":["hello world","other"]})", nullptr, r));
  const auto j = json::parse(r.body);
  EXPECT_EQ(j["object"], "list");
  ASSERT_EQ(j["data"].size(), 2u);
  EXPECT_EQ(j["data"][0]["embedding"].size(), 768u);
  EXPECT_EQ(j["data"][1]["index"], 1);
  EXPECT_EQ(j["usage"]["prompt_tokens"], 6);  // "hell","o"," worl","d" and "othe","r"
  EXPECT_EQ(r.units, 2);
  FixedReply again;
  ASSERT_FALSE(embeddings_reply(R"({"model":"e","input":"hello world"})", nullptr, again));
  EXPECT_EQ(json::parse(again.body)["data"][0]["embedding"], j["data"][0]["embedding"]);
  EXPECT_NE(j["data"][0]["embedding"], j["data"][1]["embedding"]);
  double norm = 0;
  for (float x : embedding_vector("abc")) norm += static_cast<double>(x) * x;
  EXPECT_NEAR(norm, 1.0, 1e-5);
  EXPECT_EQ(embeddings_reply(R"({"model":"e"})", nullptr, r)->status, 422);
  EXPECT_EQ(embeddings_reply("nope", nullptr, r)->status, 400);
}

TEST(Rankings, SortedByScoreOnePerPassage) {
  FixedReply r;
  ASSERT_FALSE(ranking_reply(
      R"({"model":"r","query":{"text":"cat food"},"passages":[{"text":"a"},{"text":"cat food"},{"text":"b"}]})",
      RankingFlavor::kNim, nullptr, r));
  auto j = json::parse(r.body);
  ASSERT_EQ(j["rankings"].size(), 3u);
  EXPECT_EQ(r.units, 3);
  for (std::size_t i = 1; i < 3; ++i)
    EXPECT_GE(j["rankings"][i - 1]["logit"].get<double>(), j["rankings"][i]["logit"].get<double>());
  ASSERT_FALSE(
      ranking_reply(R"({"query":"q","texts":["x","y"]})", RankingFlavor::kTei, nullptr, r));
  j = json::parse(r.body);
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 2u);
  EXPECT_TRUE(j[0].contains("score"));
  ASSERT_FALSE(ranking_reply(R"({"model":"c","query":"q","documents":["x","y","z"],"top_n":2})",
                             RankingFlavor::kCohere, nullptr, r));
  j = json::parse(r.body);
  EXPECT_EQ(j["results"].size(), 2u);
  EXPECT_TRUE(j["id"].get<std::string>().starts_with("rank-"));
  EXPECT_EQ(ranking_reply(R"({"query":"q"})", RankingFlavor::kTei, nullptr, r)->status, 422);
  EXPECT_EQ(
      ranking_reply(R"({"query":"q","passages":[]})", RankingFlavor::kNim, nullptr, r)->status,
      422);
}

TEST(ImageRetrieval, OneEntryPerImage) {
  FixedReply r;
  ASSERT_FALSE(image_retrieval_reply(
      R"({"input":[{"type":"image_url","url":"data:image/png;base64,AAAA"},{"type":"image_url","url":"data:image/png;base64,BBBB"}]})",
      r));
  const auto j = json::parse(r.body);
  ASSERT_EQ(j["data"].size(), 2u);
  EXPECT_GE(j["data"][0]["bounding_boxes"]["chart"].size(), 1u);
  EXPECT_TRUE(j["data"][1]["bounding_boxes"]["table"].empty());
  EXPECT_GT(j["usage"]["images_size_mb"].get<double>(), 0);
  EXPECT_EQ(image_retrieval_reply(R"({"input":[]})", r)->status, 422);
}

TEST(Tgi, LastEventCarriesTheWholeText) {
  GenerationRequest g;
  ASSERT_FALSE(parse_tgi_request(
      R"({"inputs":"the quick brown fox","parameters":{"max_new_tokens":5}})", g));
  EXPECT_EQ(g.max_tokens, 5);
  EXPECT_FALSE(g.chat);
  const auto plan = plan_generation(g);
  std::string full, concat;
  for (const auto& t : plan.output) full += t;
  std::string stream;
  for (std::size_t i = 0; i < plan.output.size(); ++i)
    stream += "data:" +
              tgi_stream_event(i, plan.output[i], i + 1 == plan.output.size(), full,
                               tgi_finish_reason(plan.finish_reason), plan.output.size()) +
              "\n\n";
  const auto events = parse_sse(stream);
  ASSERT_EQ(events.size(), plan.output.size());
  for (const auto& [type, d] : events) concat += d["token"]["text"].get<std::string>();
  EXPECT_TRUE(events.front().second["generated_text"].is_null());
  EXPECT_EQ(events.back().second["generated_text"], concat);
  EXPECT_EQ(events.back().second["details"]["generated_tokens"], plan.output.size());
  EXPECT_EQ(tgi_finish_reason("stop"), "eos_token");
  EXPECT_EQ(parse_tgi_request(R"({"parameters":{}})", g)->status, 422);
}

TEST(Rag, ParsesQueryAndModel) {
  GenerationRequest g;
  ASSERT_FALSE(parse_rag_request(
      R"({"query":["a b","c"],"filters":{},"inference_model":"m1","stream":true})", g));
  EXPECT_EQ(g.prompt_text, "a b c");
  EXPECT_EQ(g.model, "m1");
  EXPECT_TRUE(g.stream);
  EXPECT_TRUE(g.chat);
}

TEST(Images, ValidPngAndShapes) {
  const std::string png = png_image(42);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(inferperf::core::base64_encode("abcd"), "YWJjZA==");
  ImageRequest r;
  ASSERT_FALSE(parse_image_request(R"({"prompt":"a cat","n":1,"response_format":"b64_json"})", r));
  const auto j = json::parse(image_whole_json(r, 1, 3));
  EXPECT_EQ(j["data"].size(), 1u);
  EXPECT_EQ(j["size"], "1024x1024");
  EXPECT_EQ(j["usage"]["total_tokens"], 3 + 1056);
  const auto ev = parse_sse(image_partial_event(r, 0, 1) + image_completed_event(r, 1, 3));
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].first, "image_generation.partial_image");
  EXPECT_EQ(ev[0].second["partial_image_index"], 0);
  EXPECT_EQ(ev[1].second["type"], "image_generation.completed");
}

TEST(Video, JobProgressesWithTheClock) {
  using namespace std::chrono_literals;
  VideoJobs jobs;
  VideoRequest r;
  ASSERT_FALSE(parse_video_request(R"({"prompt":"a cat","model":"sora-2"})", r));
  const auto t0 = VideoJobs::Clock::time_point{} + 1h;
  const auto created = json::parse(jobs.create(r, t0, 1000, 100ms, 200ms, false));
  EXPECT_EQ(created["status"], "queued");
  const std::string id = created["id"];
  EXPECT_TRUE(id.starts_with("video_"));
  EXPECT_EQ(json::parse(*jobs.get(id, t0 + 50ms))["status"], "queued");
  const auto mid = json::parse(*jobs.get(id, t0 + 200ms));
  EXPECT_EQ(mid["status"], "in_progress");
  EXPECT_EQ(mid["progress"], 50);
  EXPECT_EQ(jobs.content(id, t0 + 200ms), VideoJobs::ContentState::kNotReady);
  const auto done = json::parse(*jobs.get(id, t0 + 300ms));
  EXPECT_EQ(done["status"], "completed");
  EXPECT_EQ(done["progress"], 100);
  EXPECT_EQ(done["completed_at"], 1001);
  EXPECT_EQ(jobs.content(id, t0 + 300ms), VideoJobs::ContentState::kReady);
  EXPECT_FALSE(jobs.get("video_nope", t0));
  EXPECT_EQ(jobs.content("video_nope", t0), VideoJobs::ContentState::kUnknown);
  // Zero timing (--fast): completed at once; a failing job ends failed with an error.
  const std::string fast = json::parse(jobs.create(r, t0, 1000, 0ms, 0ms, false))["id"];
  EXPECT_EQ(json::parse(*jobs.get(fast, t0))["status"], "completed");
  const std::string bad = json::parse(jobs.create(r, t0, 1000, 0ms, 0ms, true))["id"];
  const auto failed = json::parse(*jobs.get(bad, t0));
  EXPECT_EQ(failed["status"], "failed");
  EXPECT_TRUE(failed["error"].contains("code"));
  EXPECT_EQ(jobs.content(bad, t0), VideoJobs::ContentState::kNotReady);
}

std::string run_stream(auto& s, const GenerationPlan& plan) {
  std::string out = s.head();
  for (const auto& t : plan.reasoning) out += s.delta(true, t);
  for (const auto& t : plan.output) out += s.delta(false, t);
  return out + s.tail();
}

TEST(Responses, StreamEventSequenceAndUsage) {
  GenerationRequest g;
  ASSERT_FALSE(parse_responses_request(
      R"({"model":"m","instructions":"be brief","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hello there"},{"type":"input_image","image_url":"x"}]}],"max_output_tokens":3,"stream":true})",
      g));
  EXPECT_EQ(g.prompt_text, "be brief hello there");
  EXPECT_EQ(g.max_tokens, 3);
  const auto plan = plan_generation(g);
  ResponsesStream s("resp_1", g.model, 1, plan);
  const auto ev = parse_sse(run_stream(s, plan));
  std::vector<std::string> types;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    EXPECT_EQ(ev[i].first, ev[i].second["type"]);
    EXPECT_EQ(ev[i].second["sequence_number"], i);
    if (types.empty() || types.back() != ev[i].first) types.push_back(ev[i].first);
  }
  const std::vector<std::string> expected = {
      "response.created",           "response.in_progress",
      "response.output_item.added", "response.content_part.added",
      "response.output_text.delta", "response.output_text.done",
      "response.content_part.done", "response.output_item.done",
      "response.completed"};
  EXPECT_EQ(types, expected);
  const auto& done = ev.back().second["response"];
  EXPECT_EQ(done["status"], "completed");
  EXPECT_EQ(done["usage"]["output_tokens"], plan.output.size());
  EXPECT_EQ(done["usage"]["input_tokens"], plan.prompt_tokens.size());
  EXPECT_EQ(done["usage"]["total_tokens"], plan.output.size() + plan.prompt_tokens.size());
  std::string text;
  for (const auto& t : plan.output) text += t;
  EXPECT_EQ(done["output"][0]["content"][0]["text"], text);
}

TEST(Responses, ReasoningItemComesFirst) {
  const auto plan = plan_for("gpt-oss-20b", "think about it", 2);
  ASSERT_FALSE(plan.reasoning.empty());
  ResponsesStream s("resp_1", "gpt-oss-20b", 1, plan);
  const auto ev = parse_sse(run_stream(s, plan));
  std::size_t reasoning = 0;
  for (const auto& [type, d] : ev) reasoning += type == "response.reasoning_text.delta";
  EXPECT_EQ(reasoning, plan.reasoning.size());
  EXPECT_EQ(ev[2].second["item"]["type"], "reasoning");
  const auto& done = ev.back().second["response"];
  EXPECT_EQ(done["output"][0]["type"], "reasoning");
  EXPECT_EQ(done["output"][1]["type"], "message");
  EXPECT_EQ(done["usage"]["output_tokens_details"]["reasoning_tokens"], plan.reasoning.size());
}

TEST(Messages, EventSequenceAndVersionHeader) {
  GenerationRequest g;
  const std::string body =
      R"({"model":"claude","max_tokens":4,"system":"sys","messages":[{"role":"user","content":[{"type":"text","text":"hello there"}]}]})";
  auto err = parse_messages_request(body, false, g);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->status, 400);
  EXPECT_EQ(json::parse(err->body)["error"]["message"], "anthropic-version header is required");
  EXPECT_EQ(parse_messages_request(R"({"model":"c","messages":[]})", true, g)->status, 400);
  ASSERT_FALSE(parse_messages_request(body, true, g));
  EXPECT_EQ(g.prompt_text, "sys hello there");
  const auto plan = plan_generation(g);
  MessagesStream s("msg_1", g.model, plan);
  const auto ev = parse_sse(run_stream(s, plan));
  std::vector<std::string> types;
  for (const auto& [type, d] : ev) {
    EXPECT_EQ(type, d["type"]);
    if (types.empty() || types.back() != type) types.push_back(type);
  }
  const std::vector<std::string> expected = {
      "message_start",      "content_block_start", "ping",        "content_block_delta",
      "content_block_stop", "message_delta",       "message_stop"};
  EXPECT_EQ(types, expected);
  EXPECT_EQ(ev.front().second["message"]["usage"]["input_tokens"], plan.prompt_tokens.size());
  EXPECT_EQ(ev[ev.size() - 2].second["usage"]["output_tokens"], plan.output.size());
  // The last usage object has the input count too: a client that reads usage from the last
  // usage-bearing event (AIPerf 0.11) keeps the prompt tokens.
  EXPECT_EQ(ev[ev.size() - 2].second["usage"]["input_tokens"], plan.prompt_tokens.size());
  const auto whole = json::parse(messages_whole_json("msg_1", "claude", plan));
  EXPECT_EQ(whole["content"][0]["type"], "text");
  EXPECT_EQ(whole["stop_reason"], plan.finish_reason == "length" ? "max_tokens" : "end_turn");
}

TEST(Messages, ThinkingBlockFirstForReasoningModels) {
  const auto plan = plan_for("qwen3-8b", "hello there", 2);
  MessagesStream s("msg_1", "qwen3-8b", plan);
  const auto ev = parse_sse(run_stream(s, plan));
  EXPECT_EQ(ev[1].second["content_block"]["type"], "thinking");
  EXPECT_EQ(ev[3].second["delta"]["type"], "thinking_delta");
  bool text_block = false;
  for (const auto& [type, d] : ev)
    if (type == "content_block_start" && d["index"] == 1 && d["content_block"]["type"] == "text")
      text_block = true;
  EXPECT_TRUE(text_block);
}

TEST(Gates, ApiKeyAndStrictModel) {
  MockOptions o;
  EXPECT_FALSE(check_api_key(o, std::nullopt));
  o.api_key = "k";
  EXPECT_EQ(check_api_key(o, std::nullopt)->status, 401);
  EXPECT_EQ(check_api_key(o, "k")->status, 401);
  EXPECT_FALSE(check_api_key(o, "Bearer k"));
  o.auth_header_name = "x-api-key";
  EXPECT_FALSE(check_api_key(o, "k"));
  EXPECT_TRUE(check_api_key(o, "Bearer k"));
  EXPECT_FALSE(check_model(o, R"({"model":"other"})"));  // not strict
  o.strict_model = true;
  EXPECT_FALSE(check_model(o, R"({"model":"mock-model"})"));
  const auto e = check_model(o, R"({"model":"other"})");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->status, 404);
  EXPECT_EQ(json::parse(e->body)["error"]["message"], "The model `other` does not exist.");
  EXPECT_EQ(json::parse(e->body)["error"]["type"], "NotFoundError");
}

}  // namespace
