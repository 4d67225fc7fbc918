// Number and time formatting shared by the exporters.
#pragma once
#include <string>

#include "core/clock.hpp"

namespace inferperf::report {

// 1234.5 -> "1,234.50" (console style).
std::string with_thousands(double v);
// Naive local-time ISO-8601 with microseconds, as Python's datetime.isoformat().
std::string local_iso8601(core::WallNs t);

}  // namespace inferperf::report
