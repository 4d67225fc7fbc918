// profile_export_raw.jsonl (--export-level raw): each profiling request as sent and received.
#include "core/secrets.hpp"
#include "records/raw_exchange.hpp"
#include "report/exporters.hpp"

namespace inferperf::report {

namespace {

using nlohmann::ordered_json;

ordered_json headers_object(const records::HeaderList& headers) {
  ordered_json o = ordered_json::object();
  for (const auto& [name, value] : headers) o[name] = value;
  return o;
}

ordered_json response_json(const records::RawResponse& r) {
  ordered_json o;
  o["perf_ns"] = r.perf_ns;
  if (r.text) {
    o["text"] = *r.text;
    o["content_type"] = r.content_type;
    return o;
  }
  ordered_json packets = ordered_json::array();
  for (const auto& [name, value] : r.packets) packets.push_back({{"name", name}, {"value", value}});
  o["packets"] = std::move(packets);
  return o;
}

}  // namespace

std::string raw_jsonl_line(const records::RequestRecord& r, const ReportContext& ctx) {
  const records::RawExchange& raw = *r.raw;
  ordered_json line;
  line["metadata"] = record_metadata(r, ctx);
  line["start_perf_ns"] = r.start_ns;
  // The body was serialized by us, so it parses; anything else is kept as the text that was sent.
  ordered_json payload = ordered_json::parse(raw.payload, nullptr, false);
  if (payload.is_object()) {
    for (const auto& key : ctx.secret_body_keys) {
      if (payload.contains(key)) payload[key] = std::string(core::kRedacted);
    }
  }
  line["payload"] = payload.is_discarded() ? ordered_json(raw.payload) : std::move(payload);
  line["request_headers"] = headers_object(raw.request_headers);
  line["status"] = r.status ? ordered_json(r.status) : ordered_json(nullptr);
  ordered_json responses = ordered_json::array();
  for (const auto& resp : raw.responses) responses.push_back(response_json(resp));
  line["responses"] = std::move(responses);
  if (r.error) line["error"] = error_json(*r.error);
  // AIPerf 0.11 leaves response_headers null (omitted); inferperf has them, after AIPerf's keys.
  line["response_headers"] = headers_object(raw.response_headers);
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_raw_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx,
                     std::ostream& out) {
  for (const auto& rv : result.per_record) {
    if (!rv.record->raw) continue;
    out << raw_jsonl_line(*rv.record, ctx) << '\n';
  }
}

}  // namespace inferperf::report
