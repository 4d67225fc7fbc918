// --export-level raw: one exchange as it went over the wire (profile_export_raw.jsonl). Captured on
// the worker only when the plan asks for it; a record without it carries a null pointer.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/clock.hpp"

namespace inferperf::records {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// One response message: an SSE message (its field lines in order) or a whole non-streaming body.
struct RawResponse {
  core::MonoNs perf_ns = 0;         // stamp of the socket read that completed it
  HeaderList packets;               // SSE fields (name, value); comments are named "comment"
  std::optional<std::string> text;  // set for a non-streaming body (the whole of it)
  std::string content_type;         // with `text`
};

struct RawExchange {
  std::string payload;          // the request body exactly as sent
  HeaderList request_headers;   // as sent, secrets already replaced by core::kRedacted
  HeaderList response_headers;  // as received, secrets (Set-Cookie, ...) replaced too
  std::vector<RawResponse> responses;
};

// Splits the head of a serialized HTTP/1.1 request ("name: value" lines after the request line) and
// returns its headers with the values of secret ones (core::is_secret_name) redacted.
HeaderList redacted_request_headers(std::string_view request_head);

}  // namespace inferperf::records
