// Exact synthetic prompts: time to compose N prompts of L tokens each for one tokenizer, and how
// many came out exact. Usage: inferperf_synthetic_bench TOKENIZER_JSON [N (10000)] [L (8192)]
// [THREADS (0 = cores)]
#include <chrono>
#include <cstdio>
#include <string>

#include "dataset/synthetic.hpp"
#include "tokenizer/resolve.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TOKENIZER_JSON [N] [L]\n", argv[0]);
    return 2;
  }
  const int n = argc > 2 ? std::stoi(argv[2]) : 10000;
  const int len = argc > 3 ? std::stoi(argv[3]) : 8192;
  const int threads = argc > 4 ? std::stoi(argv[4]) : 0;  // 0 = one per core
  auto tok = inferperf::tokenizer::load_tokenizer_file(argv[1]);
  if (!tok) {
    std::fprintf(stderr, "%s\n", tok.error().describe().c_str());
    return 1;
  }
  inferperf::dataset::SyntheticOptions o;
  o.num_conversations = n;
  o.isl_mean = len;
  o.threads = threads;
  inferperf::core::RngFactory rngs(42);
  auto t0 = std::chrono::steady_clock::now();
  auto ds = inferperf::dataset::compose_synthetic(o, rngs, tok->get());
  auto t1 = std::chrono::steady_clock::now();
  int exact = 0;
  for (const auto& c : ds.conversations)
    exact += static_cast<int>((*tok)->count(c.turns[0].text)) == len;
  std::printf("prompts=%d tokens_each=%d seconds=%.2f exact=%d\n", n, len,
              std::chrono::duration<double>(t1 - t0).count(), exact);
  return exact == n ? 0 : 1;
}
