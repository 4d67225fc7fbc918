// The fast-path decoder (streamed chunks and whole non-streamed responses) against the full
// simdjson decoders: what it accepts it must decode exactly as they do, and what it does not fully
// understand it must leave to them.
#include "endpoint/chunk_scan.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {
namespace {

// The fast path's reading, or nullopt when it leaves the payload to the document decoder.
std::optional<DecodedEvent> fast_decode(std::string_view payload, ChunkShape shape) {
  DecodedEvent out;
  if (!scan_chunk(payload, shape, out)) return std::nullopt;
  return out;
}

DecodedEvent document_decode(std::string_view payload, ChunkShape shape) {
  return shape == ChunkShape::kChat ? decode_chat_document(payload)
                                    : decode_completions_document(payload);
}

// Every field a chunk can set, compared.
void expect_same(const DecodedEvent& fast, const DecodedEvent& full, const std::string& payload) {
  SCOPED_TRACE(payload);
  EXPECT_EQ(fast.kind, full.kind);
  EXPECT_EQ(fast.content, full.content);
  EXPECT_EQ(fast.reasoning, full.reasoning);
  EXPECT_EQ(fast.finish_reason, full.finish_reason);
  EXPECT_EQ(fast.usage, full.usage);
  EXPECT_EQ(fast.server_timings.has_value(), full.server_timings.has_value());
  EXPECT_EQ(fast.tool_calls.size(), full.tool_calls.size());
  EXPECT_EQ(fast.outputs, full.outputs);
  EXPECT_EQ(fast.error_message, full.error_message);
}

const std::vector<std::string> kChatChunks = {
    // the mock's chunk
    R"({"id":"chatcmpl-7","object":"chat.completion.chunk","created":1733011200,"model":"mock-model","choices":[{"index":0,"delta":{"content":" the"},"finish_reason":null}]})",
    // vLLM's first chunk (role, empty content, logprobs null)
    R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null})",
    // reasoning text, escapes, a stop reason, spaces between tokens
    R"( { "object" : "chat.completion.chunk" , "choices" : [ { "delta" : { "reasoning_content" : "a\n\"b\"\\\/ \u00e9\u4e2d\t" , "content" : null } , "finish_reason" : "stop" , "stop_reason" : 7 } ] } )",
    R"({"object":"chat.completion.chunk","choices":[{"delta":{"reasoning":"think","content":"x"},"finish_reason":"length"},{"delta":{"content":"second choice"}}],"system_fingerprint":"fp","service_tier":"default"})",
    R"({"object":"chat.completion.chunk","choices":[],"created":-0.5})",
    R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"\u0000\u001f","tool_calls":null,"refusal":{"a":[1,2,{"b":true}]}}}]})",
    // the mock's usage chunk (stream_options.include_usage)
    R"({"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":3,"total_tokens":6}})",
    // the mock's non-streamed response
    R"({"id":"chatcmpl-9","object":"chat.completion","created":1796642215,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi there hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}})",
    // vLLM's non-streamed response: an empty tool-call list, its own null top-level members, null
    // details, a count of 0 and -0
    R"({"id":"chatcmpl-v","object":"chat.completion","created":2,"model":"m","choices":[{"index":0,"message":{"role":"assistant","reasoning_content":null,"content":"ok","tool_calls":[]},"logprobs":null,"finish_reason":"length","stop_reason":null}],"usage":{"prompt_tokens":0,"total_tokens":-0,"completion_tokens":12,"prompt_tokens_details":null},"prompt_logprobs":null,"prompt_token_ids":null,"kv_transfer_params":null})",
    // a partial usage object, an empty one; choices before a chunk's object
    R"({"choices":[{"delta":{"content":"a"}}],"object":"chat.completion.chunk","usage":{"completion_tokens":1}})",
    R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],"usage":{}})",
    // the mock's usage on a prompt it has cached; OpenAI's detail objects; null counts
    R"({"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"a"},"finish_reason":"length"}],"usage":{"prompt_tokens":79,"completion_tokens":16,"total_tokens":95,"prompt_tokens_details":{"cached_tokens":64}}})",
    R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":8,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":1},"completion_tokens_details":{"reasoning_tokens":2,"audio_tokens":3,"accepted_prediction_tokens":4,"rejected_prediction_tokens":5,"other":{"x":[1]}}}})",
    R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":null,"completion_tokens_details":{"reasoning_tokens":null}}})",
    // counts of the longest the scan reads itself (18 characters, the sign counted)
    R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":123456789012345678,"completion_tokens":-12345678901234567,"total_tokens":900000000000000000}})",
};

