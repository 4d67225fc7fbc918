// Micro benchmarks of the per-request work around the network: building a chat request (body
// JSON and the serialized HTTP request) and turning a finished streaming record into its metric
// values.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/uuid.hpp"
#include "dataset/conversation.hpp"
#include "endpoint/endpoint.hpp"
#include "metrics/compute.hpp"
#include "metrics/record_values.hpp"
#include "records/record_line.hpp"
#include "records/request_record.hpp"
#include "transport/url.hpp"
#include "worker/request_plan.hpp"

namespace {

namespace ds = inferperf::dataset;
namespace rec = inferperf::records;
namespace metrics = inferperf::metrics;
namespace worker = inferperf::worker;

// ~500 tokens of English (about 4 characters per token), with the escapes a real prompt carries.
std::string prompt_text() {
  static const char* kWords[] = {"the",       "quick", "brown",  "fox",    "jumps",  "over",
                                 "a",         "lazy",  "dog",    "while",  "\"it\"", "rains\n",
                                 "benchmark", "token", "server", "latency"};
  std::string s;
  for (int i = 0; s.size() < 2000; ++i) {
    if (!s.empty()) s += ' ';
    s += kWords[(i * 7) % 16];
  }
  return s;
}

struct ChatFixture {
  std::unique_ptr<inferperf::endpoint::Endpoint> endpoint =
      inferperf::endpoint::make_endpoint(inferperf::config::EndpointType::kChat);
  std::vector<std::pair<std::string, nlohmann::json>> extra{{"ignore_eos", true}};
  ds::Dataset dataset;
  worker::RequestPlan plan;
  std::vector<ds::Turn> history;

  ChatFixture() {
    ds::Conversation conv;
    conv.session_id = inferperf::core::uuid4();
    ds::Turn t;
    t.text = prompt_text();
    t.max_tokens = 100;
    conv.turns.push_back(t);
    dataset.conversations.push_back(conv);
    history.push_back(t);
    plan.streaming = true;
    plan.endpoint = endpoint.get();
    plan.dataset = &dataset;
    plan.body_options.model = "mock-model";
    plan.body_options.streaming = true;
    plan.body_options.include_usage = true;
    plan.body_options.extra = &extra;
    plan.headers = {{"Authorization", "Bearer sk-0123456789abcdef"}};
    auto url = inferperf::transport::parse_base_url("http://127.0.0.1:8000");
    plan.targets.push_back(worker::Target{*url, "/v1/chat/completions"});
  }
};

// The JSON body of one chat turn: what a worker builds per request for later turns of a
// multi-turn session (first turns are prebuilt before the run).
void BM_ChatBodyBuild(benchmark::State& state) {
  ChatFixture f;
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string body = worker::build_body_text(f.plan, f.dataset.conversations.front(), f.history);
    bytes = body.size();
    benchmark::DoNotOptimize(body.data());
  }
  state.counters["body_bytes"] = static_cast<double>(bytes);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ChatBodyBuild);

