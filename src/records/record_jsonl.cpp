#include "records/record_jsonl.hpp"

#include <simdjson.h>

#include <string>
#include <string_view>

namespace inferperf::records {

namespace {
void put_opt(nlohmann::ordered_json& j, const char* key, const std::optional<std::int64_t>& v) {
  if (v) j[key] = *v;
}
void put_opt(nlohmann::ordered_json& j, const char* key, const std::optional<double>& v) {
  if (v) j[key] = *v;
}
}  // namespace

nlohmann::ordered_json record_to_json(const RequestRecord& r, const core::WallAnchor& a) {
  auto w = [&](core::MonoNs t) -> std::int64_t { return t == 0 ? 0 : a.to_wall(t); };
  nlohmann::ordered_json j;
  j["phase"] = to_string(r.phase);
  j["session_num"] = r.credit_num;
  j["x_request_id"] = r.x_request_id;
  j["x_correlation_id"] = r.x_correlation_id;
  j["conversation_id"] = r.conversation_id;
  j["turn_index"] = r.turn_index;
  j["worker_id"] = r.worker_id;
  j["intended_ns"] = w(r.intended_ns);
  j["issued_ns"] = w(r.issued_ns);
  j["start_ns"] = w(r.start_ns);
  j["connect_start_ns"] = w(r.connect_start_ns);
  j["connect_end_ns"] = w(r.connect_end_ns);
  if (r.tls_handshake_start_ns) {  // only with a handshake: plain-http records stay as they were
    j["tls_handshake_start_ns"] = w(r.tls_handshake_start_ns);
    j["tls_handshake_end_ns"] = w(r.tls_handshake_end_ns);
  }
  j["send_start_ns"] = w(r.send_start_ns);
  j["send_end_ns"] = w(r.send_end_ns);
  j["headers_ns"] = w(r.headers_ns);
  j["first_byte_ns"] = w(r.first_byte_ns);
  j["last_event_ns"] = w(r.last_event_ns);
  j["end_ns"] = w(r.end_ns);
  j["status"] = r.status;
  j["connection_reused"] = r.connection_reused;
  if (r.connection_retries) j["connection_retries"] = r.connection_retries;
  j["bytes_sent"] = r.bytes_sent;
  j["bytes_received"] = r.bytes_received;
  j["reads"] = r.reads;
  if (r.kernel_stamped_reads) j["kernel_stamped_reads"] = r.kernel_stamped_reads;
  j["events"] = r.events;
  auto ev = nlohmann::ordered_json::array();
  for (const auto& e : r.content_events) {
    ev.push_back({w(e.ts_ns), e.read_index, e.content, e.reasoning});
  }
  j["content_events"] = std::move(ev);
  nlohmann::ordered_json u = nlohmann::ordered_json::object();
  put_opt(u, "prompt_tokens", r.usage.prompt_tokens);
  put_opt(u, "completion_tokens", r.usage.completion_tokens);
  put_opt(u, "total_tokens", r.usage.total_tokens);
  put_opt(u, "reasoning_tokens", r.usage.reasoning_tokens);
  // AIPerf 0.11's usage details, under the same keys in record_line.cpp's fast writer.
  put_opt(u, "prompt_cache_read_tokens", r.usage.prompt_cache_read_tokens);
  put_opt(u, "prompt_cache_write_tokens", r.usage.prompt_cache_write_tokens);
  put_opt(u, "prompt_cache_miss_tokens", r.usage.prompt_cache_miss_tokens);
  put_opt(u, "tool_use_prompt_tokens", r.usage.tool_use_prompt_tokens);
  put_opt(u, "prompt_audio_seconds", r.usage.prompt_audio_seconds);
  put_opt(u, "prompt_audio_tokens", r.usage.prompt_audio_tokens);
  put_opt(u, "completion_audio_tokens", r.usage.completion_audio_tokens);
  put_opt(u, "accepted_prediction_tokens", r.usage.accepted_prediction_tokens);
  put_opt(u, "rejected_prediction_tokens", r.usage.rejected_prediction_tokens);
  j["usage"] = std::move(u);
  if (const auto& st = r.server_timings) {
    nlohmann::ordered_json t = nlohmann::ordered_json::object();
    t["source"] = st->source;
    put_opt(t, "prefill_ms", st->prefill_ms);
    put_opt(t, "decode_ms", st->decode_ms);
    put_opt(t, "prompt_tokens", st->prompt_tokens);
    put_opt(t, "predicted_tokens", st->predicted_tokens);
    put_opt(t, "cached_tokens", st->cached_tokens);
    j["server_timings"] = std::move(t);
  }
  if (r.requested_osl) j["requested_osl"] = *r.requested_osl;
  if (!r.finish_reason.empty()) j["finish_reason"] = r.finish_reason;
  if (r.outputs) j["outputs"] = r.outputs;
  if (r.input_images) j["input_images"] = r.input_images;
  if (r.video_inference_time_s) j["video_inference_time_s"] = *r.video_inference_time_s;
  if (r.video_peak_memory_mb) j["video_peak_memory_mb"] = *r.video_peak_memory_mb;
  // Client tokenizer counts exist only once the run is over (the file is then rewritten).
  const auto& ct = r.client_tokens;
  if (ct.input || ct.output || ct.reasoning || !ct.per_event.empty()) {
    nlohmann::ordered_json c = nlohmann::ordered_json::object();
    put_opt(c, "input", ct.input);
    put_opt(c, "output", ct.output);
    put_opt(c, "reasoning", ct.reasoning);
    if (!ct.per_event.empty()) c["per_event"] = ct.per_event;
    if (ct.output_estimated) c["output_estimated"] = true;
    j["client_tokens"] = std::move(c);
  }
  if (r.error) {
    nlohmann::ordered_json e;
    e["code"] =
        r.error->code ? nlohmann::ordered_json(*r.error->code) : nlohmann::ordered_json(nullptr);
    e["type"] = std::string(r.error->type.name());
    e["message"] = r.error->message;
    j["error"] = std::move(e);
  }
  if (r.was_cancelled) j["was_cancelled"] = true;
  return j;
}

namespace {

using simdjson::dom::element;
using simdjson::dom::object;

// A field that is missing or not of its type: the line is a malformed record, named by the field.
struct BadField {
  std::string field;
  std::string why;
};

[[noreturn]] void bad(std::string_view field, std::string why) {
  throw BadField{std::string(field), std::move(why)};
}

[[noreturn]] void bad(std::string_view field, simdjson::error_code e) {
  bad(field, simdjson::error_message(e));
}

// The reading side of one record line: each accessor takes its field or throws BadField.
class LineFields {
 public:
  explicit LineFields(object o) : o_(o) {}

