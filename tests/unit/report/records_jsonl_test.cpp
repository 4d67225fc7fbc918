// profile_export.jsonl and the summary's run_info as AIPerf 0.11 writes them: agent_depth in every
// record's metadata, per-record good_request_count with SLOs, trace_data in the aiohttp export
// schema, and run_info's place in the summary.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "report/exporters.hpp"

namespace {

using inferperf::metrics::BenchmarkResult;
using inferperf::metrics::find_metric;
using inferperf::metrics::MetricResult;
using inferperf::metrics::RecordValues;
using inferperf::records::ErrorInfo;
using inferperf::records::RequestRecord;
using inferperf::report::ReportContext;
using json = nlohmann::ordered_json;

ReportContext context(bool trace) {
  ReportContext ctx;
  ctx.anchor.mono_ns = 1000;
  ctx.anchor.wall_ns = 1'000'000'000'000;
  ctx.export_http_trace = trace;
  return ctx;
}

// A request on a new connection: pool wait 100 ns, connect 300 ns, send 50 ns, server 1,000 ns,
// three reads over 400 ns.
RequestRecord new_connection_record() {
  RequestRecord r;
  r.start_ns = 2000;
  r.connect_start_ns = 2100;
  r.connect_end_ns = 2400;
  r.send_start_ns = 2400;
  r.send_end_ns = 2450;
  r.headers_ns = 3400;
  r.first_byte_ns = 3450;
  r.end_ns = 3850;
  r.status = 200;
  r.bytes_sent = 321;
  r.bytes_received = 4096;
  r.reads = 3;
  r.content_events.push_back({3450, 0, "hi", ""});
  return r;
}

std::vector<json> lines(const BenchmarkResult& result, const ReportContext& ctx) {
  std::ostringstream out;
  inferperf::report::write_records_jsonl(result, ctx, out);
  std::vector<json> parsed;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) parsed.push_back(json::parse(line));
  return parsed;
}

RecordValues values_of(const RequestRecord& r, bool good) {
  RecordValues v;
  v.record = &r;
  v.scalars.emplace_back(find_metric("request_latency"), 1850.0);
  v.good = good;
  return v;
}

TEST(RecordsJsonl, TraceDataFollowsTheAiohttpExportSchema) {
  const RequestRecord r = new_connection_record();
  BenchmarkResult result;
  result.per_record.push_back(values_of(r, false));
  const auto out = lines(result, context(true));
  ASSERT_EQ(out.size(), 1u);
  const json& t = out[0]["trace_data"];
  const std::int64_t wall = 1'000'000'000'000 - 1000;  // wall = mono + this
  EXPECT_EQ(t["trace_type"], "aiohttp");
  EXPECT_EQ(t["request_send_start_ns"], wall + 2400);
  EXPECT_EQ(t["request_send_end_ns"], wall + 2450);
  EXPECT_EQ(t["request_chunks"], json::parse(R"([[)" + std::to_string(wall + 2450) + ",321]]"));
  EXPECT_EQ(t["request_chunks_count"], 1);
  EXPECT_EQ(t["request_bytes_total"], 321);
  EXPECT_EQ(t["response_status_code"], 200);
  EXPECT_EQ(t["response_receive_start_ns"], wall + 3450);
  EXPECT_EQ(t["response_headers_received_ns"], wall + 3400);
  EXPECT_EQ(t["response_chunks_count"], 3);
  EXPECT_EQ(t["response_bytes_total"], 4096);
  EXPECT_EQ(t["response_receive_end_ns"], wall + 3850);
  EXPECT_EQ(t["sending_ns"], 50);
  EXPECT_EQ(t["waiting_ns"], 1000);
  EXPECT_EQ(t["receiving_ns"], 400);
  EXPECT_EQ(t["duration_ns"], 1450);
  EXPECT_EQ(t["blocked_ns"], 100);
  EXPECT_EQ(t["connecting_ns"], 300);
  EXPECT_EQ(t["connection_pool_wait_start_ns"], wall + 2000);
  EXPECT_EQ(t["connection_pool_wait_end_ns"], wall + 2100);
  EXPECT_EQ(t["tcp_connect_start_ns"], wall + 2100);
  EXPECT_EQ(t["tcp_connect_end_ns"], wall + 2400);
  EXPECT_FALSE(t.contains("connection_reused_ns"));
  EXPECT_FALSE(t.contains("error_timestamp_ns"));
  EXPECT_EQ(t["client"], "inferperf") << "inferperf's own keys come after AIPerf's";
}

