#include <unistd.h>
#include <fstream>

#include "records/request_record.hpp"
#include "report/exporters.hpp"

namespace inferperf::report {

nlohmann::ordered_json record_metadata(const records::RequestRecord& r, const ReportContext& ctx) {
  nlohmann::ordered_json meta;
  meta["session_num"] = r.credit_num;
  meta["x_request_id"] = r.x_request_id;
  meta["x_correlation_id"] = r.x_correlation_id;
  meta["conversation_id"] = r.conversation_id;
  meta["turn_index"] = r.turn_index;
  meta["credit_issued_ns"] = ctx.anchor.to_wall(r.issued_ns);
  meta["request_start_ns"] = ctx.anchor.to_wall(r.start_ns);
  if (r.headers_ns) meta["request_ack_ns"] = ctx.anchor.to_wall(r.headers_ns);
  core::MonoNs end = r.last_event_ns ? r.last_event_ns : r.end_ns;
  meta["request_end_ns"] = ctx.anchor.to_wall(end);
  meta["worker_id"] = "worker_" + std::to_string(r.worker_id);
  meta["record_processor_id"] = "collector";
  meta["benchmark_phase"] = records::to_string(r.phase);
  meta["was_cancelled"] = r.was_cancelled;
  if (r.was_cancelled) meta["cancellation_time_ns"] = ctx.anchor.to_wall(r.end_ns);
  return meta;
}

nlohmann::ordered_json error_json(const records::ErrorInfo& e) {
  return {{"code", e.code ? nlohmann::ordered_json(*e.code) : nlohmann::ordered_json(nullptr)},
          {"type", e.type},
          {"message", e.message}};
}

std::string records_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx) {
  std::string out;
  for (const auto& rv : result.per_record) {
    const auto& r = *rv.record;
    nlohmann::ordered_json metrics_obj = nlohmann::ordered_json::object();
    // Record metrics in catalogue order; the chunk-gap list sits where AIPerf puts it.
    for (const auto& mi : metrics::catalogue()) {
      if (mi.tag == "inter_chunk_latency") {
        if (!rv.inter_chunk_ns.empty()) {
          auto list = nlohmann::ordered_json::array();
          for (double g : rv.inter_chunk_ns) list.push_back(g / mi.scale);
          metrics_obj["inter_chunk_latency"] = {{"value", list}, {"unit", mi.unit}};
        }
        continue;
      }
      for (const auto& [info, v] : rv.scalars) {
        if (info == &mi)
          metrics_obj[std::string(mi.tag)] = {{"value", v / mi.scale}, {"unit", mi.unit}};
      }
    }
    if (rv.error_isl) metrics_obj["error_isl"] = {{"value", *rv.error_isl}, {"unit", "tokens"}};
    if (metrics_obj.empty() && !r.error) continue;

    nlohmann::ordered_json line;
    line["metadata"] = record_metadata(r, ctx);
    line["metrics"] = std::move(metrics_obj);
    if (r.error) line["error"] = error_json(*r.error);
    out += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

core::Result<bool> write_atomically(const std::filesystem::path& path, const std::string& content) {
  return write_atomically(path, [&](std::ostream& f) {
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
  });
}

core::Result<bool> write_atomically(const std::filesystem::path& path,
                                    const std::function<void(std::ostream&)>& writer) {
  auto tmp = path;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return core::Error{core::ErrorKind::kIo, "cannot write file", tmp.string()};
    writer(f);
    f.flush();
    if (!f) return core::Error{core::ErrorKind::kIo, "write failed", tmp.string()};
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return core::Error{core::ErrorKind::kIo, "rename failed: " + ec.message(), path.string()};
  return true;
}

}  // namespace inferperf::report
