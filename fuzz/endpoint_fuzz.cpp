// Every endpoint decoder: a whole response body, or an SSE stream whose events are decoded one by
// one as the response collector does (through the stream's chunk memo, as each decodes alone);
// whatever the one-pass scan accepts, as the full chat or completions decoder reads it. The
// first byte picks the endpoint type and the mode; for the template endpoint the next two lines are
// its payload_template and response_field.
//
// Input: [type byte] [mode byte] (template: TEMPLATE\nRESPONSE_FIELD\n) BODY
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/run_config.hpp"
#include "endpoint/chunk_scan.hpp"
#include "endpoint/endpoint.hpp"
#include "endpoint/openai_common.hpp"
#include "fuzz_input.hpp"
#include "sse/sse_parser.hpp"

namespace {

namespace endpoint = inferperf::endpoint;
using inferperf::config::EndpointType;
constexpr int kEndpointTypes = static_cast<int>(EndpointType::kMessages) + 1;

bool same(const endpoint::DecodedEvent& a, const endpoint::DecodedEvent& b) {
  return a.kind == b.kind && a.content == b.content && a.reasoning == b.reasoning &&
         a.finish_reason == b.finish_reason && a.error_message == b.error_message &&
         a.outputs == b.outputs && a.progress == b.progress &&
         a.tool_calls.size() == b.tool_calls.size() && a.usage == b.usage &&
         a.job.has_value() == b.job.has_value();
}

// What the one-pass scan accepts, the full simdjson decoder reads the same way.
void scan_checked(std::string_view payload) {
  endpoint::DecodedEvent fast;
  if (endpoint::scan_chunk(payload, endpoint::ChunkShape::kChat, fast))
    FUZZ_CHECK(same(fast, endpoint::decode_chat_document(payload)));
  fast = {};
  if (endpoint::scan_chunk(payload, endpoint::ChunkShape::kCompletions, fast))
    FUZZ_CHECK(same(fast, endpoint::decode_completions_document(payload)));
}

// Decodes twice: decoders keep a thread_local parser, so a second call must not see leftovers;
// then the one-pass scan against the document decoders, whatever the endpoint type.
void decode_checked(const endpoint::Endpoint& ep, std::string_view payload) {
  const endpoint::DecodedEvent first = ep.decode(payload);
  FUZZ_CHECK(first.kind != endpoint::DecodedEvent::Kind::kError || !first.error_message.empty());
  FUZZ_CHECK(first.outputs >= 0);
  FUZZ_CHECK(same(first, ep.decode(payload)));
  scan_checked(payload);
}

std::unique_ptr<endpoint::Endpoint> template_endpoint(inferperf::fuzz::FuzzInput& in) {
  std::string source(in.until('\n'));
  const std::string field(in.until('\n'));
  // Without a '{' the source names a file to read; the harness never reads files.
  if (source.find('{') == std::string::npos) source = "nv-embedqa";
  std::vector<std::pair<std::string, nlohmann::json>> extra = {{"payload_template", source}};
  if (!field.empty()) extra.emplace_back("response_field", field);
  auto made = endpoint::create_endpoint(EndpointType::kTemplate, extra);
  return made ? std::move(*made) : nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  const auto type = static_cast<EndpointType>(in.byte() % kEndpointTypes);
  const bool streamed = (in.byte() & 1) != 0;
  std::unique_ptr<endpoint::Endpoint> ep =
      type == EndpointType::kTemplate ? template_endpoint(in) : endpoint::make_endpoint(type);
  if (!ep) return 0;  // a template that does not configure: refused at start-up, never decoded
  const std::string_view body = in.rest();
  if (!streamed) {
    decode_checked(*ep, body);
    return 0;
  }
  inferperf::sse::SseParser parser;
  std::vector<inferperf::sse::SseEvent> events;
  parser.feed(body, events);
  parser.finish(events);
  endpoint::ChunkMemo memo;  // one stream's, as the collector keeps it
  for (const auto& e : events) {
    // The collector decodes data events except the end marker; error events never reach it.
    if (e.has_data && e.data != "[DONE]" && e.event != "error") {
      decode_checked(*ep, e.data);
      // Through the stream's memo: as the event decodes alone.
      FUZZ_CHECK(same(ep->decode_streamed(e.data, memo), ep->decode(e.data)));
    }
  }
  return 0;
}
