// AIPerf 0.11's trace synthesis over rows with hash ids (--synthesis-prefix-len-multiplier,
// --synthesis-prefix-root-multiplier, --synthesis-prompt-len-multiplier) and the output-length
// scaling every trace format applies (--synthesis-output-len-multiplier, then --synthesis-max-osl).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset/custom_loader.hpp"

namespace inferperf::dataset {

// One row's prompt shape: its hash-id blocks and its length in tokens.
struct PrefixRecord {
  std::vector<std::int64_t> hash_ids;
  long long input_length = 0;
};

// The prefix-structure transform, in record order (rows without hash ids are left alone):
// - a hash id is "shared" when it occurs more than once over all records; a row's prefix is its
//   leading run of shared ids (P blocks), the rest of its length is its own prompt;
// - prefix multiplier m > 1: each prefix id h becomes the ids h*M .. h*M+M-1 (M = trunc(m)), then
//   fresh ids up to ceil(P*m) blocks; m < 1: the first max(1, trunc(P*m)) ids are kept (the
//   prefix length counts that many full blocks even when the row had no prefix);
// - the own prompt becomes trunc(length * prompt multiplier) tokens over fresh, unique ids;
// - root multiplier R > 1: each row is moved to one of R independent trees drawn uniformly
//   (tree t > 0 adds t * (largest id + 1) to every id of the row).
// Fresh ids count up from (largest shared id + 1) * M. The error names the row (0-based) whose
// length is shorter than its shared prefix.
std::optional<std::string> restructure_prefixes(std::vector<PrefixRecord>& records,
                                                const SynthesisOptions& syn, int block_size,
                                                std::uint64_t seed);

// output_length after --synthesis-output-len-multiplier (rounded half to even, at least 1) and
// --synthesis-max-osl (a cap applied after the multiplier).
long long synthesized_output_length(long long output_length, const SynthesisOptions& syn);

// Lowers a recorded per-turn delay (ms) to the cap (seconds, when set), counting the clamps.
struct DelayCap {
  std::optional<double> cap_s;
  std::size_t capped = 0;
  double max_seen_ms = 0.0;
  double apply(double delay_ms);
};
// The load's summary of the cap: the count in `out`, and a warning line when it capped any
// delay, or when a recorded delay over a minute went uncapped.
void report_delay_cap(const DelayCap& cap, CustomDataset& out);

}  // namespace inferperf::dataset
