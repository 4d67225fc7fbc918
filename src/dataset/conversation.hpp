// The dataset model: conversations of turns, frozen before the first request is sent.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace inferperf::dataset {

class PromptBlocks;

// A trace prompt that is assembled when its request is built (huge traces never hold every
// prompt in memory): the hash-id blocks' texts from PromptBlocks, then `tail`.
struct SynthesizedPrompt {
  int input_length = 0;                // tokens the trace row asks for
  std::vector<std::int64_t> hash_ids;  // shared blocks, in order
  std::string tail;                    // unshared text after the blocks (may be empty)
  int fresh_tokens = 0;                // tokens of `tail` still to be generated at load time
  std::uint64_t fresh_key = 0;         // seeds that text
};

using JsonPtr = std::shared_ptr<const nlohmann::ordered_json>;

// An image, audio clip or video of a turn, ready for the request body.
struct MediaItem {
  enum class Kind { kImage, kAudio, kVideo };
  Kind kind = Kind::kImage;
  std::string url;           // images and videos: an http(s) URL or a data: URI
  std::string audio_format;  // audio: "wav", "mp3", ...
  std::string audio_data;    // audio: base64
  std::string uuid;          // image_uuids: the server's multimodal cache id ("" = none)
};

struct Turn {
  std::string role = "user";
  std::string text;                     // the turn's (first) text
  std::vector<std::string> more_texts;  // further texts with --prompt-batch-size > 1
  std::optional<int> max_tokens;        // requested OSL; unset means no max-tokens field
  int synthetic_tokens = 0;             // tokens the composer aimed for (0 when unknown)
  std::optional<double> delay_ms;       // wait after the previous turn's reply (later turns)
  std::optional<double> timestamp_ms;   // trace time (input files), for fixed schedules
  std::vector<std::string> passages;    // rankings: texts named "passages" (`text` is the query)
  std::string model;                    // --model-selection-strategy's pick ("" = the first -m)
  std::optional<SynthesizedPrompt> synthesized;  // set: `text` is built from it per request
  JsonPtr messages;              // chat messages sent verbatim (mooncake `messages`)
  JsonPtr tools;                 // chat `tools` sent with `messages`
  JsonPtr payload;               // the whole request body, endpoint formatting bypassed
  JsonPtr extra;                 // merged into the body's top level last (row `extra`)
  std::vector<MediaItem> media;  // single_turn image(s) / audio(s) / video(s)
  // Tokens the request is known to carry without counting (synthesized prompts; 0 = count).
  int known_input_tokens() const { return synthesized ? synthesized->input_length : 0; }
};

// How a session's turns become request bodies (trace-formats §0).
enum class ContextMode {
  kDeltasWithoutResponses,    // each turn adds to the history, live replies threaded in
  kMessageArrayWithResponses  // each turn is a complete request; nothing accumulates
};

struct Conversation {
  std::string session_id;
  std::string
      user_context;  // --user-context-prompt-length: sent as a user message before the turns
  std::vector<Turn> turns;
  ContextMode context_mode = ContextMode::kDeltasWithoutResponses;
};

struct Dataset {
  std::string
      system_message;  // --shared-system-prompt-length: one system prompt for every conversation
  std::vector<Conversation> conversations;
  // The hash-id blocks synthesized prompts are assembled from (null when none).
  std::shared_ptr<const PromptBlocks> blocks;
};

// A turn with its text in place: synthesized prompts assembled, anything else copied.
Turn materialize(const Dataset& ds, const Turn& t);

}  // namespace inferperf::dataset
