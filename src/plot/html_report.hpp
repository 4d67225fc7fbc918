// report.html: one file with every chart's SVG inline and its CSS embedded, so it opens from
// disk, a mail attachment or the dashboard without fetching anything.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "plot/charts.hpp"
#include "plot/points.hpp"
#include "plot/theme.hpp"

namespace inferperf::plot {

struct ReportInput {
  const std::vector<Point>* points = nullptr;
  const ChartSet* charts = nullptr;
  const Theme* theme = nullptr;
  std::filesystem::path output_dir;  // where NAME.svg are read from
  std::vector<std::string> inputs;   // the paths given, shown in the header
};

// gnuplot's SVG made fit to inline: the XML prolog dropped, the <title> set to `title`, and every
// id (and reference to one) prefixed with `prefix` so that several charts' ids never collide.
std::string inline_svg(const std::string& svg, const std::string& prefix, const std::string& title);

std::string html_escape(const std::string& s);

// The whole page. Throws PlotError (exit 1) when a chart's SVG cannot be read.
std::string render_report(const ReportInput& in);

}  // namespace inferperf::plot
