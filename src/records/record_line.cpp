#include "records/record_line.hpp"

#include "records/json_text.hpp"
#include "records/record_jsonl.hpp"

namespace inferperf::records {

namespace {

void put_opt(const char* k, const std::optional<std::int64_t>& v, bool& first, std::string& out) {
  if (!v) return;
  put_json_key(k, first, out);
  put_json_int(*v, out);
}

void put_opt(const char* k, const std::optional<double>& v, bool& first, std::string& out) {
  if (!v) return;
  put_json_key(k, first, out);
  put_json_double(*v, out);
}

}  // namespace

void append_record_line(const RequestRecord& r, const core::WallAnchor& a, std::string& out) {
  auto w = [&](core::MonoNs t) -> std::int64_t { return t == 0 ? 0 : a.to_wall(t); };
  bool first = true;
  auto int_field = [&](const char* k, std::int64_t v) {
    put_json_key(k, first, out);
    put_json_int(v, out);
  };
  auto str_field = [&](const char* k, std::string_view v) {
    put_json_key(k, first, out);
    put_json_string(v, out);
  };
  out.push_back('{');
  str_field("phase", to_string(r.phase));
  int_field("session_num", r.credit_num);
  str_field("x_request_id", r.x_request_id);
  str_field("x_correlation_id", r.x_correlation_id);
  str_field("conversation_id", r.conversation_id);
  int_field("turn_index", r.turn_index);
  int_field("worker_id", r.worker_id);
  int_field("intended_ns", w(r.intended_ns));
  int_field("issued_ns", w(r.issued_ns));
  int_field("start_ns", w(r.start_ns));
  int_field("connect_start_ns", w(r.connect_start_ns));
  int_field("connect_end_ns", w(r.connect_end_ns));
  if (r.tls_handshake_start_ns) {
    int_field("tls_handshake_start_ns", w(r.tls_handshake_start_ns));
    int_field("tls_handshake_end_ns", w(r.tls_handshake_end_ns));
  }
  int_field("send_start_ns", w(r.send_start_ns));
  int_field("send_end_ns", w(r.send_end_ns));
  int_field("headers_ns", w(r.headers_ns));
  int_field("first_byte_ns", w(r.first_byte_ns));
  int_field("last_event_ns", w(r.last_event_ns));
  int_field("end_ns", w(r.end_ns));
  int_field("status", r.status);
  put_json_key("connection_reused", first, out);
  out += r.connection_reused ? "true" : "false";
  if (r.connection_retries) int_field("connection_retries", r.connection_retries);
  int_field("bytes_sent", r.bytes_sent);
  int_field("bytes_received", r.bytes_received);
  int_field("reads", r.reads);
  if (r.kernel_stamped_reads) int_field("kernel_stamped_reads", r.kernel_stamped_reads);
  int_field("events", r.events);
  put_json_key("content_events", first, out);
  out.push_back('[');
  for (std::size_t i = 0; i < r.content_events.size(); ++i) {
    const auto& e = r.content_events[i];
    if (i) out.push_back(',');
    out.push_back('[');
    put_json_int(w(e.ts_ns), out);
    out.push_back(',');
    put_json_int(e.read_index, out);
    out.push_back(',');
    put_json_string(e.content, out);
    out.push_back(',');
    put_json_string(e.reasoning, out);
    out.push_back(']');
  }
  out.push_back(']');
  put_json_key("usage", first, out);
  {
    bool f = true;
    out.push_back('{');
    put_opt("prompt_tokens", r.usage.prompt_tokens, f, out);
    put_opt("completion_tokens", r.usage.completion_tokens, f, out);
    put_opt("total_tokens", r.usage.total_tokens, f, out);
    put_opt("reasoning_tokens", r.usage.reasoning_tokens, f, out);
    put_opt("prompt_cache_read_tokens", r.usage.prompt_cache_read_tokens, f, out);
    put_opt("prompt_cache_write_tokens", r.usage.prompt_cache_write_tokens, f, out);
    put_opt("prompt_cache_miss_tokens", r.usage.prompt_cache_miss_tokens, f, out);
    put_opt("tool_use_prompt_tokens", r.usage.tool_use_prompt_tokens, f, out);
    put_opt("prompt_audio_seconds", r.usage.prompt_audio_seconds, f, out);
    put_opt("prompt_audio_tokens", r.usage.prompt_audio_tokens, f, out);
    put_opt("completion_audio_tokens", r.usage.completion_audio_tokens, f, out);
    put_opt("accepted_prediction_tokens", r.usage.accepted_prediction_tokens, f, out);
    put_opt("rejected_prediction_tokens", r.usage.rejected_prediction_tokens, f, out);
    out.push_back('}');
  }
  if (const auto& st = r.server_timings) {
    put_json_key("server_timings", first, out);
    bool f = true;
    out.push_back('{');
    put_json_key("source", f, out);
    put_json_string(st->source, out);
    put_opt("prefill_ms", st->prefill_ms, f, out);
    put_opt("decode_ms", st->decode_ms, f, out);
    put_opt("prompt_tokens", st->prompt_tokens, f, out);
    put_opt("predicted_tokens", st->predicted_tokens, f, out);
    put_opt("cached_tokens", st->cached_tokens, f, out);
    out.push_back('}');
  }
  if (r.requested_osl) int_field("requested_osl", *r.requested_osl);
  if (!r.finish_reason.empty()) str_field("finish_reason", r.finish_reason);
  if (r.outputs) int_field("outputs", r.outputs);
  if (r.input_images) int_field("input_images", r.input_images);
  if (r.video_inference_time_s) {
    put_json_key("video_inference_time_s", first, out);
    put_json_double(*r.video_inference_time_s, out);
  }
  if (r.video_peak_memory_mb) {
    put_json_key("video_peak_memory_mb", first, out);
    put_json_double(*r.video_peak_memory_mb, out);
  }
  const auto& ct = r.client_tokens;
  if (ct.input || ct.output || ct.reasoning || !ct.per_event.empty()) {
    put_json_key("client_tokens", first, out);
    bool f = true;
    out.push_back('{');
    put_opt("input", ct.input, f, out);
    put_opt("output", ct.output, f, out);
    put_opt("reasoning", ct.reasoning, f, out);
    if (!ct.per_event.empty()) {
      put_json_key("per_event", f, out);
      out.push_back('[');
      for (std::size_t i = 0; i < ct.per_event.size(); ++i) {
        if (i) out.push_back(',');
        put_json_int(ct.per_event[i], out);
      }
      out.push_back(']');
    }
    if (ct.output_estimated) {
      put_json_key("output_estimated", f, out);
      out += "true";
    }
    out.push_back('}');
  }
  if (r.error) {
    put_json_key("error", first, out);
    bool f = true;
    out.push_back('{');
    put_json_key("code", f, out);
    if (r.error->code) {
      put_json_int(*r.error->code, out);
    } else {
      out += "null";
    }
    put_json_key("type", f, out);
    put_json_string(r.error->type.name(), out);
    put_json_key("message", f, out);
    put_json_string(r.error->message, out);
    out.push_back('}');
  }
  if (r.was_cancelled) {
    put_json_key("was_cancelled", first, out);
    out += "true";
  }
  out.push_back('}');
}

}  // namespace inferperf::records
