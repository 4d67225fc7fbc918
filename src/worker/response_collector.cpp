#include "worker/response_collector.hpp"

#include <algorithm>

#include "core/byte_size.hpp"
#include "core/secrets.hpp"
#include "endpoint/tool_calls.hpp"
#include "records/raw_exchange.hpp"
#include "transport/http_exchange.hpp"

namespace inferperf::worker {

using core::RequestErrorKind;

void ResponseCollector::on_header_fields(std::string_view fields) {
  if (!record_.raw) return;
  auto& out = record_.raw->response_headers;
  while (!fields.empty()) {
    const std::size_t nl = fields.find('\n');
    std::string_view line = fields.substr(0, nl);
    fields.remove_prefix(nl == std::string_view::npos ? fields.size() : nl + 1);
    const std::size_t colon = line.find(": ");
    if (colon == std::string_view::npos) continue;
    std::string name(line.substr(0, colon));
    // Set-Cookie and other credentials the server hands out are never written out.
    const bool secret = core::is_secret_name(name);
    std::string_view value = secret ? core::kRedacted : line.substr(colon + 2);
    // A repeated header becomes one comma-separated value (RFC 9110, 5.3).
    auto same =
        std::find_if(out.begin(), out.end(), [&](const auto& h) { return h.first == name; });
    if (same != out.end()) {
      if (secret) continue;
      same->second += ", ";
      same->second += value;
    } else {
      out.emplace_back(std::move(name), value);
    }
  }
}

void ResponseCollector::on_headers(int status, std::string_view reason,
                                   std::string_view content_type, core::MonoNs ts) {
  record_.status = status;
  reason_ = std::string(reason);
  sse_mode_ = transport::is_success_status(status) && content_type.starts_with("text/event-stream");
  if (record_.raw) {
    raw_content_type_ = std::string(content_type);
    headers_ts_ = ts;
  }
}

void ResponseCollector::on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t read_index) {
  last_ts_ = ts;
  last_read_ = read_index;
  if (!sse_mode_) {
    body_.append(bytes);
    if (record_.raw) raw_text_.append(bytes);
    return;
  }
  const std::size_t n = sse_.refill(bytes, events_);
  for (std::size_t i = 0; i < n; ++i) {
    auto& e = events_[i];
    if (record_.raw) keep_raw(e, ts);  // every message received, even after an error event
    if (!failed_) handle_event(e, ts, read_index);
  }
  if (sse_.overflowed() && !failed_) {
    // wants_more() turns false: the exchange stops reading and closes the connection, whose
    // stream cannot be resynchronised.
    fail(std::nullopt, RequestErrorKind::kSseEventTooLarge,
         "SSE event exceeded --max-sse-event-bytes (" +
             core::format_byte_size(max_sse_event_bytes_) + ")");
  }
}

void ResponseCollector::keep_raw(sse::SseEvent& e, core::MonoNs ts) {
  records::RawResponse r;
  r.perf_ns = ts;
  r.packets = std::move(e.fields);
  record_.raw->responses.push_back(std::move(r));
}

void ResponseCollector::handle_event(const sse::SseEvent& e, core::MonoNs ts,
                                     std::uint32_t read_index) {
  record_.events++;
  record_.last_event_ns = ts;
  if (e.event == "error") {
    std::string msg = !e.comment.empty() ? e.comment : std::string(e.text());
    fail(502, RequestErrorKind::kSseResponse, msg.empty() ? "server sent an SSE error event" : msg);
    return;
  }
  if (!e.has_data) return;
  if (e.text() == "[DONE]") return;
  handle_payload(e.text(), ts, read_index);
}

