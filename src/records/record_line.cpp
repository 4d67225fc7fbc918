#include "records/record_line.hpp"

#include <array>
#include <cstring>

#include "records/json_text.hpp"
#include "records/record_jsonl.hpp"

namespace inferperf::records {

namespace {

void put_opt(JsonObjectText& o, std::string_view k, const std::optional<std::int64_t>& v) {
  if (v) o.integer(k, *v);
}

void put_opt(JsonObjectText& o, std::string_view k, const std::optional<double>& v) {
  if (v) o.number(k, *v);
}

// `[ts,read,"content","reasoning"]`. A streamed run has one per token: when both texts are plain
// and short (a token's text) the event is assembled on the stack and appended once, not in nine
// appends (they were most of the records writer's instructions per streamed event).
void put_content_event(std::int64_t wall_ts, std::uint32_t read, std::string_view content,
                       std::string_view reasoning, std::string& out) {
  std::array<char, 192> buf;
  constexpr std::size_t kNumbersAndPunctuation = kJsonIntMaxBytes + 10 + 9;  // 10: a uint32
  if (content.size() + reasoning.size() + kNumbersAndPunctuation > buf.size() ||
      !is_plain_json_text(content) || !is_plain_json_text(reasoning)) {
    out.push_back('[');
    put_json_int(wall_ts, out);
    out.push_back(',');
    put_json_int(read, out);
    out.push_back(',');
    put_json_string(content, out);
    out.push_back(',');
    put_json_string(reasoning, out);
    out.push_back(']');
    return;
  }
  char* p = buf.data();
  auto put = [&p](std::string_view text) {
    if (!text.empty()) std::memcpy(p, text.data(), text.size());  // an empty view: no pointer
    p += text.size();
  };
  *p++ = '[';
  p += format_json_int(wall_ts, p);
  *p++ = ',';
  p += format_json_int(read, p);
  put(",\"");
  put(content);
  put("\",\"");
  put(reasoning);
  put("\"]");
  out.append(buf.data(), static_cast<std::size_t>(p - buf.data()));
}

void put_content_events(const RequestRecord& r, const core::WallAnchor& a, std::string& out) {
  out.push_back('[');
  for (std::size_t i = 0; i < r.content_events.size(); ++i) {
    const auto& e = r.content_events[i];
    if (i) out.push_back(',');
    put_content_event(e.ts_ns == 0 ? 0 : a.to_wall(e.ts_ns), e.read_index, e.content, e.reasoning,
                      out);
  }
  out.push_back(']');
}

void put_usage(const UsageCounts& u, std::string& out) {
  JsonObjectText o(out);
  put_opt(o, "prompt_tokens", u.prompt_tokens);
  put_opt(o, "completion_tokens", u.completion_tokens);
  put_opt(o, "total_tokens", u.total_tokens);
  put_opt(o, "reasoning_tokens", u.reasoning_tokens);
  put_opt(o, "prompt_cache_read_tokens", u.prompt_cache_read_tokens);
  put_opt(o, "prompt_cache_write_tokens", u.prompt_cache_write_tokens);
  put_opt(o, "prompt_cache_miss_tokens", u.prompt_cache_miss_tokens);
  put_opt(o, "tool_use_prompt_tokens", u.tool_use_prompt_tokens);
  put_opt(o, "prompt_audio_seconds", u.prompt_audio_seconds);
  put_opt(o, "prompt_audio_tokens", u.prompt_audio_tokens);
  put_opt(o, "completion_audio_tokens", u.completion_audio_tokens);
  put_opt(o, "accepted_prediction_tokens", u.accepted_prediction_tokens);
  put_opt(o, "rejected_prediction_tokens", u.rejected_prediction_tokens);
  o.close();
}

void put_server_timings(const ServerTimings& st, std::string& out) {
  JsonObjectText o(out);
  o.string("source", st.source);
  put_opt(o, "prefill_ms", st.prefill_ms);
  put_opt(o, "decode_ms", st.decode_ms);
  put_opt(o, "prompt_tokens", st.prompt_tokens);
  put_opt(o, "predicted_tokens", st.predicted_tokens);
  put_opt(o, "cached_tokens", st.cached_tokens);
  o.close();
}

void put_client_tokens(const ClientTokens& ct, std::string& out) {
  JsonObjectText o(out);
  put_opt(o, "input", ct.input);
  put_opt(o, "output", ct.output);
  put_opt(o, "reasoning", ct.reasoning);
  if (!ct.per_event.empty()) {
    std::string& list = o.member("per_event");
    list.push_back('[');
    for (std::size_t i = 0; i < ct.per_event.size(); ++i) {
      if (i) list.push_back(',');
      put_json_int(ct.per_event[i], list);
    }
    list.push_back(']');
  }
  if (ct.output_estimated) o.boolean("output_estimated", true);
  o.close();
}

// The stamps and counters, in the order record_to_json writes them.
void put_exchange(const RequestRecord& r, const core::WallAnchor& a, JsonObjectText& o) {
  auto stamp = [&](std::string_view k, core::MonoNs t) __attribute__((always_inline)) {
    o.integer(k, t == 0 ? 0 : a.to_wall(t));
  };
  stamp("intended_ns", r.intended_ns);
  stamp("issued_ns", r.issued_ns);
  stamp("start_ns", r.start_ns);
  stamp("connect_start_ns", r.connect_start_ns);
  stamp("connect_end_ns", r.connect_end_ns);
  if (r.tls_handshake_start_ns) {
    stamp("tls_handshake_start_ns", r.tls_handshake_start_ns);
    stamp("tls_handshake_end_ns", r.tls_handshake_end_ns);
  }
  stamp("send_start_ns", r.send_start_ns);
  stamp("send_end_ns", r.send_end_ns);
  stamp("headers_ns", r.headers_ns);
  stamp("first_byte_ns", r.first_byte_ns);
  stamp("last_event_ns", r.last_event_ns);
  stamp("end_ns", r.end_ns);
  o.integer("status", r.status);
  o.boolean("connection_reused", r.connection_reused);
  if (r.connection_retries) o.integer("connection_retries", r.connection_retries);
  o.integer("bytes_sent", r.bytes_sent);
  o.integer("bytes_received", r.bytes_received);
  o.integer("reads", r.reads);
  if (r.kernel_stamped_reads) o.integer("kernel_stamped_reads", r.kernel_stamped_reads);
  o.integer("events", r.events);
}

}  // namespace

void append_error_json(const ErrorInfo& e, std::string& out) {
  JsonObjectText o(out);
  if (e.code)
    o.integer("code", *e.code);
  else
    o.member("code") += "null";
  o.string("type", e.type.name());
  o.string("message", e.message);
  o.close();
}

void append_record_line(const RequestRecord& r, const core::WallAnchor& a, std::string& out) {
  JsonObjectText o(out);
  o.string("phase", to_string(r.phase));
  o.integer("session_num", r.credit_num);
  o.string("x_request_id", r.x_request_id);
  o.string("x_correlation_id", r.x_correlation_id);
  o.string("conversation_id", r.conversation_id);
  o.integer("turn_index", r.turn_index);
  o.integer("worker_id", r.worker_id);
  put_exchange(r, a, o);
  put_content_events(r, a, o.member("content_events"));
  put_usage(r.usage, o.member("usage"));
  if (r.server_timings) put_server_timings(*r.server_timings, o.member("server_timings"));
  if (r.requested_osl) o.integer("requested_osl", *r.requested_osl);
  if (!r.finish_reason.empty()) o.string("finish_reason", r.finish_reason);
  if (r.outputs) o.integer("outputs", r.outputs);
  if (r.input_images) o.integer("input_images", r.input_images);
  if (r.video_inference_time_s) o.number("video_inference_time_s", *r.video_inference_time_s);
  if (r.video_peak_memory_mb) o.number("video_peak_memory_mb", *r.video_peak_memory_mb);
  const auto& ct = r.client_tokens;
  if (ct.input || ct.output || ct.reasoning || !ct.per_event.empty())
    put_client_tokens(ct, o.member("client_tokens"));
  if (r.error) append_error_json(*r.error, o.member("error"));
  if (r.was_cancelled) o.boolean("was_cancelled", true);
  o.close();
}

}  // namespace inferperf::records
