// Tokenizer throughput: encode MB/s on a mixed corpus built from the reference vectors' strings,
// and tokenizer.json load time. Usage: inferperf_tokenizer_bench TOKENIZER_JSON VECTORS_JSONL [MB]
#include <nlohmann/json.hpp>

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
  auto t0 = clk::now();
  auto tok = inferperf::tokenizer::HfTokenizer::load(argv[1]);
  auto t1 = clk::now();
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
  auto t2 = clk::now();
  for (const auto& d : docs) tokens += (*tok)->encode(d).size();
  auto t3 = clk::now();
  const double load_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double enc_s = std::chrono::duration<double>(t3 - t2).count();
  std::printf("load_ms=%.1f bytes=%zu tokens=%zu encode_s=%.3f MB_per_s=%.2f\n", load_ms, total,
              tokens, enc_s, total / 1e6 / enc_s);
  return 0;
}
