// Pieces shared by the OpenAI-style endpoints (chat, completions).
#pragma once
#include <simdjson.h>

#include <memory>
#include <optional>
#include <string>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// Adds stream_options when asked, then merges --extra-inputs last so they can override anything.
void finish_body(nlohmann::ordered_json& body, const BodyOptions& o);
// The message of an OpenAI-style {"error": {...}} or {"detail": ...} object, if it is one.
std::optional<std::string> error_message_of(const simdjson::dom::object& obj);
DecodedEvent error_event(std::string message);

std::unique_ptr<Endpoint> make_chat_endpoint();
std::unique_ptr<Endpoint> make_completions_endpoint();

}  // namespace inferperf::endpoint