// What every request costs on the worker given its body: the X-Request-ID and the serialized
// HTTP request (the target's head, assembled once as the worker does, with the ids and body).
void BM_ChatRequestSerialize(benchmark::State& state) {
  ChatFixture f;
  const std::string body =
      worker::build_body_text(f.plan, f.dataset.conversations.front(), f.history);
  const std::string correlation = inferperf::core::uuid4();
  const worker::RequestHead head = worker::request_head(f.plan, f.plan.targets.front());
  for (auto _ : state) {
    const std::string id = inferperf::core::uuid4();
    std::string request = worker::serialize_request(f.plan, head, body, id, correlation);
    benchmark::DoNotOptimize(request.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ChatRequestSerialize);

// A finished streaming chat request: 100 content events ~20 ms apart, usage from the server.
rec::RequestRecord streaming_record(std::int64_t i) {
  rec::RequestRecord r;
  r.x_request_id = inferperf::core::uuid4();
  r.x_correlation_id = r.x_request_id;
  r.conversation_id = "conv";
  const std::int64_t t0 = 1'000'000'000 + i * 1'000'000;
  r.intended_ns = r.issued_ns = r.start_ns = t0;
  r.connect_start_ns = r.connect_end_ns = t0 + 1'000;
  r.send_start_ns = t0 + 2'000;
  r.send_end_ns = t0 + 10'000;
  r.headers_ns = r.first_byte_ns = t0 + 100'000'000;
  r.status = 200;
  r.requested_osl = 100;
  for (std::int64_t j = 0; j < 100; ++j) {
    r.content_events.push_back(
        rec::ContentEvent{t0 + 100'000'000 + j * 20'000'000 + (j * 7919) % 5000,
                          static_cast<std::uint32_t>(j), " word", ""});
  }
  r.last_event_ns = r.end_ns = r.content_events.back().ts_ns + 50'000;
  r.events = 102;
  r.reads = 100;
  r.usage.prompt_tokens = 500;
  r.usage.completion_tokens = 100;
  r.usage.total_tokens = 600;
  r.finish_reason = "length";
  return r;
}

metrics::MetricOptions streaming_options() {
  metrics::MetricOptions o;
  o.streaming = true;
  o.token_source = metrics::TokenSource::kServerUsage;
  return o;
}

// One record's metric values (TTFT, ITL, latency, per-chunk gaps, ...).
void BM_RecordValues(benchmark::State& state) {
  std::vector<rec::RequestRecord> records;
  for (std::int64_t i = 0; i < 1000; ++i) records.push_back(streaming_record(i));
  const auto o = streaming_options();
  std::size_t k = 0;
  for (auto _ : state) {
    metrics::RecordFlags flags;
    auto v = metrics::record_values(records[k], o, flags);
    benchmark::DoNotOptimize(v.scalars.data());
    k = (k + 1) % records.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordValues);

// Writes the records' lines in turn, one per iteration (what the records writer does per finished
// request).
void write_record_lines(benchmark::State& state, const std::vector<rec::RequestRecord>& records) {
  const auto anchor = inferperf::core::WallAnchor::capture();
  std::string line;
  std::size_t k = 0;
  for (auto _ : state) {
    line.clear();
    rec::append_record_line(records[k], anchor, line);
    benchmark::DoNotOptimize(line.data());
    k = (k + 1) % records.size();
  }
  state.SetItemsProcessed(state.iterations());
}

// One record's line in the records file: the streaming record above, 100 content events.
void BM_RecordLine(benchmark::State& state) {
  std::vector<rec::RequestRecord> records;
  for (std::int64_t i = 0; i < 1000; ++i) records.push_back(streaming_record(i));
  write_record_lines(state, records);
}
BENCHMARK(BM_RecordLine);

// The same for a finished non-streaming request (one content event, the shape of the closed
// loop bench/wrk_compare.sh runs): the records writer's share of a request's CPU there.
void BM_RecordLineNonStreaming(benchmark::State& state) {
  std::vector<rec::RequestRecord> records;
  for (std::int64_t i = 0; i < 1000; ++i) {
    auto r = streaming_record(i);
    r.conversation_id = inferperf::core::uuid4();
    r.content_events.resize(1);
    r.content_events[0].content = "been described by Lucian, Locke and other observers, but";
    r.events = r.reads = 1;
    r.client_tokens.input = 64;
    r.client_tokens.output = 12;
    r.client_tokens.per_event = {12};
    records.push_back(std::move(r));
  }
  write_record_lines(state, records);
}
BENCHMARK(BM_RecordLineNonStreaming);

// The whole analysis over N records (values, pooled statistics, derived metrics), per record.
void BM_ComputeMetrics(benchmark::State& state) {
  std::vector<rec::RequestRecord> records;
  for (std::int64_t i = 0; i < state.range(0); ++i) records.push_back(streaming_record(i));
  const auto o = streaming_options();
  for (auto _ : state) {
    auto result = metrics::compute_metrics(records, o);
    benchmark::DoNotOptimize(result.metrics.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ComputeMetrics)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
