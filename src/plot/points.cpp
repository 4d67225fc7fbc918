#include "plot/points.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

namespace inferperf::plot {

namespace {

struct Dimension {
  const char* prefix;
  std::optional<double> RunParams::*field;
};
constexpr std::array<Dimension, 4> kDimensions = {{{"c", &RunParams::concurrency},
                                                   {"rate", &RunParams::request_rate},
                                                   {"isl", &RunParams::isl},
                                                   {"osl", &RunParams::osl}}};

bool varies(const std::vector<Point>& points, const Dimension& d) {
  for (const auto& p : points)
    if (p.params().*d.field != points.front().params().*d.field) return true;
  return false;
}

}  // namespace

std::string short_number(double v) {
  return fmt::format("{:g}", v);
}

std::optional<double> Point::mean(std::string_view tag, std::string_view stat) const {
  double sum = 0;
  int n = 0;
  for (const auto& r : runs)
    if (auto v = r.stat(tag, stat)) {
      sum += *v;
      ++n;
    }
  if (n == 0) return std::nullopt;
  return sum / n;
}

double Point::gpus_or_one() const {
  int n = 0;
  for (const auto& r : runs) n = std::max(n, r.gpu_count);
  return n > 0 ? n : 1;
}

void label_and_sort(std::vector<Point>& points) {
  if (points.empty()) return;
  std::vector<const Dimension*> dims;
  for (const auto& d : kDimensions)
    if (varies(points, d)) dims.push_back(&d);
  if (dims.empty() && points.size() == 1) {
    for (const auto& d : kDimensions)
      if (points.front().params().*d.field) {
        dims.push_back(&d);
        break;
      }
  }
  for (auto& p : points) {
    std::string label;
    for (const auto* d : dims) {
      const auto& v = p.params().*d->field;
      if (!label.empty()) label += ", ";
      label += std::string(d->prefix) + "=" + (v ? short_number(*v) : "?");
    }
    p.label = label.empty() ? p.name : label;
  }
  // Unset values sort first; ties keep the discovery order.
  std::stable_sort(points.begin(), points.end(), [&](const Point& a, const Point& b) {
    for (const auto* d : dims) {
      const auto& va = a.params().*d->field;
      const auto& vb = b.params().*d->field;
      if (va != vb) return va < vb;
    }
    return false;
  });
}

std::vector<Point> load_points(const Discovery& found) {
  std::vector<Point> points;
  for (const auto& pd : found.points) {
    Point p;
    std::error_code ec;
    const auto canonical = std::filesystem::weakly_canonical(pd.dir, ec);
    p.name = (ec ? pd.dir : canonical).filename().string();
    for (const auto& r : pd.runs) p.runs.push_back(load_run(r));
    points.push_back(std::move(p));
  }
  label_and_sort(points);
  return points;
}

std::vector<RunSeries> run_series(const std::vector<Point>& points) {
  std::vector<RunSeries> out;
  for (const auto& p : points)
    for (std::size_t i = 0; i < p.runs.size(); ++i) {
      RunSeries s;
      s.run = &p.runs[i];
      s.label = p.runs.size() > 1 ? fmt::format("{} run {}", p.label, i + 1) : p.label;
      s.color = out.size();
      out.push_back(s);
    }
  return out;
}

}  // namespace inferperf::plot