const std::vector<std::string> kCompletionChunks = {
    R"({"id":"cmpl-1","object":"text_completion","created":5,"model":"m","choices":[{"index":0,"text":" hi","logprobs":null,"finish_reason":null}]})",
    R"({"object":"completion","choices":[{"text":"done\n","finish_reason":"stop"}]})",
    // the mock's non-streamed completion
    R"({"id":"cmpl-c","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"hi there hi","finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}})",
};

TEST(ChunkScan, TakesTheCommonChunksAndAgreesWithTheDocumentDecoder) {
  for (const auto& p : kChatChunks) {
    const auto fast = fast_decode(p, ChunkShape::kChat);
    ASSERT_TRUE(fast.has_value()) << p;
    expect_same(*fast, decode_chat_document(p), p);
  }
  for (const auto& p : kCompletionChunks) {
    const auto fast = fast_decode(p, ChunkShape::kCompletions);
    ASSERT_TRUE(fast.has_value()) << p;
    expect_same(*fast, decode_completions_document(p), p);
  }
  const auto mock = fast_decode(kChatChunks[0], ChunkShape::kChat);
  EXPECT_EQ(mock->content, " the");
  const auto escaped = fast_decode(kChatChunks[2], ChunkShape::kChat);
  EXPECT_EQ(escaped->reasoning, "a\n\"b\"\\/ \xC3\xA9\xE4\xB8\xAD\t");
  EXPECT_EQ(escaped->finish_reason, "stop");
  EXPECT_EQ(std::string(fast_decode(kChatChunks[5], ChunkShape::kChat)->content),
            std::string("\0\x1f", 2));
  // A whole response: its message's text and OpenAI's three counts.
  const auto whole = fast_decode(kChatChunks[7], ChunkShape::kChat);
  EXPECT_EQ(whole->content, "hi there hi");
  EXPECT_EQ(whole->finish_reason, "stop");
  ASSERT_TRUE(whole->usage.has_value());
  EXPECT_EQ(whole->usage->prompt_tokens, 3);
  EXPECT_EQ(whole->usage->completion_tokens, 4);
  EXPECT_EQ(whole->usage->total_tokens, 7);
  EXPECT_FALSE(whole->usage->reasoning_tokens.has_value());
  EXPECT_EQ(fast_decode(kChatChunks[8], ChunkShape::kChat)->usage->total_tokens, 0);
  EXPECT_FALSE(fast_decode(kChatChunks[10], ChunkShape::kChat)->usage.has_value());
  EXPECT_EQ(fast_decode(kChatChunks[11], ChunkShape::kChat)->usage->prompt_cache_read_tokens, 64);
  const auto details = fast_decode(kChatChunks[12], ChunkShape::kChat)->usage;
  ASSERT_TRUE(details.has_value());
  EXPECT_EQ(details->prompt_cache_read_tokens, 0);
  EXPECT_EQ(details->prompt_audio_tokens, 1);
  EXPECT_EQ(details->reasoning_tokens, 2);
  EXPECT_EQ(details->completion_audio_tokens, 3);
  EXPECT_EQ(details->accepted_prediction_tokens, 4);
  EXPECT_EQ(details->rejected_prediction_tokens, 5);
  EXPECT_FALSE(fast_decode(kChatChunks[13], ChunkShape::kChat)->usage.has_value());
  const auto longest = fast_decode(kChatChunks[14], ChunkShape::kChat)->usage;
  ASSERT_TRUE(longest.has_value());
  EXPECT_EQ(longest->prompt_tokens, 123456789012345678);
  EXPECT_EQ(longest->completion_tokens, -12345678901234567);
  EXPECT_EQ(longest->total_tokens, 900000000000000000);
  EXPECT_EQ(fast_decode(kCompletionChunks[2], ChunkShape::kCompletions)->usage->completion_tokens,
            4);
}