  element at(std::string_view k) const {
    element e;
    if (auto err = o_.at_key(k).get(e)) bad(k, err);
    return e;
  }
  std::optional<element> find(std::string_view k) const {
    element e;
    const auto err = o_.at_key(k).get(e);
    if (err == simdjson::NO_SUCH_FIELD) return std::nullopt;
    if (err) bad(k, err);
    return e;
  }
  std::int64_t whole_or(std::string_view k, std::int64_t fallback) const {
    const auto e = find(k);
    return e ? whole(*e, k) : fallback;
  }
  std::string text_or(std::string_view k, std::string_view fallback = {}) const {
    const auto e = find(k);
    return std::string(e ? text(*e, k) : fallback);
  }
  bool flag_or(std::string_view k, bool fallback) const {
    const auto e = find(k);
    if (!e) return fallback;
    bool v = false;
    if (auto err = e->get_bool().get(v)) bad(k, err);
    return v;
  }
  // Absent or null: none.
  std::optional<std::int64_t> opt_whole(std::string_view k) const {
    const auto e = find(k);
    if (!e || e->is_null()) return std::nullopt;
    return whole(*e, k);
  }
  std::optional<double> opt_number(std::string_view k) const {
    const auto e = find(k);
    if (!e || e->is_null()) return std::nullopt;
    return number(*e, k);
  }
  LineFields object_at(std::string_view k) const { return LineFields(object_of(at(k), k)); }

