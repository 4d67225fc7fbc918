#include "observe/otlp_json.hpp"

#include <nlohmann/json.hpp>

namespace inferperf::observe {

namespace {

using nlohmann::json;

json otlp_attr(const std::string& key, const std::string& value) {
  return {{"key", key}, {"value", {{"stringValue", value}}}};
}

struct OtlpEncoder {
  const OtlpIdentity& id;
  std::string start, now;

  json phase_attrs(const PhaseMetrics& p) const {
    return json::array({otlp_attr("aiperf.benchmark_phase", p.phase)});
  }
  json gen_ai_attrs(const PhaseMetrics& p) const {
    json a = json::array({otlp_attr("gen_ai.operation.name", id.operation_name),
                          otlp_attr("gen_ai.provider.name", id.provider_name)});
    if (!id.request_model.empty()) a.push_back(otlp_attr("gen_ai.request.model", id.request_model));
    a.push_back(otlp_attr("aiperf.benchmark_phase", p.phase));
    return a;
  }
  json histogram_point(const FixedHistogram& h, json attrs) const {
    json counts = json::array();
    for (const auto c : h.counts) counts.push_back(std::to_string(c));
    return {{"attributes", std::move(attrs)},
            {"startTimeUnixNano", start},
            {"timeUnixNano", now},
            {"count", std::to_string(h.count)},
            {"sum", h.sum},
            {"bucketCounts", std::move(counts)},
            {"explicitBounds", h.bounds}};
  }
  json int_point(std::int64_t v, json attrs) const {
    return {{"attributes", std::move(attrs)},
            {"startTimeUnixNano", start},
            {"timeUnixNano", now},
            {"asInt", std::to_string(v)}};
  }
};

json otlp_histogram(const char* name, const char* unit, const char* description, json points) {
  return {{"name", name},
          {"unit", unit},
          {"description", description},
          {"histogram", {{"aggregationTemporality", 2}, {"dataPoints", std::move(points)}}}};
}

json otlp_counter(const std::string& name, const char* unit, json points) {
  return {
      {"name", name},
      {"unit", unit},
      {"sum",
       {{"aggregationTemporality", 2}, {"isMonotonic", true}, {"dataPoints", std::move(points)}}}};
}

json otlp_gauge(const std::string& name, const char* unit, json points) {
  return {{"name", name}, {"unit", unit}, {"gauge", {{"dataPoints", std::move(points)}}}};
}

void add_gen_ai_metrics(const MetricsSnapshot& s, const OtlpEncoder& e, json& out) {
  json duration = json::array(), tokens = json::array(), ttfc = json::array(),
       chunks = json::array();
  for (const PhaseMetrics& p : s.phases) {
    duration.push_back(e.histogram_point(p.duration, e.gen_ai_attrs(p)));
    json in = e.gen_ai_attrs(p), outa = e.gen_ai_attrs(p);
    in.push_back(otlp_attr("gen_ai.token.type", "input"));
    outa.push_back(otlp_attr("gen_ai.token.type", "output"));
    tokens.push_back(e.histogram_point(p.input_token_usage, std::move(in)));
    tokens.push_back(e.histogram_point(p.output_token_usage, std::move(outa)));
    ttfc.push_back(e.histogram_point(p.ttfc, e.gen_ai_attrs(p)));
    chunks.push_back(e.histogram_point(p.chunk_interval, e.gen_ai_attrs(p)));
  }
  out.push_back(otlp_histogram("gen_ai.client.operation.duration", "s",
                               "Duration of a GenAI operation (request start to end)",
                               std::move(duration)));
  out.push_back(otlp_histogram("gen_ai.client.token.usage", "{token}",
                               "Input and output tokens per operation", std::move(tokens)));
  out.push_back(otlp_histogram("gen_ai.client.operation.time_to_first_chunk", "s",
                               "Time from request start to the first output chunk",
                               std::move(ttfc)));
  out.push_back(otlp_histogram("gen_ai.client.operation.time_per_output_chunk", "s",
                               "Time between consecutive output chunks", std::move(chunks)));
}

void add_timing_metrics(const MetricsSnapshot& s, const OtlpEncoder& e, json& out) {
  struct Counter {
    const char* name;
    const char* unit;
    std::int64_t PhaseMetrics::*field;
  };
  static const Counter kCounters[] = {
      {"aiperf.timing.requests.sent", "{request}", &PhaseMetrics::sent},
      {"aiperf.timing.requests.completed", "{request}", &PhaseMetrics::completed},
      {"aiperf.timing.requests.cancelled", "{request}", &PhaseMetrics::cancelled},
      {"aiperf.timing.requests.errors", "{request}", &PhaseMetrics::errors},
      {"aiperf.timing.sessions.sent", "{session}", &PhaseMetrics::sessions_sent},
      {"aiperf.timing.sessions.completed", "{session}", &PhaseMetrics::sessions_completed},
      {"aiperf.timing.sessions.cancelled", "{session}", &PhaseMetrics::sessions_cancelled},
      {"aiperf.timing.sessions.turns_total", "{turn}", &PhaseMetrics::turns_total},
  };
  for (const Counter& c : kCounters) {
    json points = json::array();
    for (const PhaseMetrics& p : s.phases)
      points.push_back(e.int_point(p.*c.field, e.phase_attrs(p)));
    out.push_back(otlp_counter(c.name, c.unit, std::move(points)));
  }
  json requests = json::array(), sessions = json::array();
  for (const PhaseMetrics& p : s.phases) {
    requests.push_back(e.int_point(p.in_flight, e.phase_attrs(p)));
    sessions.push_back(e.int_point(p.sessions_in_flight(), e.phase_attrs(p)));
  }
  out.push_back(otlp_gauge("aiperf.timing.requests.in_flight", "{request}", std::move(requests)));
  out.push_back(otlp_gauge("aiperf.timing.sessions.in_flight", "{session}", std::move(sessions)));
}

}  // namespace

std::string encode_otlp_json(const MetricsSnapshot& s, const OtlpIdentity& id,
                             std::int64_t start_unix_ns) {
  const OtlpEncoder e{id, std::to_string(start_unix_ns), std::to_string(s.now_unix_ns)};
  json resource = json::array(
      {otlp_attr("service.name", "inferperf"), otlp_attr("service.version", id.service_version)});
  for (const auto& [k, v] : id.resource_attributes) resource.push_back(otlp_attr(k, v));
  json metrics = json::array();
  if (id.metrics) add_gen_ai_metrics(s, e, metrics);
  if (id.timing) add_timing_metrics(s, e, metrics);
  const json body = {
      {"resourceMetrics",
       json::array(
           {{{"resource", {{"attributes", std::move(resource)}}},
             {"scopeMetrics",
              json::array({{{"scope", {{"name", "inferperf"}, {"version", id.service_version}}},
                            {"metrics", std::move(metrics)}}})}}})}};
  // Names and attributes come from the user (models, --otel-resource-attributes): bytes that are
  // not UTF-8 become U+FFFD instead of an exception on the exporter thread.
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string gen_ai_operation_name(const std::string& endpoint_type) {
  if (endpoint_type == "chat" || endpoint_type == "responses") return "chat";
  if (endpoint_type == "completions") return "text_completion";
  if (endpoint_type == "embeddings") return "embeddings";
  return endpoint_type;
}

}  // namespace inferperf::observe