// trace_data's keys in AIPerf's order, inferperf's own after them (a new connection over TLS that
// was retried once).
TEST(RecordsJsonl, TraceDataKeysInOrder) {
  RequestRecord r = new_connection_record();
  r.tls_handshake_start_ns = 2300;
  r.tls_handshake_end_ns = 2390;
  r.connection_retries = 1;
  BenchmarkResult result;
  result.per_record.push_back(values_of(r, false));
  const json trace = lines(result, context(true))[0]["trace_data"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : trace.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"trace_type",
                                            "request_send_start_ns",
                                            "request_send_end_ns",
                                            "request_chunks",
                                            "request_chunks_count",
                                            "request_bytes_total",
                                            "response_status_code",
                                            "response_receive_start_ns",
                                            "response_headers_received_ns",
                                            "response_chunks_count",
                                            "response_bytes_total",
                                            "response_receive_end_ns",
                                            "sending_ns",
                                            "waiting_ns",
                                            "receiving_ns",
                                            "duration_ns",
                                            "blocked_ns",
                                            "connecting_ns",
                                            "connection_pool_wait_start_ns",
                                            "connection_pool_wait_end_ns",
                                            "tcp_connect_start_ns",
                                            "tcp_connect_end_ns",
                                            "tls_handshake_start_ns",
                                            "tls_handshake_end_ns",
                                            "connection_retry_count",
                                            "client"}));
}

TEST(RecordsJsonl, ReusedConnectionOneReadAndAnError) {
  RequestRecord r = new_connection_record();
  r.connection_reused = true;
  r.connect_start_ns = r.connect_end_ns = 0;
  r.reads = 1;
  r.status = 500;
  r.error = ErrorInfo{500, inferperf::core::RequestErrorType::http("Internal Server Error"), "x"};
  BenchmarkResult result;
  result.per_record.push_back(values_of(r, false));
  const json t = lines(result, context(true))[0]["trace_data"];
  const std::int64_t wall = 1'000'000'000'000 - 1000;
  EXPECT_EQ(t["connection_reused_ns"], wall + 2400);
  EXPECT_EQ(t["blocked_ns"], 400) << "waited from start to the send on the reused connection";
  EXPECT_FALSE(t.contains("connecting_ns"));
  EXPECT_FALSE(t.contains("tcp_connect_start_ns"));
  EXPECT_EQ(t["receiving_ns"], 0) << "one read: AIPerf counts no receiving time";
  EXPECT_EQ(t["error_timestamp_ns"], wall + 3850);
}

TEST(RecordsJsonl, AgentDepthAlwaysAndGoodRequestCountOnlyWithSlos) {
  const RequestRecord good = new_connection_record();
  const RequestRecord bad = new_connection_record();
  BenchmarkResult result;
  result.per_record.push_back(values_of(good, true));
  result.per_record.push_back(values_of(bad, false));
  auto out = lines(result, context(false));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["metadata"]["agent_depth"], 0);
  EXPECT_FALSE(out[0]["metrics"].contains("good_request_count")) << "no SLOs, no verdict";
  EXPECT_FALSE(out[0].contains("trace_data"));

  MetricResult count;
  count.info = find_metric("good_request_count");
  count.scalar = true;
  count.value = 1;
  result.metrics.push_back(count);
  out = lines(result, context(false));
  EXPECT_EQ(out[0]["metrics"]["good_request_count"],
            json::parse(R"({"value":1,"unit":"requests"})"));
  EXPECT_EQ(out[1]["metrics"]["good_request_count"]["value"], 0);

  RequestRecord failed = new_connection_record();
  failed.error =
      ErrorInfo{500, inferperf::core::RequestErrorType::http("Internal Server Error"), "x"};
  result.per_record.push_back(values_of(failed, false));
  out = lines(result, context(false));
  EXPECT_FALSE(out[2]["metrics"].contains("good_request_count")) << "only valid records are judged";
}

