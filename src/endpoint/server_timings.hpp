// Decoders of server-reported per-request timings (llama.cpp's `timings` object, ...) into
// ServerTimings (endpoint.hpp): a small registry tried on every decoded response object.
//
// Adding another server's fields:
//  - Body-based (a JSON object in the response or in the final SSE chunk): write a function with
//    the ServerTimingsDecoder signature that returns std::nullopt unless the object carries that
//    server's fields, and append {"name", function} to kDecoders in server_timings.cpp. The
//    decoders are tried in order; the first that returns a value wins. Decoders must never throw
//    and must return std::nullopt for anything malformed: server timings are extra information
//    and never turn a good response into an error.
//  - Header-based (e.g. TGI's x-compute-time / x-inference-time response headers): the response
//    header block reaches worker::ResponseCollector::on_header_fields only when its
//    wants_header_fields() says so (today: raw records only, so widen that too, and decode before
//    on_header_fields' early return); decode it there into the same
//    ServerTimings (set `source`) and store it on the record the way handle_payload does.
//    Everything downstream (records file, metrics, reports) only sees records::ServerTimings.
#pragma once
#include <simdjson.h>

#include <optional>
#include <string_view>
#include <vector>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

// Returns the timings `obj` (one whole response object or SSE payload) carries, or std::nullopt.
using ServerTimingsDecoder = std::optional<ServerTimings> (*)(const simdjson::dom::object& obj);

struct ServerTimingsDecoderEntry {
  std::string_view name;
  ServerTimingsDecoder decode = nullptr;
};

// The registered decoders, in the order they are tried.
const std::vector<ServerTimingsDecoderEntry>& server_timings_decoders();

// The first registered decoder's result for `obj`, or std::nullopt.
std::optional<ServerTimings> decode_server_timings(const simdjson::dom::object& obj);

// llama.cpp server: top-level "timings": {prompt_n, prompt_ms, predicted_n, predicted_ms,
// cache_n, ...}. A field of the wrong type, a negative value, or an object without prompt_ms and
// predicted_ms gives std::nullopt.
std::optional<ServerTimings> decode_llama_cpp_timings(const simdjson::dom::object& obj);

}  // namespace inferperf::endpoint
