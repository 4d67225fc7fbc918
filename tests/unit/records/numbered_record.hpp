// A minimal successful record numbered `n` (credit n, start and end offset by n), for tests that
// push many records through the collector and the records file and check what came out.
#pragma once
#include <cstdint>

#include "records/request_record.hpp"

namespace inferperf::records {

inline RequestRecord numbered(std::int64_t n) {
  RequestRecord r;
  r.credit_num = n;
  r.start_ns = 1'000 + n;
  r.end_ns = 2'000 + n;
  r.status = 200;
  return r;
}

}  // namespace inferperf::records
