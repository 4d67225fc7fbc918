// Tokenizer throughput: encode MB/s on a mixed corpus built from the reference vectors' strings,
// and tokenizer.json load time. Usage: inferperf_tokenizer_bench TOKENIZER_JSON VECTORS_JSONL [MB]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tokenizer/hf_tokenizer.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TOKENIZER_JSON VECTORS_JSONL [MB]\n", argv[0]);
    return 2;
  }
  const double target_mb = argc > 3 ? std::stod(argv[3]) : 10.0;
  using clk = std::chrono::steady_clock;
  // This machine is noisy: load and encode are repeated and the median is reported (the first,
  // cold-cache encode pass is reported as well).
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> loads;
  inferperf::core::Result<std::unique_ptr<inferperf::tokenizer::HfTokenizer>> tok =
      inferperf::tokenizer::HfTokenizer::load(argv[1]);
  for (int i = 0; i < 5 && tok; ++i) {
    auto t0 = clk::now();
    tok = inferperf::tokenizer::HfTokenizer::load(argv[1]);
    loads.push_back(std::chrono::duration<double, std::milli>(clk::now() - t0).count());
  }
  if (!tok) {
    std::fprintf(stderr, "%s\n", tok.error().describe().c_str());
    return 1;
  }
  // Documents of a few KB each, cycling through every vector string.
  std::vector<std::string> texts;
  std::ifstream in(argv[2]);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) texts.push_back(nlohmann::json::parse(line)["text"].get<std::string>());
  }
  std::vector<std::string> docs;
  std::size_t total = 0, k = 0;
  while (total < target_mb * 1e6) {
    std::string doc;
    while (doc.size() < 4096) doc += texts[k++ % texts.size()] + "\n";
    total += doc.size();
    docs.push_back(std::move(doc));
  }
  std::size_t tokens = 0;
  std::vector<double> passes;
  for (int pass = 0; pass < 5; ++pass) {
    tokens = 0;
    auto t2 = clk::now();
    for (const auto& d : docs) tokens += (*tok)->encode(d).size();
    passes.push_back(std::chrono::duration<double>(clk::now() - t2).count());
  }
  const double enc_s = median(passes);
  std::printf("load_ms=%.1f bytes=%zu tokens=%zu encode_s=%.3f MB_per_s=%.2f cold_MB_per_s=%.2f\n",
              median(loads), total, tokens, enc_s, total / 1e6 / enc_s,
              total / 1e6 / passes.front());
  return 0;
}
