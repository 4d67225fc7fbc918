#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "records/request_record.hpp"
#include "report/exporters.hpp"

namespace inferperf::report {

namespace {

using nlohmann::ordered_json;

// When the request got its connection: after the TCP (and TLS) set-up of a new one, at once on a
// reused one.
core::MonoNs connection_ready_ns(const records::RequestRecord& r) {
  const bool connected = !r.connection_reused && r.connect_start_ns && r.connect_end_ns;
  return connected ? r.connect_start_ns : r.send_start_ns;
}

// The exchange's response-side stamps as AIPerf's trace export names them.
void trace_response(const records::RequestRecord& r, const core::WallAnchor& a, ordered_json& t) {
  auto w = [&](core::MonoNs ns) { return a.to_wall(ns); };
  if (r.status) t["response_status_code"] = r.status;
  if (r.first_byte_ns) t["response_receive_start_ns"] = w(r.first_byte_ns);
  if (r.headers_ns) t["response_headers_received_ns"] = w(r.headers_ns);
  t["response_chunks_count"] = r.reads;
  t["response_bytes_total"] = r.bytes_received;
  if (r.end_ns && r.first_byte_ns) t["response_receive_end_ns"] = w(r.end_ns);
  if (r.error && r.end_ns) t["error_timestamp_ns"] = w(r.end_ns);
}

// k6/HAR durations AIPerf computes from the stamps (sending, waiting, receiving, duration,
// blocked, connecting), each only when both ends exist.
void trace_durations(const records::RequestRecord& r, ordered_json& t) {
  if (r.send_start_ns && r.send_end_ns) t["sending_ns"] = r.send_end_ns - r.send_start_ns;
  if (r.send_end_ns && r.first_byte_ns) t["waiting_ns"] = r.first_byte_ns - r.send_end_ns;
  if (r.reads == 1) {
    t["receiving_ns"] = 0;
  } else if (r.reads > 1 && r.first_byte_ns && r.end_ns) {
    t["receiving_ns"] = r.end_ns - r.first_byte_ns;
  }
  if (r.send_start_ns && r.end_ns && r.first_byte_ns) t["duration_ns"] = r.end_ns - r.send_start_ns;
  if (r.start_ns) t["blocked_ns"] = std::max<core::MonoNs>(0, connection_ready_ns(r) - r.start_ns);
  if (!r.connection_reused && r.connect_start_ns && r.connect_end_ns) {
    const core::MonoNs end = std::max(r.tls_handshake_end_ns, r.connect_end_ns);
    t["connecting_ns"] = end - r.connect_start_ns;
  }
}

// trace_data in AIPerf 0.11's aiohttp export schema (wall-clock ns; absent stamps omitted), then
// what only inferperf records. The request goes out in one gathered write, so it is one chunk;
// per-read response chunk lists are not kept (their count and byte total are).
ordered_json trace_data(const records::RequestRecord& r, const core::WallAnchor& a) {
  auto w = [&](core::MonoNs ns) { return a.to_wall(ns); };
  ordered_json t;
  t["trace_type"] = "aiohttp";
  if (r.send_start_ns) t["request_send_start_ns"] = w(r.send_start_ns);
  if (r.send_end_ns) {
    t["request_send_end_ns"] = w(r.send_end_ns);
    t["request_chunks"] =
        ordered_json::array({ordered_json::array({w(r.send_end_ns), r.bytes_sent})});
  }
  t["request_chunks_count"] = r.send_end_ns ? 1 : 0;
  t["request_bytes_total"] = r.bytes_sent;
  trace_response(r, a, t);
  trace_durations(r, t);
  if (r.start_ns) {
    t["connection_pool_wait_start_ns"] = w(r.start_ns);
    t["connection_pool_wait_end_ns"] = w(connection_ready_ns(r));
  }
  if (!r.connection_reused && r.connect_start_ns && r.connect_end_ns) {
    t["tcp_connect_start_ns"] = w(r.connect_start_ns);
    t["tcp_connect_end_ns"] = w(std::max(r.tls_handshake_end_ns, r.connect_end_ns));
  }
  if (r.connection_reused && r.send_start_ns) t["connection_reused_ns"] = w(r.send_start_ns);
  // inferperf's own, after AIPerf's keys.
  if (r.tls_handshake_start_ns) {  // https:// on a new connection only
    t["tls_handshake_start_ns"] = w(r.tls_handshake_start_ns);
    t["tls_handshake_end_ns"] = w(r.tls_handshake_end_ns);
  }
  if (r.connection_retries) t["connection_retry_count"] = r.connection_retries;
  t["client"] = "inferperf";
  return t;
}

}  // namespace

nlohmann::ordered_json record_metadata(const records::RequestRecord& r, const ReportContext& ctx) {
  nlohmann::ordered_json meta;
  meta["session_num"] = r.credit_num;
  meta["x_request_id"] = r.x_request_id;
  meta["x_correlation_id"] = r.x_correlation_id;
  meta["conversation_id"] = r.conversation_id;
  meta["turn_index"] = r.turn_index;
  // AIPerf 0.11: the session's depth in the tree of agent sessions, always present (0 for a root).
  const auto depth = ctx.agent_depths.find(r.conversation_id);
  meta["agent_depth"] = depth == ctx.agent_depths.end() ? 0 : depth->second;
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
  // Beyond AIPerf, only when it happened: the request met a reused connection the server had
  // just closed and was sent again on a new one (its timestamps are the second send's).
  if (r.connection_retries) meta["connection_retry_count"] = r.connection_retries;
  // Also beyond AIPerf, only when so: an output too long to count exactly had its tokens estimated.
  if (r.client_tokens.output_estimated) meta["output_tokens_estimated"] = true;
  return meta;
}

nlohmann::ordered_json error_json(const records::ErrorInfo& e) {
  return {{"code", e.code ? nlohmann::ordered_json(*e.code) : nlohmann::ordered_json(nullptr)},
          {"type", std::string(e.type.name())},
          {"message", e.message}};
}

std::string records_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx) {
  std::ostringstream out;
  write_records_jsonl(result, ctx, out);
  return std::move(out).str();
}

