#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "records/json_text.hpp"
#include "records/record_line.hpp"
#include "records/request_record.hpp"
#include "report/exporters.hpp"

namespace inferperf::report {

namespace {

using records::JsonObjectText;

// When the request got its connection: after the TCP (and TLS) set-up of a new one, at once on a
// reused one.
core::MonoNs connection_ready_ns(const records::RequestRecord& r) {
  const bool connected = !r.connection_reused && r.connect_start_ns && r.connect_end_ns;
  return connected ? r.connect_start_ns : r.send_start_ns;
}

// The exchange's response-side stamps as AIPerf's trace export names them.
void trace_response(const records::RequestRecord& r, const core::WallAnchor& a, JsonObjectText& t) {
  auto w = [&](core::MonoNs ns) { return a.to_wall(ns); };
  if (r.status) t.integer("response_status_code", r.status);
  if (r.first_byte_ns) t.integer("response_receive_start_ns", w(r.first_byte_ns));
  if (r.headers_ns) t.integer("response_headers_received_ns", w(r.headers_ns));
  t.integer("response_chunks_count", r.reads);
  t.integer("response_bytes_total", r.bytes_received);
  if (r.end_ns && r.first_byte_ns) t.integer("response_receive_end_ns", w(r.end_ns));
  if (r.error && r.end_ns) t.integer("error_timestamp_ns", w(r.end_ns));
}

// k6/HAR durations AIPerf computes from the stamps (sending, waiting, receiving, duration,
// blocked, connecting), each only when both ends exist.
void trace_durations(const records::RequestRecord& r, JsonObjectText& t) {
  if (r.send_start_ns && r.send_end_ns) t.integer("sending_ns", r.send_end_ns - r.send_start_ns);
  if (r.send_end_ns && r.first_byte_ns) t.integer("waiting_ns", r.first_byte_ns - r.send_end_ns);
  if (r.reads == 1) {
    t.integer("receiving_ns", 0);
  } else if (r.reads > 1 && r.first_byte_ns && r.end_ns) {
    t.integer("receiving_ns", r.end_ns - r.first_byte_ns);
  }
  if (r.send_start_ns && r.end_ns && r.first_byte_ns)
    t.integer("duration_ns", r.end_ns - r.send_start_ns);
  if (r.start_ns)
    t.integer("blocked_ns", std::max<core::MonoNs>(0, connection_ready_ns(r) - r.start_ns));
  if (!r.connection_reused && r.connect_start_ns && r.connect_end_ns) {
    const core::MonoNs end = std::max(r.tls_handshake_end_ns, r.connect_end_ns);
    t.integer("connecting_ns", end - r.connect_start_ns);
  }
}

// trace_data in AIPerf 0.11's aiohttp export schema (wall-clock ns; absent stamps omitted), then
// what only inferperf records. The request goes out as one buffer (one send unless the socket
// takes it part-way; the system calls are not counted), so it is one chunk;
// per-read response chunk lists are not kept (their count and byte total are).
void append_trace_data(const records::RequestRecord& r, const core::WallAnchor& a,
                       std::string& out) {
  auto w = [&](core::MonoNs ns) { return a.to_wall(ns); };
  JsonObjectText t(out);
  t.string("trace_type", "aiohttp");
  if (r.send_start_ns) t.integer("request_send_start_ns", w(r.send_start_ns));
  if (r.send_end_ns) {
    t.integer("request_send_end_ns", w(r.send_end_ns));
    std::string& chunks = t.member("request_chunks");
    chunks += "[[";
    records::put_json_int(w(r.send_end_ns), chunks);
    chunks.push_back(',');
    records::put_json_int(r.bytes_sent, chunks);
    chunks += "]]";
  }
  t.integer("request_chunks_count", r.send_end_ns ? 1 : 0);
  t.integer("request_bytes_total", r.bytes_sent);
  trace_response(r, a, t);
  trace_durations(r, t);
  if (r.start_ns) {
    t.integer("connection_pool_wait_start_ns", w(r.start_ns));
    t.integer("connection_pool_wait_end_ns", w(connection_ready_ns(r)));
  }
  if (!r.connection_reused && r.connect_start_ns && r.connect_end_ns) {
    t.integer("tcp_connect_start_ns", w(r.connect_start_ns));
    t.integer("tcp_connect_end_ns", w(std::max(r.tls_handshake_end_ns, r.connect_end_ns)));
  }
  if (r.connection_reused && r.send_start_ns) t.integer("connection_reused_ns", w(r.send_start_ns));
  // inferperf's own, after AIPerf's keys.
  if (r.tls_handshake_start_ns) {  // https:// on a new connection only
    t.integer("tls_handshake_start_ns", w(r.tls_handshake_start_ns));
    t.integer("tls_handshake_end_ns", w(r.tls_handshake_end_ns));
  }
  if (r.connection_retries) t.integer("connection_retry_count", r.connection_retries);
  t.string("client", "inferperf");
  t.close();
}

void append_metadata(const records::RequestRecord& r, const ReportContext& ctx, std::string& out) {
  JsonObjectText meta(out);
  meta.integer("session_num", r.credit_num);
  meta.string("x_request_id", r.x_request_id);
  meta.string("x_correlation_id", r.x_correlation_id);
  meta.string("conversation_id", r.conversation_id);
  meta.integer("turn_index", r.turn_index);
  // AIPerf 0.11: the session's depth in the tree of agent sessions, always present (0 for a root).
  const auto depth = ctx.agent_depths.find(r.conversation_id);
  meta.integer("agent_depth", depth == ctx.agent_depths.end() ? 0 : depth->second);
  meta.integer("credit_issued_ns", ctx.anchor.to_wall(r.issued_ns));
  meta.integer("request_start_ns", ctx.anchor.to_wall(r.start_ns));
  if (r.headers_ns) meta.integer("request_ack_ns", ctx.anchor.to_wall(r.headers_ns));
  core::MonoNs end = r.last_event_ns ? r.last_event_ns : r.end_ns;
  meta.integer("request_end_ns", ctx.anchor.to_wall(end));
  std::string& worker = meta.member("worker_id");
  worker += "\"worker_";
  records::put_json_int(r.worker_id, worker);
  worker.push_back('"');
  meta.string("record_processor_id", "collector");
  meta.string("benchmark_phase", records::to_string(r.phase));
  meta.boolean("was_cancelled", r.was_cancelled);
  if (r.was_cancelled) meta.integer("cancellation_time_ns", ctx.anchor.to_wall(r.end_ns));
  // Beyond AIPerf, only when it happened: the request met a reused connection the server had
  // just closed and was sent again on a new one (its timestamps are the second send's).
  if (r.connection_retries) meta.integer("connection_retry_count", r.connection_retries);
  // Also beyond AIPerf, only when so: an output too long to count exactly had its tokens estimated.
  if (r.client_tokens.output_estimated) meta.boolean("output_tokens_estimated", true);
  meta.close();
}

// {"value": [v / scale, ...], "unit": unit}
void append_list_metric(const std::vector<double>& values, double scale, std::string_view unit,
                        std::string& out) {
  JsonObjectText m(out);
  std::string& list = m.member("value");
  list.push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) list.push_back(',');
    records::put_json_double(values[i] / scale, list);
  }
  list.push_back(']');
  m.string("unit", unit);
  m.close();
}

