#include "ui/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace inferperf::ui {

std::string format_clock(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const auto total = static_cast<long long>(seconds);
  const long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  if (h > 0) return fmt::format("{}:{:02}:{:02}", h, m, s);
  return fmt::format("{:02}:{:02}", m, s);
}

std::optional<double> phase_fraction(const PhaseProgress& p) {
  if (p.done) return 1.0;
  if (p.target_count && *p.target_count > 0) {
    const double finished = static_cast<double>(p.completed + p.errors);
    return std::clamp(finished / static_cast<double>(*p.target_count), 0.0, 1.0);
  }
  if (p.duration_s && *p.duration_s > 0) return std::clamp(p.elapsed_s / *p.duration_s, 0.0, 1.0);
  return std::nullopt;
}

std::optional<double> phase_eta_s(const PhaseProgress& p) {
  if (p.done) return 0.0;
  if (p.target_count && *p.target_count > 0) {
    const std::int64_t finished = p.completed + p.errors;
    if (finished <= 0 || p.elapsed_s <= 0) return std::nullopt;
    const double rate = static_cast<double>(finished) / p.elapsed_s;
    return static_cast<double>(std::max<std::int64_t>(0, *p.target_count - finished)) / rate;
  }
  if (p.duration_s) return std::max(0.0, *p.duration_s - p.elapsed_s);
  return std::nullopt;
}

std::string progress_bar(double fraction, int width) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int full = static_cast<int>(std::floor(fraction * width + 1e-9));
  return std::string(static_cast<std::size_t>(full), '#') +
         std::string(static_cast<std::size_t>(width - full), '-');
}

std::string phase_line(const PhaseProgress& p) {
  const auto fraction = phase_fraction(p);
  std::string line = fmt::format("[{}] ", p.name);
  if (fraction) {
    line += fmt::format("[{}] {:3.0f}%  ", progress_bar(*fraction, 20), *fraction * 100);
  }
  line += fmt::format("sent {}", p.sent);
  if (p.target_count) line += fmt::format("/{}", *p.target_count);
  line += fmt::format("  completed {}  in flight {}  errors {}  {:.1f} req/s  {:.0f} tok/s  {}",
                      p.completed, p.in_flight, p.errors, p.requests_per_s, p.output_tokens_per_s,
                      format_clock(p.elapsed_s));
  if (p.done) {
    line += "  done";
  } else if (const auto eta = phase_eta_s(p)) {
    line += "  ETA " + format_clock(*eta);
  }
  return line;
}

std::vector<std::string> simple_lines(const ProgressSnapshot& s) {
  std::vector<std::string> lines;
  lines.reserve(s.phases.size());
  for (const auto& p : s.phases) lines.push_back(phase_line(p));
  return lines;
}

std::string sparkline(const std::vector<double>& values, int width) {
  static constexpr char kLevels[] = " .:-=+*#";
  constexpr int kTop = static_cast<int>(sizeof(kLevels)) - 2;
  if (width <= 0) return {};
  const std::size_t n = std::min(values.size(), static_cast<std::size_t>(width));
  const auto first = values.end() - static_cast<std::ptrdiff_t>(n);
  const double top = n ? *std::max_element(first, values.end()) : 0.0;
  std::string out;
  out.reserve(n);
  for (auto it = first; it != values.end(); ++it) {
    int level = 0;
    if (top > 0 && *it > 0) level = std::max(1, static_cast<int>(std::lround(*it / top * kTop)));
    out.push_back(kLevels[level]);
  }
  return out;
}

}  // namespace inferperf::ui