TEST(ChunkScan, LeavesEverythingElseToTheDocumentDecoder) {
  const std::vector<std::string> refused = {
      // usage other than OpenAI's names with integer or null counts, or repeated
      R"({"object":"chat.completion.chunk","choices":[],"usage":{"input_tokens":3}})",
      R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":3.0}})",
      R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":"3"}})",
      R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1,"prompt_tokens":2}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens_details":{"cached_tokens":1,"cached_tokens":2}}})",
      R"({"object":"chat.completion","choices":[],"usage":{"completion_tokens_details":{"reasoning_tokens":0.5}}})",
      R"({"object":"chat.completion","choices":[],"usage":{"completion_tokens_details":7}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens_details":null,"prompt_tokens_details":{}}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":1e2}})",
      // counts past the scan's 18 characters, a leading zero, a sign or a point alone
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":1234567890123456789}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":-123456789012345678}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":01}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":-}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":1.}})",
      R"({"object":"chat.completion","choices":[],"usage":{"prompt_tokens":-0.5}})",
      R"({"object":"chat.completion","choices":[],"usage":[]})",
      R"({"object":"chat.completion.chunk","choices":[],"timings":{"prompt_ms":1}})",
      // a whole response's message read as a chunk's delta would be, and the other way round
      R"({"choices":[{"message":{"content":"x"}}],"object":"chat.completion"})",
      R"({"object":"chat.completion","choices":[{"message":{"tool_calls":[{"index":0}]}}]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"tool_calls":[{"index":0}]}}]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"é"}}]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"\ud83d\ude00"}}]})",
      R"({"object":"chat.completion.chunk","created":1e3,"choices":[]})",
      R"({"object":"chat.completion.chunk","created":12345678901234567890,"choices":[]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a","content":"b"}}]})",
      R"({"error":{"message":"overloaded"}})",
      R"({"object":"chat.completion.chunk","choices":[]} x)",
      R"({"object":"chat.completion.chunk","choices":[{"delta":"text"}]})",
      R"({"object":"chat.completion.chunk","choices":["x"]})",
      R"({"object":"chat.completion.chunk","choices":[],"extra":1})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a	b"}}]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"\x"}}]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"con\u0074ent":"a"}}]})",
      R"({"object":"chat.completion.chunk","choices":[{"delta":{"content":"a"}}])",
      R"({"choices":[{"delta":{"content":"a"}}]})",
      R"({})",
      "",
      "[DONE]",
  };
  for (const auto& p : refused)
    EXPECT_FALSE([&] {
      DecodedEvent o;
      return scan_chunk(p, ChunkShape::kChat, o);
    }()) << p;
  EXPECT_FALSE(fast_decode(kChatChunks[0], ChunkShape::kCompletions).has_value());
  EXPECT_FALSE(fast_decode(kCompletionChunks[0], ChunkShape::kChat).has_value());
}

// Seeded random edits of the chunks above (bytes replaced, inserted or removed, from JSON's own
// alphabet): whatever the fast path still accepts, the document decoder reads the same way.
TEST(ChunkScan, AgreesWithTheDocumentDecoderOnMutatedChunks) {
  const std::string alphabet = "{}[]\":,\\ \tnulltruefalse0123456789.-+eEabcu/\x01\x7f";
  std::mt19937 rng(20261205);
  int accepted = 0, tried = 0;
  for (const auto shape : {ChunkShape::kChat, ChunkShape::kCompletions}) {
    const auto& seeds = shape == ChunkShape::kChat ? kChatChunks : kCompletionChunks;
    for (const auto& seed : seeds) {
      for (int i = 0; i < 1500; ++i) {
        std::string p = seed;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits && !p.empty(); ++e) {
          const std::size_t at = rng() % p.size();
          const char c = alphabet[rng() % alphabet.size()];
          switch (rng() % 3) {
            case 0:
              p[at] = c;
              break;
            case 1:
              p.insert(p.begin() + static_cast<std::ptrdiff_t>(at), c);
              break;
            default:
              p.erase(at, 1);
              break;
          }
        }
        ++tried;
        const auto fast = fast_decode(p, shape);
        if (!fast) continue;
        ++accepted;
        expect_same(*fast, document_decode(p, shape), p);
      }
    }
  }
  // Some edits keep the chunk valid (a changed digit, a letter of a text): both paths are used.
  EXPECT_GT(accepted, tried / 20);
  EXPECT_LT(accepted, tried);
}

DecodedEvent stateless_decode(std::string_view payload, ChunkShape shape) {
  if (auto fast = fast_decode(payload, shape)) return *fast;
  return document_decode(payload, shape);
}

DecodedEvent memo_decode(ChunkMemo& memo, std::string_view payload, ChunkShape shape) {
  DecodedEvent out;
  if (!memo.scan(payload, shape, out)) out = document_decode(payload, shape);
  return out;
}