// A record's metrics in catalogue order, list metrics (chunk gaps) where AIPerf puts them. Where a
// tag was computed twice, the last value counts (as assigning a JSON key twice would).
void append_metrics(const metrics::RecordValues& rv, const metrics::MetricInfo* good,
                    JsonObjectText& obj) {
  const auto& cat = metrics::catalogue();
  struct Entry {
    std::size_t index;  // catalogue position
    int source;         // 0 scalar, 1 list, 2 goodput: a later source replaces an earlier one
    std::size_t at;     // position in its source
  };
  thread_local std::vector<Entry> entries;
  entries.clear();
  auto index_of = [&](const metrics::MetricInfo* info) {
    return static_cast<std::size_t>(info - cat.data());
  };
  for (std::size_t i = 0; i < rv.scalars.size(); ++i)
    entries.push_back({index_of(rv.scalars[i].first), 0, i});
  for (std::size_t i = 0; i < rv.lists.size(); ++i)
    entries.push_back({index_of(rv.lists[i].first), 1, i});
  if (good && rv.record->valid()) entries.push_back({index_of(good), 2, 0});
  static const std::size_t stall_index = index_of(metrics::find_metric("stream_stall_count"));
  if (!rv.stall_gaps_ns.empty()) entries.push_back({stall_index, 3, 0});
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.index < b.index; });
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (e.source == 3) {  // after the stall count itself, its gaps (ns -> ms)
      append_list_metric(rv.stall_gaps_ns, 1e6, "ms", obj.member("stream_stalls"));
      continue;
    }
    // Only the last value of a tag is written (the stall gaps are a key of their own).
    const bool replaced =
        k + 1 < entries.size() && entries[k + 1].index == e.index && entries[k + 1].source != 3;
    if (replaced) continue;
    const auto& mi = cat[e.index];
    std::string& text = obj.member(mi.tag);
    if (e.source == 1) {
      append_list_metric(rv.lists[e.at].second, mi.scale, mi.unit, text);
      continue;
    }
    JsonObjectText m(text);
    if (e.source == 0)
      m.number("value", rv.scalars[e.at].second / mi.scale);
    else
      m.integer("value", rv.good ? 1 : 0);
    m.string("unit", mi.unit);
    m.close();
  }
}

}  // namespace

