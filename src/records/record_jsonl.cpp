#include "records/record_jsonl.hpp"

namespace inferperf::records {

namespace {
void put_opt(nlohmann::ordered_json& j, const char* key, const std::optional<std::int64_t>& v) {
  if (v) j[key] = *v;
}
void put_opt(nlohmann::ordered_json& j, const char* key, const std::optional<double>& v) {
  if (v) j[key] = *v;
}
std::optional<std::int64_t> get_opt(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<std::int64_t>();
}
std::optional<double> get_opt_double(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<double>();
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

core::Result<RequestRecord> record_from_json(const nlohmann::json& j) {
  try {
    RequestRecord r;
    r.phase = j.at("phase").get<std::string>() == "warmup" ? Phase::kWarmup : Phase::kProfiling;
    r.credit_num = j.at("session_num").get<std::int64_t>();
    r.x_request_id = j.value("x_request_id", "");
    r.x_correlation_id = j.value("x_correlation_id", "");
    r.conversation_id = j.value("conversation_id", "");
    r.turn_index = j.value("turn_index", 0);
    r.worker_id = j.value("worker_id", 0);
    r.intended_ns = j.value("intended_ns", std::int64_t{0});
    r.issued_ns = j.value("issued_ns", std::int64_t{0});
    r.start_ns = j.at("start_ns").get<std::int64_t>();
    r.connect_start_ns = j.value("connect_start_ns", std::int64_t{0});
    r.connect_end_ns = j.value("connect_end_ns", std::int64_t{0});
    r.tls_handshake_start_ns = j.value("tls_handshake_start_ns", std::int64_t{0});
    r.tls_handshake_end_ns = j.value("tls_handshake_end_ns", std::int64_t{0});
    r.send_start_ns = j.value("send_start_ns", std::int64_t{0});
    r.send_end_ns = j.value("send_end_ns", std::int64_t{0});
    r.headers_ns = j.value("headers_ns", std::int64_t{0});
    r.first_byte_ns = j.value("first_byte_ns", std::int64_t{0});
    r.last_event_ns = j.value("last_event_ns", std::int64_t{0});
    r.end_ns = j.value("end_ns", std::int64_t{0});
    r.status = j.value("status", 0);
    r.connection_reused = j.value("connection_reused", false);
    r.connection_retries = j.value("connection_retries", 0u);
    r.bytes_sent = j.value("bytes_sent", std::int64_t{0});
    r.bytes_received = j.value("bytes_received", std::int64_t{0});
    r.reads = j.value("reads", 0u);
    r.kernel_stamped_reads = j.value("kernel_stamped_reads", 0u);
    r.events = j.value("events", 0u);
    for (const auto& e : j.at("content_events")) {
      r.content_events.push_back(
          ContentEvent{e.at(0).get<std::int64_t>(), e.at(1).get<std::uint32_t>(),
                       e.at(2).get<std::string>(), e.at(3).get<std::string>()});
    }
    const auto& u = j.at("usage");
    r.usage.prompt_tokens = get_opt(u, "prompt_tokens");
    r.usage.completion_tokens = get_opt(u, "completion_tokens");
    r.usage.total_tokens = get_opt(u, "total_tokens");
    r.usage.reasoning_tokens = get_opt(u, "reasoning_tokens");
    r.usage.prompt_cache_read_tokens = get_opt(u, "prompt_cache_read_tokens");
    r.usage.prompt_cache_write_tokens = get_opt(u, "prompt_cache_write_tokens");
    r.usage.prompt_cache_miss_tokens = get_opt(u, "prompt_cache_miss_tokens");
    r.usage.tool_use_prompt_tokens = get_opt(u, "tool_use_prompt_tokens");
    r.usage.prompt_audio_seconds = get_opt_double(u, "prompt_audio_seconds");
    r.usage.prompt_audio_tokens = get_opt(u, "prompt_audio_tokens");
    r.usage.completion_audio_tokens = get_opt(u, "completion_audio_tokens");
    r.usage.accepted_prediction_tokens = get_opt(u, "accepted_prediction_tokens");
    r.usage.rejected_prediction_tokens = get_opt(u, "rejected_prediction_tokens");
    if (auto it = j.find("server_timings"); it != j.end() && !it->is_null()) {
      ServerTimings t;
      t.source = it->value("source", "");
      t.prefill_ms = get_opt_double(*it, "prefill_ms");
      t.decode_ms = get_opt_double(*it, "decode_ms");
      t.prompt_tokens = get_opt(*it, "prompt_tokens");
      t.predicted_tokens = get_opt(*it, "predicted_tokens");
      t.cached_tokens = get_opt(*it, "cached_tokens");
      r.server_timings = std::move(t);
    }
    if (auto it = j.find("requested_osl"); it != j.end()) r.requested_osl = it->get<int>();
    r.finish_reason = j.value("finish_reason", "");
    r.outputs = j.value("outputs", std::int64_t{0});
    r.input_images = j.value("input_images", std::int64_t{0});
    if (auto it = j.find("video_inference_time_s"); it != j.end() && it->is_number())
      r.video_inference_time_s = it->get<double>();
    if (auto it = j.find("video_peak_memory_mb"); it != j.end() && it->is_number())
      r.video_peak_memory_mb = it->get<double>();
    if (auto it = j.find("client_tokens"); it != j.end()) {
      r.client_tokens.input = get_opt(*it, "input");
      r.client_tokens.output = get_opt(*it, "output");
      r.client_tokens.reasoning = get_opt(*it, "reasoning");
      if (auto pe = it->find("per_event"); pe != it->end())
        r.client_tokens.per_event = pe->get<std::vector<std::int64_t>>();
      r.client_tokens.output_estimated = it->value("output_estimated", false);
    }
    if (auto it = j.find("error"); it != j.end()) {
      ErrorInfo e;
      if (!it->at("code").is_null()) e.code = it->at("code").get<int>();
      e.type = core::RequestErrorType::from_name(it->value("type", ""));
      e.message = it->value("message", "");
      r.error = e;
    }
    r.was_cancelled = j.value("was_cancelled", false);
    return r;
  } catch (const nlohmann::json::exception& e) {
    return core::Error{core::ErrorKind::kInput, std::string("malformed record: ") + e.what()};
  }
}

}  // namespace inferperf::records
