// Micro benchmarks of the per-event hot path: SSE framing and chat chunk decoding.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/statistics.hpp"
#include "endpoint/endpoint.hpp"
#include "sse/sse_parser.hpp"

namespace {

std::string make_stream(int events) {
  std::string s;
  for (int i = 0; i < events; ++i) {
    s +=
        R"(data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" word"},"finish_reason":null}]})";
    s += "\n\n";
  }
  return s;
}

void BM_SseParse(benchmark::State& state) {
  const std::string stream = make_stream(1000);
  const auto piece = static_cast<std::size_t>(state.range(0));
  std::vector<inferperf::sse::SseEvent> out;
  for (auto _ : state) {
    inferperf::sse::SseParser p;
    out.clear();
    for (std::size_t i = 0; i < stream.size(); i += piece)
      p.feed(std::string_view(stream).substr(i, piece), out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_SseParse)->Arg(64)->Arg(1500)->Arg(65536);

void BM_ChatChunkDecode(benchmark::State& state) {
  auto ep = inferperf::endpoint::make_endpoint(inferperf::config::EndpointType::kChat);
  const std::string payload =
      R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" word"},"finish_reason":null}]})";
  for (auto _ : state) {
    auto d = ep->decode(payload);
    benchmark::DoNotOptimize(d.content.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ChatChunkDecode);

void BM_Stats(benchmark::State& state) {
  std::vector<double> v(static_cast<std::size_t>(state.range(0)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7919) % 1000);
  for (auto _ : state) {
    auto s = inferperf::core::compute_stats(v);
    benchmark::DoNotOptimize(s.avg);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Stats)->Arg(1000)->Arg(1000000);

}  // namespace

BENCHMARK_MAIN();
