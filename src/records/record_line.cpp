#include "records/record_line.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "records/record_jsonl.hpp"

namespace inferperf::records {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one (the same checks
// as nlohmann's decoder: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  const std::size_t left = s.size() - i;
  auto cont = [&](std::size_t k) { return k < left && (b(k) & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// Printable ASCII that JSON keeps as it is: copied in runs, not a character at a time (the records
// writer formats every token's text of a streamed run).
bool verbatim(unsigned char c) {
  return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

void put_string(std::string_view s, std::string& out) {
  const std::size_t mark = out.size();
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    std::size_t run = i;
    while (run < s.size() && verbatim(static_cast<unsigned char>(s[run]))) ++run;
    out.append(s.data() + i, run - i);
    i = run;
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length(s, i);
      if (n == 0) {
        // Invalid UTF-8: nlohmann's own replacement rules, for this rare string only.
        out.resize(mark);
        out += nlohmann::json(std::string(s))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
      }
      out.append(s.data() + i, n);
      i += n;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

void put_int(std::int64_t v, std::string& out) {
  const fmt::format_int text(v);
  out.append(text.data(), text.size());
}

// Doubles are rare here (server timings, video fields): nlohmann formats them, so the bytes match.
void put_double(double v, std::string& out) {
  out += nlohmann::json(v).dump();
}

// One "key": prefix; `first` tracks the comma of the enclosing object.
void key(const char* k, bool& first, std::string& out) {
  if (!first) out.push_back(',');
  first = false;
  out.push_back('"');
  out += k;
  out += "\":";
}

void put_opt(const char* k, const std::optional<std::int64_t>& v, bool& first, std::string& out) {
  if (!v) return;
  key(k, first, out);
  put_int(*v, out);
}

void put_opt(const char* k, const std::optional<double>& v, bool& first, std::string& out) {
  if (!v) return;
  key(k, first, out);
  put_double(*v, out);
}

}  // namespace

void append_record_line(const RequestRecord& r, const core::WallAnchor& a, std::string& out) {
  auto w = [&](core::MonoNs t) -> std::int64_t { return t == 0 ? 0 : a.to_wall(t); };
  bool first = true;
  auto int_field = [&](const char* k, std::int64_t v) {
    key(k, first, out);
    put_int(v, out);
  };
  auto str_field = [&](const char* k, std::string_view v) {
    key(k, first, out);
    put_string(v, out);
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
  key("connection_reused", first, out);
  out += r.connection_reused ? "true" : "false";
  if (r.connection_retries) int_field("connection_retries", r.connection_retries);
  int_field("bytes_sent", r.bytes_sent);
  int_field("bytes_received", r.bytes_received);
  int_field("reads", r.reads);
  if (r.kernel_stamped_reads) int_field("kernel_stamped_reads", r.kernel_stamped_reads);
  int_field("events", r.events);
  key("content_events", first, out);
  out.push_back('[');
  for (std::size_t i = 0; i < r.content_events.size(); ++i) {
    const auto& e = r.content_events[i];
    if (i) out.push_back(',');
    out.push_back('[');
    put_int(w(e.ts_ns), out);
    out.push_back(',');
    put_int(e.read_index, out);
    out.push_back(',');
    put_string(e.content, out);
    out.push_back(',');
    put_string(e.reasoning, out);
    out.push_back(']');
  }
  out.push_back(']');
  key("usage", first, out);
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
    key("server_timings", first, out);
    bool f = true;
    out.push_back('{');
    key("source", f, out);
    put_string(st->source, out);
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
    key("video_inference_time_s", first, out);
    put_double(*r.video_inference_time_s, out);
  }
  if (r.video_peak_memory_mb) {
    key("video_peak_memory_mb", first, out);
    put_double(*r.video_peak_memory_mb, out);
  }
  const auto& ct = r.client_tokens;
  if (ct.input || ct.output || ct.reasoning || !ct.per_event.empty()) {
    key("client_tokens", first, out);
    bool f = true;
    out.push_back('{');
    put_opt("input", ct.input, f, out);
    put_opt("output", ct.output, f, out);
    put_opt("reasoning", ct.reasoning, f, out);
    if (!ct.per_event.empty()) {
      key("per_event", f, out);
      out.push_back('[');
      for (std::size_t i = 0; i < ct.per_event.size(); ++i) {
        if (i) out.push_back(',');
        put_int(ct.per_event[i], out);
      }
      out.push_back(']');
    }
    if (ct.output_estimated) {
      key("output_estimated", f, out);
      out += "true";
    }
    out.push_back('}');
  }
  if (r.error) {
    key("error", first, out);
    bool f = true;
    out.push_back('{');
    key("code", f, out);
    if (r.error->code) {
      put_int(*r.error->code, out);
    } else {
      out += "null";
    }
    key("type", f, out);
    put_string(r.error->type.name(), out);
    key("message", f, out);
    put_string(r.error->message, out);
    out.push_back('}');
  }
  if (r.was_cancelled) {
    key("was_cancelled", first, out);
    out += "true";
  }
  out.push_back('}');
}

}  // namespace inferperf::records
