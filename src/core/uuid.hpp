// UUID version 4 strings for X-Request-ID / X-Correlation-ID / benchmark_id.
#pragma once
#include <random>
#include <string>

namespace inferperf::core {

std::string uuid4(std::mt19937_64& rng);
// Thread-local, entropy-seeded generator for ids that need not be reproducible.
std::string uuid4();

}  // namespace inferperf::core
