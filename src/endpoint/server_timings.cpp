#include "endpoint/server_timings.hpp"

#include <cmath>

namespace inferperf::endpoint {

namespace {

// One optional field of a server's timings object: absent or null leaves `out` empty; a value of
// the wrong type (or a negative one) makes the whole object malformed (returns false).
bool read_ms(const simdjson::dom::object& o, std::string_view key, std::optional<double>& out) {
  simdjson::dom::element e;
  if (o[key].get(e) != simdjson::SUCCESS || e.is_null()) return true;
  double v = 0;
  if (e.get_double().get(v) != simdjson::SUCCESS || !std::isfinite(v) || v < 0) return false;
  out = v;
  return true;
}

bool read_count(const simdjson::dom::object& o, std::string_view key,
                std::optional<std::int64_t>& out) {
  simdjson::dom::element e;
  if (o[key].get(e) != simdjson::SUCCESS || e.is_null()) return true;
  std::int64_t v = 0;
  if (e.get_int64().get(v) != simdjson::SUCCESS || v < 0) return false;
  out = v;
  return true;
}

const std::vector<ServerTimingsDecoderEntry> kDecoders = {
    {"llama.cpp", &decode_llama_cpp_timings},
};

}  // namespace

std::optional<ServerTimings> decode_llama_cpp_timings(const simdjson::dom::object& obj) {
  simdjson::dom::object t;
  if (obj["timings"].get_object().get(t) != simdjson::SUCCESS) return std::nullopt;
  ServerTimings out;
  out.source = "llama.cpp";
  const bool well_formed = read_ms(t, "prompt_ms", out.prefill_ms) &&
                           read_ms(t, "predicted_ms", out.decode_ms) &&
                           read_count(t, "prompt_n", out.prompt_tokens) &&
                           read_count(t, "predicted_n", out.predicted_tokens) &&
                           read_count(t, "cache_n", out.cached_tokens);
  if (!well_formed || (!out.prefill_ms && !out.decode_ms)) return std::nullopt;
  return out;
}

const std::vector<ServerTimingsDecoderEntry>& server_timings_decoders() {
  return kDecoders;
}

std::optional<ServerTimings> decode_server_timings(const simdjson::dom::object& obj) {
  for (const auto& d : kDecoders) {
    if (auto t = d.decode(obj)) return t;
  }
  return std::nullopt;
}

}  // namespace inferperf::endpoint
