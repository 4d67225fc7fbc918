// `inferperf validate --target mooncake-trace`: every line of a mooncake_trace JSONL checked
// against AIPerf 0.11's row model (MooncakeTrace) and the rules inferperf's loader adds to replay
// it (value ranges, sessions that do not mix input forms, hash-id blocks that fit the input length
// and keep one size). Unlike the loader it goes on after a problem, so one pass lists them all.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inferperf::app {

struct TraceProblem {
  int line = 0;       // 1-based
  std::string field;  // "" when the line as a whole is wrong
  std::string message;
};

struct TraceCheck {
  long long records = 0;   // non-blank lines
  long long sessions = 0;  // distinct session_id values, plus each row without one
  long long hash_ids = 0;  // distinct hash ids
  std::optional<double> first_timestamp_ms, last_timestamp_ms;  // lowest and highest
  bool timestamps_sorted = true;                                // non-decreasing in file order
  long long problem_count = 0;
  std::vector<TraceProblem> problems;  // the first `max_listed`
};

// The checks over a whole file's text. `block_size`: tokens per hash id (mooncake's 512 unless
// --isl-block-size says otherwise).
TraceCheck check_mooncake_trace(std::string_view content, int block_size,
                                std::size_t max_listed = 50);

}  // namespace inferperf::app
