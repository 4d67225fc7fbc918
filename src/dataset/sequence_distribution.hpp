// --seq-dist: a discrete distribution of (ISL, OSL) pairs with optional per-pair stddevs.
// Accepted forms: "ISL,OSL:P;ISL,OSL:P" (P in percent, summing to 100; "|stddev" may follow each
// number), "[(ISL,OSL):P,...]", and JSON
// {"pairs":[{"isl","osl","prob","isl_stddev","osl_stddev"}]}.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace inferperf::dataset {

struct SequencePair {
  int isl = 0;
  int osl = 0;
  double probability = 0;  // percent
  double isl_stddev = 0;
  double osl_stddev = 0;
};

struct SequenceDistribution {
  std::vector<SequencePair> pairs;
  // Picks a pair with probability proportional to its percentage.
  const SequencePair& pick(std::mt19937_64& rng) const;
};

core::Result<SequenceDistribution> parse_sequence_distribution(const std::string& text);

}  // namespace inferperf::dataset
