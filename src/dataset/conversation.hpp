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

// One chat message of a synthesized trace turn (weka_trace delta segments): its role and the
// hash-id blocks its text is assembled from when the request is built.
struct PromptSegment {
  std::string role;
  SynthesizedPrompt prompt;
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
  // Messages assembled per request (materialize() turns them into `messages`).
  std::vector<PromptSegment> segments;
  // The segments re-send the whole context: the session's earlier turns are dropped first.
  bool reset_context = false;
  // Tokens the request is known to carry without counting (synthesized prompts; 0 = count).
  int known_input_tokens() const {
    if (synthesized) return synthesized->input_length;
    int n = 0;
    for (const auto& s : segments) n += s.prompt.input_length;
    return n;
  }
};

// How a session's turns become request bodies (trace-formats §0).
enum class ContextMode {
  kDeltasWithoutResponses,     // each turn adds to the history, live replies threaded in
  kDeltasWithResponses,        // each turn adds the file's messages (assistant ones included)
                               // to the history; live replies are not threaded in
  kMessageArrayWithResponses,  // each turn is a complete request; nothing accumulates
};

// A child conversation a turn starts when it returns (weka_trace subagents).
struct ChildLink {
  int after_turn = 0;
  std::size_t child = 0;         // index of the child in Dataset::conversations
  double offset_ms = 0.0;        // the child's first turn is due this long after that return
  std::optional<int> join_turn;  // the parent turn that waits for it; nullopt: background
};

struct Conversation {
  std::string session_id;
  std::string
      user_context;  // --user-context-prompt-length: sent as a user message before the turns
  std::vector<Turn> turns;
  ContextMode context_mode = ContextMode::kDeltasWithoutResponses;
  bool child = false;  // started only by its parent's ChildLink, never as a session of its own
  std::vector<ChildLink> spawns;
};

struct Dataset {
  std::string
      system_message;  // --shared-system-prompt-length: one system prompt for every conversation
  std::vector<Conversation> conversations;
  // The hash-id blocks synthesized prompts are assembled from (null when none).
  std::shared_ptr<const PromptBlocks> blocks;
  // Every turn's model was set by the loader (--model-selection-strategy does not apply).
  bool models_assigned = false;
};

// A turn with its text in place: synthesized prompts assembled, anything else copied.
Turn materialize(const Dataset& ds, const Turn& t);

}  // namespace inferperf::dataset
