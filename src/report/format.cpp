#include "report/format.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ctime>

namespace inferperf::report {

std::string with_thousands(double v) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  std::string digits = fmt::format("{:.2f}", std::abs(v));
  const std::size_t dot = digits.find('.');
  std::string grouped;
  for (std::size_t i = 0; i < dot; ++i) {
    if (i > 0 && (dot - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(digits[i]);
  }
  grouped += digits.substr(dot);
  return (v < 0 && grouped != "0.00" ? "-" : "") + grouped;
}

std::string local_iso8601(core::WallNs t) {
  std::time_t secs = static_cast<std::time_t>(t / 1'000'000'000);
  long micros = static_cast<long>((t % 1'000'000'000) / 1000);
  if (micros < 0) {
    micros += 1'000'000;
    secs -= 1;
  }
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:06d}", buf, micros);
}

}  // namespace inferperf::report
