// The benchmark phase a request belongs to. A header of its own so the scheduler (timing), which
// stamps credits with it, does not include the whole record.
#pragma once

namespace inferperf::records {

enum class Phase { kWarmup, kProfiling };
// "warmup" | "profiling": AIPerf's spelling in the exports.
const char* to_string(Phase p);

}  // namespace inferperf::records