void ResponseCollector::handle_payload(std::string_view payload, core::MonoNs ts,
                                       std::uint32_t read_index) {
  // Decoded straight into `d` (no event moved per payload on the streaming path).
  std::string thrown;
  endpoint::DecodedEvent d = [&]() -> endpoint::DecodedEvent {
    try {
      return sse_mode_ ? endpoint_.decode_streamed(payload, chunk_memo_)
                       : endpoint_.decode(payload);
    } catch (const std::exception& e) {
      thrown = std::string("cannot decode the response: ") + e.what();
      return {};
    }
  }();
  if (!thrown.empty()) {
    // A decoder must never take the worker down: the response is an error record.
    fail(std::nullopt, RequestErrorKind::kResponseParse, std::move(thrown));
    return;
  }
  if (d.kind == endpoint::DecodedEvent::Kind::kError) {
    fail(std::nullopt, RequestErrorKind::kResponseParse, d.error_message);
    return;
  }
  if (d.kind != endpoint::DecodedEvent::Kind::kData) return;
  if (d.usage) {
    // As AIPerf 0.11: the last response that carries usage replaces any earlier one whole, so a
    // field the last usage object lacks is absent even if an earlier chunk had it.
    const auto& u = *d.usage;
    record_.usage = records::UsageCounts{u.prompt_tokens,
                                         u.completion_tokens,
                                         u.total_tokens,
                                         u.reasoning_tokens,
                                         u.prompt_cache_read_tokens,
                                         u.prompt_cache_write_tokens,
                                         u.prompt_cache_miss_tokens,
                                         u.tool_use_prompt_tokens,
                                         u.prompt_audio_seconds,
                                         u.prompt_audio_tokens,
                                         u.completion_audio_tokens,
                                         u.accepted_prediction_tokens,
                                         u.rejected_prediction_tokens};
  }
  if (d.server_timings) {
    // The latest object replaces any earlier one whole (llama.cpp can send timings with every
    // chunk; the final chunk's cover the whole request), so fields of two sources never mix.
    const auto& t = *d.server_timings;
    record_.server_timings = records::ServerTimings{
        t.prefill_ms, t.decode_ms, t.prompt_tokens, t.predicted_tokens, t.cached_tokens, t.source};
  }
  if (!d.finish_reason.empty()) record_.finish_reason = d.finish_reason;
  if (keep_reply_) {
    // The arguments end the event's content: the history's text leaves them out.
    const std::size_t args =
        endpoint::merge_tool_call_fragments(tool_calls_, std::move(d.tool_calls));
    if (args <= d.content.size()) plain_text_.append(d.content, 0, d.content.size() - args);
  }
  record_.outputs += d.outputs;
  if (d.job) {
    if (d.job->inference_time_s) record_.video_inference_time_s = d.job->inference_time_s;
    if (d.job->peak_memory_mb) record_.video_peak_memory_mb = d.job->peak_memory_mb;
    job_ = std::move(d.job);
  }
  if (!d.content.empty() || !d.reasoning.empty() || d.outputs > 0 || d.progress) {
    // A stream gets room for its answer's events at once, not a copy of every event per
    // doubling: one per requested token (a server sends at most one content event per token it
    // generates), at most 256 (20 KiB: an answer that stops early or a server that sends several
    // tokens per event leaves no more unused room than doubling from 32 did); 32 when no length
    // was asked for.
    if (sse_mode_ && record_.content_events.empty()) {
      constexpr int kUnknownLengthRoom = 32;
      constexpr int kMostRoom = 256;
      const int room = record_.requested_osl.value_or(kUnknownLengthRoom);
      record_.content_events.reserve(static_cast<std::size_t>(std::clamp(room, 1, kMostRoom)));
    }
    record_.content_events.emplace_back(ts, read_index, std::move(d.content),
                                        std::move(d.reasoning));
    if (record_.content_events.size() == 1 && on_first_content) on_first_content();
  }
}

std::string ResponseCollector::content_text() const {
  std::string text;
  for (const auto& e : record_.content_events) text += e.content;
  return text;
}

void ResponseCollector::restart() {
  raw_text_.clear();
  raw_content_type_.clear();
  sse_ = sse::SseParser();
  if (record_.raw) sse_.keep_fields(true);
  sse_.max_event_bytes(max_sse_event_bytes_);
  sse_mode_ = false;
  reason_.clear();
  body_.clear();
  job_.reset();
}

void ResponseCollector::finish(core::MonoNs end_ns) {
  if (failed_) return;
  if (!transport::is_success_status(record_.status)) {
    // The record keeps the first 4 KiB of an error body; --export-level raw keeps all of it.
    constexpr std::size_t kKeptErrorBytes = 4096;
    std::string message = body_.empty() ? "HTTP " + std::to_string(record_.status) : body_;
    if (message.size() > kKeptErrorBytes) {
      const std::size_t total = message.size();
      message.resize(kKeptErrorBytes);
      message += "... (" + std::to_string(total) + " bytes)";
    }
    // Named by its reason phrase ("Not Found"), or HTTPError without one.
    fail(record_.status, core::RequestErrorType::http(reason_), std::move(message));
    return;
  }
  if (sse_mode_) {
    events_.clear();
    sse_.finish(events_);
    // A message left without its terminating blank line arrived with the last read.
    const core::MonoNs ts = last_ts_ ? last_ts_ : end_ns;
    for (auto& e : events_) {
      if (record_.raw) keep_raw(e, ts);
      if (!failed_) handle_event(e, ts, last_read_);
    }
    return;
  }
  if (body_.empty()) return;
  record_.events++;
  record_.last_event_ns = last_ts_ ? last_ts_ : end_ns;
  handle_payload(body_, record_.last_event_ns, last_read_);
}

void ResponseCollector::finish_raw(core::MonoNs end_ns) {
  if (!record_.raw || record_.status == 0 || sse_mode_) return;  // no response, or SSE messages
  records::RawResponse r;
  r.perf_ns = last_ts_ ? last_ts_ : (headers_ts_ ? headers_ts_ : end_ns);
  r.text = std::move(raw_text_);
  r.content_type = std::move(raw_content_type_);
  record_.raw->responses.push_back(std::move(r));
}

void ResponseCollector::fail(std::optional<int> code, core::RequestErrorType type,
                             std::string message) {
  failed_ = true;
  record_.error = records::ErrorInfo{code, std::move(type), std::move(message)};
}

}  // namespace inferperf::worker
