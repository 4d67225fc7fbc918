#include "records/phase.hpp"

namespace inferperf::records {

const char* to_string(Phase p) {
  return p == Phase::kWarmup ? "warmup" : "profiling";
}

}  // namespace inferperf::records
