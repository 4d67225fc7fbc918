#include "worker/response_collector.hpp"

namespace inferperf::worker {

void ResponseCollector::on_headers(int status, std::string_view reason,
                                   std::string_view content_type, core::MonoNs) {
  record_.status = status;
  reason_ = std::string(reason);
  sse_mode_ = status == 200 && content_type.starts_with("text/event-stream");
}

void ResponseCollector::on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t read_index) {
  last_ts_ = ts;
  last_read_ = read_index;
  if (!sse_mode_) {
    body_.append(bytes);
    return;
  }
  events_.clear();
  sse_.feed(bytes, events_);
  for (const auto& e : events_) {
    if (failed_) break;
    handle_event(e, ts, read_index);
  }
}

void ResponseCollector::handle_event(const sse::SseEvent& e, core::MonoNs ts,
                                     std::uint32_t read_index) {
  record_.events++;
  record_.last_event_ns = ts;
  if (e.event == "error") {
    std::string msg = !e.comment.empty() ? e.comment : e.data;
    fail(502, "SSEResponseError", msg.empty() ? "server sent an SSE error event" : msg);
    return;
  }
  if (!e.has_data) return;
  if (e.data == "[DONE]") return;
  handle_payload(e.data, ts, read_index);
}

void ResponseCollector::handle_payload(std::string_view payload, core::MonoNs ts,
                                       std::uint32_t read_index) {
  endpoint::DecodedEvent d = endpoint_.decode(payload);
  if (d.kind == endpoint::DecodedEvent::Kind::kError) {
    fail(std::nullopt, "ResponseParseError", d.error_message);
    return;
  }
  if (d.kind != endpoint::DecodedEvent::Kind::kData) return;
  if (d.usage) {
    // Keep the last non-null value of each field, as servers may send usage more than once.
    if (d.usage->prompt_tokens) record_.usage.prompt_tokens = d.usage->prompt_tokens;
    if (d.usage->completion_tokens) record_.usage.completion_tokens = d.usage->completion_tokens;
    if (d.usage->total_tokens) record_.usage.total_tokens = d.usage->total_tokens;
    if (d.usage->reasoning_tokens) record_.usage.reasoning_tokens = d.usage->reasoning_tokens;
  }
  if (!d.finish_reason.empty()) record_.finish_reason = d.finish_reason;
  if (!d.content.empty() || !d.reasoning.empty()) {
    record_.content_events.push_back(
        records::ContentEvent{ts, read_index, std::move(d.content), std::move(d.reasoning)});
    if (record_.content_events.size() == 1 && on_first_content) on_first_content();
  }
}

std::string ResponseCollector::content_text() const {
  std::string text;
  for (const auto& e : record_.content_events) text += e.content;
  return text;
}

void ResponseCollector::finish(core::MonoNs end_ns) {
  if (failed_) return;
  if (record_.status != 200) {
    std::string type = reason_.empty() ? "HTTPError" : reason_;
    fail(record_.status, type, body_.empty() ? "HTTP " + std::to_string(record_.status) : body_);
    return;
  }
  if (sse_mode_) {
    events_.clear();
    sse_.finish(events_);
    // A message left without its terminating blank line arrived with the last read.
    for (const auto& e : events_) {
      if (failed_) break;
      handle_event(e, last_ts_ ? last_ts_ : end_ns, last_read_);
    }
    return;
  }
  if (body_.empty()) return;
  record_.events++;
  record_.last_event_ns = last_ts_ ? last_ts_ : end_ns;
  handle_payload(body_, record_.last_event_ns, last_read_);
}

void ResponseCollector::fail(std::optional<int> code, std::string type, std::string message) {
  failed_ = true;
  record_.error = records::ErrorInfo{code, std::move(type), std::move(message)};
}

}  // namespace inferperf::worker