// A stream's chunks differ in their text: one string in the remembered frame is read from it;
// anything else is scanned whole (and decodes as it does alone).
TEST(ChunkMemo, ReadsEachTextOfAStreamFromItsFrame) {
  ChunkMemo memo;
  const std::string head =
      R"({"id":"c-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":)";
  const std::string tail = R"(},"finish_reason":null}]})";
  for (const std::string text :
       {R"(" a")", R"("\"quoted\" \\ \n")", R"("")", R"("\u00e9")", R"(" x", "content":"y")",
        R"(" x" )", R"(null)", R"("é")", R"("unterminated)", R"("two" "strings")"}) {
    const std::string chunk = head + text + tail;
    SCOPED_TRACE(chunk);
    expect_same(memo_decode(memo, chunk, ChunkShape::kChat),
                stateless_decode(chunk, ChunkShape::kChat), chunk);
  }
  // The first text taught the frame; the next three (one string each, escapes included) were
  // read from it; the two-values chunk fell back and unlearned it, " x" with a space after it
  // taught a frame that null (another frame) missed and unlearned again, and the UTF-8,
  // unterminated and two-strings chunks are not the scan's (simdjson reads them).
  EXPECT_EQ(memo.frame_hits(), 3U);
  const std::string last =
      R"({"id":"c-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"length"}]})";
  const DecodedEvent end = memo_decode(memo, last, ChunkShape::kChat);
  EXPECT_EQ(end.content, "!");
  EXPECT_EQ(end.finish_reason, "length");  // another frame: scanned whole
  EXPECT_EQ(memo.frame_hits(), 3U);
  std::string again = last;
  again.replace(again.find("\"!\""), 3, R"("?\"")");
  const DecodedEvent from_frame = memo_decode(memo, again, ChunkShape::kChat);
  EXPECT_EQ(memo.frame_hits(), 4U);
  EXPECT_EQ(from_frame.content, "?\"");
  EXPECT_EQ(from_frame.finish_reason, "length");  // the frame's
  EXPECT_EQ(memo_decode(memo, last, ChunkShape::kCompletions).kind, DecodedEvent::Kind::kError);
}

// A server that sends usage with every chunk (vLLM's continuous usage) changes the counts from
// chunk to chunk: such a chunk is scanned whole and not remembered, and each reads its own counts.
TEST(ChunkMemo, AChunkWithUsageIsNotRemembered) {
  ChunkMemo memo;
  const std::string head =
      R"({"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":")";
  for (int i = 1; i <= 3; ++i) {
    const std::string chunk =
        head + "t" + std::to_string(i) +
        R"("},"finish_reason":null}],"usage":{"prompt_tokens":5,"completion_tokens":)" +
        std::to_string(i) + "}}";
    const DecodedEvent e = memo_decode(memo, chunk, ChunkShape::kChat);
    EXPECT_EQ(e.content, "t" + std::to_string(i));
    ASSERT_TRUE(e.usage.has_value()) << chunk;
    EXPECT_EQ(e.usage->completion_tokens, i);
  }
  // The same counts twice are still not read from a frame.
  const std::string same =
      head + R"(x"},"finish_reason":null}],"usage":{"prompt_tokens":5,"completion_tokens":3}})";
  EXPECT_EQ(memo_decode(memo, same, ChunkShape::kChat).usage->completion_tokens, 3);
  EXPECT_EQ(memo.frame_hits(), 0U);
}

// Chunks of every seed's frame with their text replaced (quotes, escapes, UTF-8 and stray bytes
// included) or the frame edited, read in one stream through one memo, decode exactly as each
// decodes alone.
TEST(ChunkMemo, AStreamDecodesAsItsChunksDoAlone) {
  const std::string alphabet = "ab \\\"\\n\\u00e9\\ud83d{}[]:,nul0\xc3\xa9\x01";
  std::mt19937 rng(20261206);
  for (const auto shape : {ChunkShape::kChat, ChunkShape::kCompletions}) {
    const auto& seeds = shape == ChunkShape::kChat ? kChatChunks : kCompletionChunks;
    for (const auto& seed : seeds) {
      ChunkMemo memo;
      const std::string key = shape == ChunkShape::kChat ? "\"content\":\"" : "\"text\":\"";
      const std::size_t at = seed.find(key);
      for (int i = 0; i < 800; ++i) {
        std::string p = seed;
        if (at != std::string::npos && rng() % 4 != 0) {
          // A new text: the seed's string body replaced by random pieces.
          const std::size_t begin = at + key.size();
          const std::size_t end = p.find('"', begin);
          std::string text;
          for (int n = static_cast<int>(rng() % 6); n > 0; --n)
            text += alphabet.substr(rng() % alphabet.size(), 1 + rng() % 3);
          p.replace(begin, end - begin, text);
        } else if (!p.empty()) {
          p[rng() % p.size()] = alphabet[rng() % alphabet.size()];  // the frame edited
        }
        expect_same(memo_decode(memo, p, shape), stateless_decode(p, shape), p);
        if (rng() % 5 == 0)
          expect_same(memo_decode(memo, seed, shape), stateless_decode(seed, shape), seed);
      }
    }
  }
}

}  // namespace
}  // namespace inferperf::endpoint
