// HTTP/1.1 response text as the mock writes it: whole responses, the event-stream head and
// chunked-encoding frames.
#pragma once
#include <fmt/format.h>

#include <string>
#include <string_view>

namespace inferperf::mock::detail {

// A whole response with Content-Length.
std::string plain_response(int status, std::string_view content_type, std::string_view body,
                           bool keep_alive);

// The head of a 200 text/event-stream response in chunked encoding.
std::string sse_head(bool keep_alive);

// One chunked-encoding frame. Inline: it is on the per-token path.
inline std::string chunk(std::string_view data) {
  return fmt::format("{:x}\r\n{}\r\n", data.size(), data);
}

}  // namespace inferperf::mock::detail
