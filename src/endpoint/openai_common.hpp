// Pieces shared by the OpenAI-style endpoints (chat, completions).
#pragma once
#include <simdjson.h>

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// Adds stream_options when asked, then merges --extra-inputs last so they can override anything.
void finish_body(nlohmann::ordered_json& body, const BodyOptions& o);
// The message of an OpenAI-style {"error": {...}} or {"detail": ...} object, if it is one.
std::optional<std::string> error_message_of(const simdjson::dom::object& obj);
DecodedEvent error_event(std::string message);
// The head every OpenAI-style choices answer shares (chat, completions): `payload` parsed with
// `parser`, its "object" one of `objects` (else `out` is the server's error or
// "unexpected <what> response object"), kind data, usage and server timings read, and `choice`
// set to choices[0]. Returns false when `out` is already the whole answer (an error, or no choice).
bool read_choices_head(std::string_view payload, std::initializer_list<std::string_view> objects,
                       std::string_view what, simdjson::dom::parser& parser,
                       std::string_view& object, simdjson::dom::element& choice, DecodedEvent& out);
// The `data` list of a list answer ({"data": [...]}): true with `data` set; else false with `out`
// holding the server's error message or "<what> response without a 'data' list".
bool data_list_of(const simdjson::dom::object& obj, std::string_view what,
                  simdjson::dom::array& data, DecodedEvent& out);
// An images answer (generation, edit): one output per data[] item with b64_json or url, and the
// usage when the server sent one.
DecodedEvent decode_image_data(const simdjson::dom::object& obj, std::string_view what);

// The chat body (docs/endpoints.md, Request bodies) and the chat response decoder, shared by chat,
// chat_embeddings and solido_rag.
nlohmann::ordered_json chat_body(const std::vector<dataset::Turn>& history, const BodyOptions& o);
// decode_chat takes the one-pass fast path (chunk_scan.hpp) when it can; the *_document decoders
// are the full simdjson readings it falls back to (and is tested against).
DecodedEvent decode_chat(std::string_view payload);
DecodedEvent decode_chat(std::string_view payload, ChunkMemo& memo);  // one stream's payload
DecodedEvent decode_chat_document(std::string_view payload);
DecodedEvent decode_completions_document(std::string_view payload);
// An embeddings response: every data[i].object must be "embedding" (chat_embeddings too).
DecodedEvent decode_embeddings(std::string_view payload);

// The last turn's model, else the run's.
std::string model_of(const std::vector<dataset::Turn>& history, const BodyOptions& o);
// Every text of a turn, in order.
std::vector<std::string> texts_of(const dataset::Turn& t);
// Every text of the history's turns, in order.
std::vector<std::string> all_texts(const std::vector<dataset::Turn>& history);
// Adds --extra-inputs to `body` (no stream_options).
void merge_extra(nlohmann::ordered_json& body, const BodyOptions& o);

}  // namespace inferperf::endpoint