  static std::int64_t whole(element e, std::string_view k) {
    std::int64_t v = 0;
    if (auto err = e.get_int64().get(v)) bad(k, err);
    return v;
  }
  static double number(element e, std::string_view k) {
    double v = 0;
    if (auto err = e.get_double().get(v)) bad(k, err);
    return v;
  }
  static std::string_view text(element e, std::string_view k) {
    std::string_view v;
    if (auto err = e.get_string().get(v)) bad(k, err);
    return v;
  }
  static object object_of(element e, std::string_view k) {
    object v;
    if (auto err = e.get_object().get(v)) bad(k, err);
    return v;
  }
  static simdjson::dom::array array_of(element e, std::string_view k) {
    simdjson::dom::array v;
    if (auto err = e.get_array().get(v)) bad(k, err);
    return v;
  }

 private:
  object o_;
};

// [ts_ns, read_index, content, reasoning]
ContentEvent content_event(element e) {
  constexpr std::string_view k = "content_events";
  element parts[4];
  std::size_t n = 0;
  for (element p : LineFields::array_of(e, k)) {
    if (n < 4) parts[n] = p;
    ++n;
  }
  if (n < 4) bad(k, "an event has " + std::to_string(n) + " parts, not 4");
  return ContentEvent{
      LineFields::whole(parts[0], k), static_cast<std::uint32_t>(LineFields::whole(parts[1], k)),
      std::string(LineFields::text(parts[2], k)), std::string(LineFields::text(parts[3], k))};
}

void read_usage(const LineFields& u, UsageCounts& usage) {
  usage.prompt_tokens = u.opt_whole("prompt_tokens");
  usage.completion_tokens = u.opt_whole("completion_tokens");
  usage.total_tokens = u.opt_whole("total_tokens");
  usage.reasoning_tokens = u.opt_whole("reasoning_tokens");
  usage.prompt_cache_read_tokens = u.opt_whole("prompt_cache_read_tokens");
  usage.prompt_cache_write_tokens = u.opt_whole("prompt_cache_write_tokens");
  usage.prompt_cache_miss_tokens = u.opt_whole("prompt_cache_miss_tokens");
  usage.tool_use_prompt_tokens = u.opt_whole("tool_use_prompt_tokens");
  usage.prompt_audio_seconds = u.opt_number("prompt_audio_seconds");
  usage.prompt_audio_tokens = u.opt_whole("prompt_audio_tokens");
  usage.completion_audio_tokens = u.opt_whole("completion_audio_tokens");
  usage.accepted_prediction_tokens = u.opt_whole("accepted_prediction_tokens");
  usage.rejected_prediction_tokens = u.opt_whole("rejected_prediction_tokens");
}

void read_optional_parts(const LineFields& j, RequestRecord& r) {
  if (auto st = j.find("server_timings"); st && !st->is_null()) {
    const LineFields f(LineFields::object_of(*st, "server_timings"));
    ServerTimings t;
    t.source = f.text_or("source");
    t.prefill_ms = f.opt_number("prefill_ms");
    t.decode_ms = f.opt_number("decode_ms");
    t.prompt_tokens = f.opt_whole("prompt_tokens");
    t.predicted_tokens = f.opt_whole("predicted_tokens");
    t.cached_tokens = f.opt_whole("cached_tokens");
    r.server_timings = std::move(t);
  }
  if (auto osl = j.find("requested_osl"))
    r.requested_osl = static_cast<int>(LineFields::whole(*osl, "requested_osl"));
  r.finish_reason = j.text_or("finish_reason");
  r.outputs = j.whole_or("outputs", 0);
  r.input_images = j.whole_or("input_images", 0);
  // Video fields: a number, or nothing (null).
  if (auto v = j.find("video_inference_time_s"); v && v->is_number())
    r.video_inference_time_s = LineFields::number(*v, "video_inference_time_s");
  if (auto v = j.find("video_peak_memory_mb"); v && v->is_number())
    r.video_peak_memory_mb = LineFields::number(*v, "video_peak_memory_mb");
  if (auto ct = j.find("client_tokens")) {
    const LineFields c(LineFields::object_of(*ct, "client_tokens"));
    r.client_tokens.input = c.opt_whole("input");
    r.client_tokens.output = c.opt_whole("output");
    r.client_tokens.reasoning = c.opt_whole("reasoning");
    if (auto pe = c.find("per_event")) {
      for (element n : LineFields::array_of(*pe, "per_event"))
        r.client_tokens.per_event.push_back(LineFields::whole(n, "per_event"));
    }
    r.client_tokens.output_estimated = c.flag_or("output_estimated", false);
  }
  if (auto err = j.find("error")) {
    const LineFields f(LineFields::object_of(*err, "error"));
    ErrorInfo e;
    if (const element code = f.at("code"); !code.is_null())
      e.code = static_cast<int>(LineFields::whole(code, "code"));
    e.type = core::RequestErrorType::from_name(f.text_or("type"));
    e.message = f.text_or("message");
    r.error = std::move(e);
  }
  r.was_cancelled = j.flag_or("was_cancelled", false);
}

RequestRecord read_record(const LineFields& j) {
  RequestRecord r;
  r.phase =
      LineFields::text(j.at("phase"), "phase") == "warmup" ? Phase::kWarmup : Phase::kProfiling;
  r.credit_num = LineFields::whole(j.at("session_num"), "session_num");
  r.x_request_id = j.text_or("x_request_id");
  r.x_correlation_id = j.text_or("x_correlation_id");
  r.conversation_id = j.text_or("conversation_id");
  r.turn_index = static_cast<int>(j.whole_or("turn_index", 0));
  r.worker_id = static_cast<int>(j.whole_or("worker_id", 0));
  r.intended_ns = j.whole_or("intended_ns", 0);
  r.issued_ns = j.whole_or("issued_ns", 0);
  r.start_ns = LineFields::whole(j.at("start_ns"), "start_ns");
  r.connect_start_ns = j.whole_or("connect_start_ns", 0);
  r.connect_end_ns = j.whole_or("connect_end_ns", 0);
  r.tls_handshake_start_ns = j.whole_or("tls_handshake_start_ns", 0);
  r.tls_handshake_end_ns = j.whole_or("tls_handshake_end_ns", 0);
  r.send_start_ns = j.whole_or("send_start_ns", 0);
  r.send_end_ns = j.whole_or("send_end_ns", 0);
  r.headers_ns = j.whole_or("headers_ns", 0);
  r.first_byte_ns = j.whole_or("first_byte_ns", 0);
  r.last_event_ns = j.whole_or("last_event_ns", 0);
  r.end_ns = j.whole_or("end_ns", 0);
  r.status = static_cast<int>(j.whole_or("status", 0));
  r.connection_reused = j.flag_or("connection_reused", false);
  r.connection_retries = static_cast<std::uint32_t>(j.whole_or("connection_retries", 0));
  r.bytes_sent = j.whole_or("bytes_sent", 0);
  r.bytes_received = j.whole_or("bytes_received", 0);
  r.reads = static_cast<std::uint32_t>(j.whole_or("reads", 0));
  r.kernel_stamped_reads = static_cast<std::uint32_t>(j.whole_or("kernel_stamped_reads", 0));
  r.events = static_cast<std::uint32_t>(j.whole_or("events", 0));
  for (element e : LineFields::array_of(j.at("content_events"), "content_events"))
    r.content_events.push_back(content_event(e));
  read_usage(j.object_at("usage"), r.usage);
  read_optional_parts(j, r);
  return r;
}

}  // namespace

core::Result<RequestRecord> record_from_line(std::string_view line) {
  // One parser per thread, reused: its buffers grow to the longest line read and stay.
  thread_local simdjson::dom::parser parser;
  element doc;
  if (auto err = parser.parse(line.data(), line.size()).get(doc))
    return core::Error{core::ErrorKind::kInput,
                       std::string("not valid JSON: ") + simdjson::error_message(err)};
  try {
    object o;
    if (auto err = doc.get_object().get(o)) bad("the line", err);
    return read_record(LineFields(o));
  } catch (const BadField& e) {
    return core::Error{core::ErrorKind::kInput, "malformed record: " + e.field + ": " + e.why};
  }
}

}  // namespace inferperf::records
