// profile_export_raw.jsonl lines from hand-made records: exact JSON, and the metadata shared with
// profile_export.jsonl.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "records/raw_exchange.hpp"
#include "report/exporters.hpp"

namespace {

using inferperf::metrics::BenchmarkResult;
using inferperf::metrics::RecordValues;
using inferperf::records::ErrorInfo;
using inferperf::records::RawExchange;
using inferperf::records::RawResponse;
using inferperf::records::RequestRecord;
using inferperf::report::raw_jsonl_line;
using inferperf::report::record_metadata;
using inferperf::report::ReportContext;
using inferperf::report::write_raw_jsonl;

ReportContext context() {
  ReportContext ctx;
  ctx.anchor.mono_ns = 1000;
  ctx.anchor.wall_ns = 5000;
  return ctx;
}

RequestRecord base_record() {
  RequestRecord r;
  r.credit_num = 3;
  r.x_request_id = "rid";
  r.x_correlation_id = "cid";
  r.conversation_id = "conv";
  r.worker_id = 1;
  r.issued_ns = 1100;
  r.start_ns = 1200;
  r.headers_ns = 1300;
  r.last_event_ns = 1500;
  r.end_ns = 1600;
  return r;
}

const std::string kMetadata =
    R"({"session_num":3,"x_request_id":"rid","x_correlation_id":"cid","conversation_id":"conv",)"
    R"("turn_index":0,"agent_depth":0,"credit_issued_ns":5100,"request_start_ns":5200,"request_ack_ns":5300,)"
    R"("request_end_ns":5500,"worker_id":"worker_1","record_processor_id":"collector",)"
    R"("benchmark_phase":"profiling","was_cancelled":false})";

TEST(RawJsonl, StreamingLine) {
  RequestRecord r = base_record();
  r.status = 200;
  auto raw = std::make_shared<RawExchange>();
  raw->payload = R"({"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true})";
  raw->request_headers = {{"Host", "h:8000"}, {"Authorization", "<redacted>"}};
  raw->response_headers = {{"Content-Type", "text/event-stream"}, {"X-A", "1, 2"}};
  raw->responses.push_back(RawResponse{1400, {{"data", R"({"x":1})"}}, std::nullopt, ""});
  raw->responses.push_back(
      RawResponse{1500, {{"comment", "k"}, {"event", "message"}, {"data", "[DONE]"}}, {}, ""});
  r.raw = raw;
  EXPECT_EQ(
      raw_jsonl_line(r, context()),
      R"({"metadata":)" + kMetadata +
          R"(,"start_perf_ns":1200,)"
          R"("payload":{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true},)"
          R"("request_headers":{"Host":"h:8000","Authorization":"<redacted>"},"status":200,)"
          R"("responses":[{"perf_ns":1400,"packets":[{"name":"data","value":"{\"x\":1}"}]},)"
          R"({"perf_ns":1500,"packets":[{"name":"comment","value":"k"},)"
          R"({"name":"event","value":"message"},{"name":"data","value":"[DONE]"}]}],)"
          // AIPerf writes no response headers; inferperf's come after every AIPerf key.
          R"("response_headers":{"Content-Type":"text/event-stream","X-A":"1, 2"}})");
}

TEST(RawJsonl, SecretExtraInputsAreRedactedInThePayload) {
  RequestRecord r = base_record();
  r.status = 200;
  r.raw = std::make_shared<RawExchange>();
  r.raw->payload = R"({"model":"m","api_key":"s1","max_tokens":5,"nested":{"api_key":"kept"}})";
  ReportContext ctx = context();
  ctx.secret_body_keys = {"api_key", "absent_token"};
  const auto line = nlohmann::ordered_json::parse(raw_jsonl_line(r, ctx));
  EXPECT_EQ(line["payload"].dump(),
            R"({"model":"m","api_key":"<redacted>","max_tokens":5,"nested":{"api_key":"kept"}})");
}

TEST(RawJsonl, NonStreamingErrorLine) {
  RequestRecord r = base_record();
  r.status = 500;
  r.error = ErrorInfo{500, inferperf::core::RequestErrorType::http("Internal Server Error"),
                      R"({"detail":"boom"})"};
  auto raw = std::make_shared<RawExchange>();
  raw->payload = R"({"b":1,"a":2})";
  raw->responses.push_back(RawResponse{1500, {}, R"({"detail":"boom"})", "application/json"});
  r.raw = raw;
  EXPECT_EQ(raw_jsonl_line(r, context()),
            R"({"metadata":)" + kMetadata +
                R"(,"start_perf_ns":1200,"payload":{"b":1,"a":2},"request_headers":{},)"
                R"("status":500,)"
                R"("responses":[{"perf_ns":1500,"text":"{\"detail\":\"boom\"}",)"
                R"("content_type":"application/json"}],)"
                R"("error":{"code":500,"type":"Internal Server Error",)"
                R"("message":"{\"detail\":\"boom\"}"},"response_headers":{}})");
}

TEST(RawJsonl, NoResponseHasNullStatus) {
  RequestRecord r = base_record();
  r.headers_ns = 0;
  r.last_event_ns = 0;
  r.was_cancelled = true;
  r.error =
      ErrorInfo{std::nullopt, inferperf::core::RequestErrorKind::kConnectionRefused, "refused"};
  r.raw = std::make_shared<RawExchange>();
  r.raw->payload = "not json";
  const auto line = nlohmann::ordered_json::parse(raw_jsonl_line(r, context()));
  EXPECT_EQ(line["payload"], "not json");  // kept as the text sent
  EXPECT_TRUE(line["status"].is_null());
  EXPECT_EQ(line["responses"], nlohmann::ordered_json::array());
  EXPECT_EQ(line["error"].dump(),
            R"({"code":null,"type":"ConnectionRefusedError","message":"refused"})");
  EXPECT_EQ(line["metadata"], record_metadata(r, context()));
  EXPECT_EQ(line["metadata"]["cancellation_time_ns"], 5600);
  EXPECT_FALSE(line["metadata"].contains("request_ack_ns"));
}

TEST(RawJsonl, OneLinePerRecordWithRawInOrder) {
  std::vector<RequestRecord> recs(3, base_record());
  recs[0].credit_num = 7;
  recs[0].raw = std::make_shared<RawExchange>();
  recs[0].raw->payload = "{}";
  recs[2].credit_num = 2;
  recs[2].raw = std::make_shared<RawExchange>();
  recs[2].raw->payload = "{}";
  BenchmarkResult result;
  for (const auto& r : recs) {
    RecordValues v;
    v.record = &r;
    result.per_record.push_back(std::move(v));
  }
  std::ostringstream out;
  write_raw_jsonl(result, context(), out);
  std::istringstream in(out.str());
  std::vector<std::int64_t> nums;
  for (std::string line; std::getline(in, line);) {
    nums.push_back(nlohmann::json::parse(line)["metadata"]["session_num"].get<std::int64_t>());
  }
  EXPECT_EQ(nums, (std::vector<std::int64_t>{7, 2}));
}

}  // namespace