nlohmann::ordered_json record_metadata(const records::RequestRecord& r, const ReportContext& ctx) {
  std::string text;
  append_metadata(r, ctx, text);
  return nlohmann::ordered_json::parse(text);
}

nlohmann::ordered_json error_json(const records::ErrorInfo& e) {
  std::string text;
  records::append_error_json(e, text);
  return nlohmann::ordered_json::parse(text);
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
  text.clear();
  JsonObjectText line(text);
  append_metadata(r, ctx, line.member("metadata"));
  JsonObjectText metrics_obj(line.member("metrics"));
  append_metrics(rv, good, metrics_obj);
  if (metrics_obj.empty() && !r.error) {
    text.clear();
    return false;
  }
  metrics_obj.close();
  if (ctx.export_http_trace) append_trace_data(r, ctx.anchor, line.member("trace_data"));
  if (r.error) records::append_error_json(*r.error, line.member("error"));
  line.close();
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

void AtomicFile::write_pending() {
  if (pending_.empty()) return;
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  pending_.clear();
}

std::ostream& AtomicFile::stream() {
  write_pending();
  return out_;
}

void AtomicFile::append(std::string_view text) {
  // 64 KiB, never grown: a buffer of a mebibyte or more is mmap'd, and glibc raises its mmap
  // threshold when one is freed, which put the analysis' later large allocations on the heap
  // (24 MB more peak RSS at a million requests; measured when the binary used glibc's malloc, as
  // the sanitizer builds still do). Text as large as the batch goes straight out.
  constexpr std::size_t kBatch = std::size_t{64} << 10;
  if (pending_.size() + text.size() > kBatch) write_pending();
  if (text.size() >= kBatch) {
    out_.write(text.data(), static_cast<std::streamsize>(text.size()));
    return;
  }
  if (pending_.capacity() < kBatch) pending_.reserve(kBatch);
  pending_.append(text);
}

core::Result<bool> AtomicFile::commit() {
  done_ = true;
  if (!opened_) return core::Error{core::ErrorKind::kIo, "cannot write file", tmp_.string()};
  std::error_code ec;
  write_pending();
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