// The whole line, byte for byte: metrics in catalogue order whatever order they were computed in,
// a tag computed twice written once with its last value, a list metric, the goodput verdict, the
// stall gaps after the stall count, and an error without a status code.
TEST(RecordsJsonl, WholeLineInCatalogueOrder) {
  RequestRecord r = new_connection_record();
  r.credit_num = 7;
  r.x_request_id = "rid";
  r.conversation_id = "c\"1";
  r.worker_id = 2;
  RecordValues v;
  v.record = &r;
  v.scalars.emplace_back(find_metric("inter_token_latency"), 1'500'000.0);
  v.scalars.emplace_back(find_metric("request_latency"), 1.0);
  v.scalars.emplace_back(find_metric("time_to_first_token"), 250'000.0);
  v.scalars.emplace_back(find_metric("request_latency"), 1850.0);
  v.scalars.emplace_back(find_metric("stream_stall_count"), 2.0);
  // Replaced: by the list of the same tag, and (valid records only) by the goodput verdict.
  v.scalars.emplace_back(find_metric("inter_chunk_latency"), 9.0);
  v.scalars.emplace_back(find_metric("good_request_count"), 5.0);
  v.lists.emplace_back(find_metric("inter_chunk_latency"), std::vector<double>{1e6, 2.5e5});
  v.stall_gaps_ns = {150e6, 2e8};
  v.good = true;
  std::string text;
  ASSERT_TRUE(inferperf::report::records_jsonl_line(v, inferperf::report::goodput_metric(true),
                                                    context(false), text));
  const std::string meta =
      R"({"session_num":7,"x_request_id":"rid","x_correlation_id":"","conversation_id":"c\"1",)"
      R"("turn_index":0,"agent_depth":0,"credit_issued_ns":999999999000,)"
      R"("request_start_ns":1000000001000,"request_ack_ns":1000000002400,)"
      R"("request_end_ns":1000000002850,"worker_id":"worker_2","record_processor_id":"collector",)"
      R"("benchmark_phase":"profiling","was_cancelled":false})";
  const std::string metrics = R"({"request_latency":{"value":0.00185,"unit":"ms"},)"
                              R"("time_to_first_token":{"value":0.25,"unit":"ms"},)"
                              R"("inter_token_latency":{"value":1.5,"unit":"ms"},)"
                              R"("good_request_count":{"value":1,"unit":"requests"},)"
                              R"("inter_chunk_latency":{"value":[1.0,0.25],"unit":"ms"},)"
                              R"("stream_stall_count":{"value":2.0,"unit":"count"},)"
                              R"("stream_stalls":{"value":[150.0,200.0],"unit":"ms"}})";
  EXPECT_EQ(text, R"({"metadata":)" + meta + R"(,"metrics":)" + metrics + "}\n");

  // A failed record is not judged (the computed value stays); its error follows the metrics.
  r.error = ErrorInfo{std::nullopt, inferperf::core::RequestErrorType::http("Oops"), "bad\n"};
  ASSERT_TRUE(inferperf::report::records_jsonl_line(v, inferperf::report::goodput_metric(true),
                                                    context(false), text));
  std::string failed_metrics = metrics;
  const std::string verdict = R"("good_request_count":{"value":1,)";
  failed_metrics.replace(failed_metrics.find(verdict), verdict.size(),
                         R"("good_request_count":{"value":5.0,)");
  EXPECT_EQ(text, R"({"metadata":)" + meta + R"(,"metrics":)" + failed_metrics +
                      R"(,"error":{"code":null,"type":"Oops","message":"bad\n"}})"
                      "\n");
}