const metrics::MetricInfo* goodput_metric(bool goodput) {
  return goodput ? metrics::find_metric("good_request_count") : nullptr;
}

bool records_jsonl_line(const metrics::RecordValues& rv, const metrics::MetricInfo* good,
                        const ReportContext& ctx, std::string& text) {
  const auto& r = *rv.record;
  nlohmann::ordered_json metrics_obj = nlohmann::ordered_json::object();
  // Record metrics in catalogue order; list metrics (chunk gaps) sit where AIPerf puts them.
  for (const auto& mi : metrics::catalogue()) {
    for (const auto& [info, v] : rv.scalars) {
      if (info == &mi)
        metrics_obj[std::string(mi.tag)] = {{"value", v / mi.scale}, {"unit", mi.unit}};
    }
    for (const auto& [info, values] : rv.lists) {
      if (info != &mi) continue;
      auto list = nlohmann::ordered_json::array();
      for (double g : values) list.push_back(g / mi.scale);
      metrics_obj[std::string(mi.tag)] = {{"value", std::move(list)}, {"unit", mi.unit}};
    }
    if (&mi == good && r.valid())
      metrics_obj[std::string(mi.tag)] = {{"value", rv.good ? 1 : 0}, {"unit", mi.unit}};
    if (mi.tag == "stream_stall_count" && !rv.stall_gaps_ns.empty()) {
      auto list = nlohmann::ordered_json::array();
      for (double g : rv.stall_gaps_ns) list.push_back(g / 1e6);  // ns -> ms
      metrics_obj["stream_stalls"] = {{"value", std::move(list)}, {"unit", "ms"}};
    }
  }
  if (metrics_obj.empty() && !r.error) return false;

  nlohmann::ordered_json line;
  line["metadata"] = record_metadata(r, ctx);
  line["metrics"] = std::move(metrics_obj);
  if (ctx.export_http_trace) line["trace_data"] = trace_data(r, ctx.anchor);
  if (r.error) line["error"] = error_json(*r.error);
  text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text += '\n';
  return true;
}

void write_records_jsonl(const metrics::BenchmarkResult& result, const ReportContext& ctx,
                         std::ostream& out) {
  std::string text;
  // With --goodput, every valid record says whether it met every objective (AIPerf 0.11: 0/1).
  const metrics::MetricInfo* good = goodput_metric(result.find("good_request_count") != nullptr);
  for (const auto& rv : result.per_record) {
    if (records_jsonl_line(rv, good, ctx, text))
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
}

core::Result<bool> write_atomically(const std::filesystem::path& path, const std::string& content) {
  return write_atomically(path, [&](std::ostream& f) {
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
  });
}

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  tmp_ = path_;
  tmp_ += ".tmp";
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  opened_ = out_.is_open();
}

AtomicFile::~AtomicFile() {
  if (!done_) {
    out_.close();
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

core::Result<bool> AtomicFile::commit() {
  done_ = true;
  if (!opened_) return core::Error{core::ErrorKind::kIo, "cannot write file", tmp_.string()};
  std::error_code ec;
  out_.flush();
  if (!out_) {
    // No half-written file is left behind: the earlier complete one, if any, stays.
    out_.close();
    std::filesystem::remove(tmp_, ec);
    return core::Error{core::ErrorKind::kIo, "write failed (disk full?)", path_.string()};
  }
  out_.close();
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp_, ec);
    return core::Error{core::ErrorKind::kIo, "rename failed: " + why, path_.string()};
  }
  return true;
}

core::Result<bool> write_atomically(const std::filesystem::path& path,
                                    const std::function<void(std::ostream&)>& writer) {
  AtomicFile f(path);
  if (f.is_open()) writer(f.stream());
  return f.commit();
}

}  // namespace inferperf::report
