// A chart as data: what to draw, independent of the files gnuplot reads and writes.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace inferperf::plot {

enum class Style {
  kLinesPoints,
  kPoints,
  kLines,
  kSteps,     // a step function, x holds step starts
  kBoxes,     // histogram bars centred on x, `box_width` wide
  kSegments,  // horizontal segments from (x, y) to (x2, y)
};

struct Series {
  std::string title;  // legend entry; empty: not in the legend
  Style style = Style::kLinesPoints;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> x2;           // kSegments only
  std::vector<std::string> labels;  // drawn beside each point when not empty ("c=8")
  std::size_t color = 0;            // index into the theme's palette
  bool dashed = false;
  bool right_axis = false;  // plotted against the y2 axis
  double box_width = 0;     // kBoxes
  double point_size = 0;    // 0: the style's default
  int point_type = 0;       // gnuplot's pt for kPoints and kLinesPoints; 0: a filled circle
};

struct Chart {
  std::string name;  // file stem of NAME.png / NAME.svg; the chart's name in docs/plots.md, Charts
  std::string title;
  std::string subtitle;  // a smaller line under the title: the chart's answer in words
  std::string x_label;
  std::string y_label;
  std::string y2_label;  // with a right_axis series
  std::string caption;   // one sentence under the chart in the report: what it shows
  std::vector<Series> series;
  bool y_from_zero = false;
};

// Whether any series has a point to draw.
bool has_points(const Chart& chart);

// Keeps every k-th point (and the last) of series longer than `max_points`, so a chart of a long
// run stays a few MB of SVG; histogram bars are never thinned. Returns the largest k used (1:
// nothing thinned).
std::size_t thin(Chart& chart, std::size_t max_points);

}  // namespace inferperf::plot