TEST(SummaryJson, RunInfoFollowsInputConfig) {
  ReportContext ctx = context(false);
  ctx.benchmark_id = "b-1";
  ctx.input_config = {{"models", {{"items", json::array({{{"name", "m"}}})}}}};
  ctx.run_info = {{"benchmark_id", "b-1"}, {"trial", 0}};
  const json j = inferperf::report::summary_json(BenchmarkResult{}, ctx);
  EXPECT_EQ(j["schema_version"], "1.3");
  EXPECT_EQ(j["aiperf_version"], "0.11.0");
  EXPECT_EQ(j["run_info"].dump(), R"({"benchmark_id":"b-1","trial":0})");
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  const auto at = [&](const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) - keys.begin();
  };
  EXPECT_EQ(at("run_info"), at("input_config") + 1);
  EXPECT_EQ(at("was_cancelled"), at("run_info") + 1);
}

// append() gathers lines and writes them 64 KiB at a time (a line that size alone goes straight
// out); writes through stream() between them land in order, and nothing reaches the final name
// before commit().
TEST(AtomicFile, AppendedLinesAndStreamWritesLandInOrder) {
  inferperf::test_files::ScratchDir dir("atomic-append");
  const auto path = dir.path() / "out.jsonl";
  std::string expected;
  {
    inferperf::report::AtomicFile f(path);
    ASSERT_TRUE(f.is_open());
    for (int i = 0; i < 3000; ++i) {
      const std::string line = std::to_string(i) + std::string(1500, 'x') + "\n";
      expected += line;
      if (i % 700 == 0) {
        f.stream() << line;
      } else if (i % 450 == 0) {
        // Exactly the batch: pending text goes first, then this straight out.
        const std::string exact(64 << 10, 'a');
        expected += exact;
        f.append(line);
        f.append(exact);
      } else if (i % 500 == 0) {
        const std::string big = std::string(70 << 10, 'z') + "\n";
        expected += big;
        f.append(line);
        f.append(big);
      } else {
        f.append(line);
      }
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    ASSERT_TRUE(f.commit());
  }
  std::ifstream in(path, std::ios::binary);
  const std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
}

// Writes that fail (the temporary file is a link to /dev/full: every write is ENOSPC), both the
// batches append() wrote on its way and the last one commit() writes: commit() says so, removes
// the temporary file and leaves the earlier complete file as it was.
TEST(AtomicFile, FailedWritesFailTheCommitAndKeepTheEarlierFile) {
  // Without the device the link would dangle and the file be created: nothing would fail.
  if (!std::filesystem::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  inferperf::test_files::ScratchDir dir("atomic-full");
  const auto path = dir.path() / "out.jsonl";
  std::ofstream(path) << "earlier\n";
  auto tmp = path;
  tmp += ".tmp";
  std::filesystem::create_symlink("/dev/full", tmp);
  {
    inferperf::report::AtomicFile f(path);
    ASSERT_TRUE(f.is_open());
    for (int i = 0; i < 200; ++i) f.append(std::string(1000, 'x') + "\n");
    const auto committed = f.commit();
    ASSERT_FALSE(committed);
    EXPECT_EQ(committed.error().message, "write failed (disk full?)");
    EXPECT_EQ(committed.error().file, path.string());
  }
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(tmp)));
  ASSERT_FALSE(std::filesystem::is_symlink(path)) << "the failed file was renamed into place";
  std::ifstream in(path);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "earlier\n");
}

// A file never committed leaves nothing behind, whatever append() held.
TEST(AtomicFile, UncommittedLeavesNoFile) {
  inferperf::test_files::ScratchDir dir("atomic-uncommitted");
  const auto path = dir.path() / "out.jsonl";
  {
    inferperf::report::AtomicFile f(path);
    f.append(std::string(3 << 20, 'y'));
    f.append("tail\n");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

}  // namespace
