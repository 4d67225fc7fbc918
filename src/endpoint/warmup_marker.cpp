// AIPerf 0.11 (#1040): warmup requests are made cache-distinct, so a server's prefix cache filled
// by the warmup cannot serve the profiling requests' prompts. The marker is applied to the finished
// JSON body (a built body, a trace's verbatim messages or a row's payload alike), and only on the
// warmup path: profiling bodies are never touched.
#include <string>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

namespace {

constexpr const char* kWarmupText = "warmup";

// A system text slot: a string becomes "warmup\n<text>" (plain "warmup" when empty); a list of
// content parts / blocks gets a leading text part "warmup", the original parts kept byte for byte;
// null or absent becomes "warmup". Any other shape is left alone (not ours to reinterpret).
void mark_system_slot(nlohmann::ordered_json& slot) {
  if (slot.is_null()) {
    slot = kWarmupText;
  } else if (slot.is_string()) {
    const std::string original = slot.get<std::string>();
    slot = original.empty() ? std::string(kWarmupText) : std::string(kWarmupText) + "\n" + original;
  } else if (slot.is_array()) {
    slot.insert(slot.begin(), nlohmann::ordered_json{{"type", "text"}, {"text", kWarmupText}});
  }
}

// OpenAI messages: a leading system message carries the marker; without one a system message
// `warmup` is put first.
bool mark_chat_messages(nlohmann::ordered_json& body) {
  auto it = body.find("messages");
  if (it == body.end() || !it->is_array()) return false;
  auto& messages = *it;
  if (!messages.empty() && messages[0].is_object() && messages[0].value("role", "") == "system") {
    mark_system_slot(messages[0]["content"]);
    return true;
  }
  messages.insert(messages.begin(),
                  nlohmann::ordered_json{{"role", "system"}, {"content", kWarmupText}});
  return true;
}

// A top-level system field (Anthropic `system`, Responses `instructions`): those protocols have
// no system role inside their message lists.
bool mark_system_field(nlohmann::ordered_json& body, const char* key) {
  if (!body.contains("messages") && !body.contains("input")) return false;  // not this protocol
  mark_system_slot(body[key]);
  return true;
}

// Completions: every prompt string gets "warmup\n" in front (a list of strings is a batch of
// prompts, each its own cache entry); token-id prompts are left alone.
bool mark_prompt(nlohmann::ordered_json& body) {
  auto it = body.find("prompt");
  if (it == body.end()) return false;
  const std::string prefix = std::string(kWarmupText) + "\n";
  bool changed = false;
  auto mark = [&](nlohmann::ordered_json& p) {
    if (!p.is_string()) return;
    p = prefix + p.get<std::string>();
    changed = true;
  };
  if (it->is_array()) {
    for (auto& p : *it) mark(p);
  } else {
    mark(*it);
  }
  return changed;
}

}  // namespace

bool apply_warmup_marker(nlohmann::ordered_json& body, config::EndpointType type) {
  using config::EndpointType;
  if (!body.is_object()) return false;
  switch (type) {
    case EndpointType::kChat:
    case EndpointType::kChatEmbeddings:
      return mark_chat_messages(body);
    case EndpointType::kMessages:
      return mark_system_field(body, "system");
    case EndpointType::kResponses:
      return mark_system_field(body, "instructions");
    case EndpointType::kCompletions:
      return mark_prompt(body);
    default:
      // Embeddings, rankings, images, video, huggingface_generate, solido_rag and template bodies
      // have no system slot or completions prompt: sent as built.
      return false;
  }
}

}  // namespace inferperf::endpoint
