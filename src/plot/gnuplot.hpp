// The one renderer: a chart becomes a gnuplot data file and script (kept in <output>/gnuplot/ so a
// chart can be redrawn by hand), and one gnuplot run of that script writes the PNG and the SVG.
#pragma once
#include <filesystem>
#include <string>

#include "plot/chart.hpp"
#include "plot/theme.hpp"

namespace inferperf::plot {

inline constexpr int kChartWidth = 1600;
inline constexpr int kChartHeight = 800;
// The plot area as fractions of the image, from the left and from the bottom (fixed margins, so
// the legend and axis labels never move it; tests probe inside it).
inline constexpr double kPlotLeft = 0.07;
inline constexpr double kPlotRight = 0.74;
inline constexpr double kPlotBottom = 0.11;
inline constexpr double kPlotTop = 0.91;

// The script that draws `chart` from NAME.dat in the current folder into ../NAME.png and
// ../NAME.svg. Pure, for tests.
std::string gnuplot_script(const Chart& chart, const Theme& theme);
// The data file: one block per series (gnuplot's `index`), tab-separated; non-finite points
// left out.
std::string gnuplot_data(const Chart& chart);

// Whether a gnuplot with the pngcairo and svg terminals is on PATH (or at $INFERPERF_GNUPLOT).
bool gnuplot_available(std::string* why = nullptr);

// Writes the files and runs gnuplot in `output_dir`/gnuplot. Throws PlotError (exit 1) with
// gnuplot's messages when it fails or writes no PNG/SVG. Returns gnuplot's warnings, if any.
std::string render_chart(const Chart& chart, const Theme& theme,
                         const std::filesystem::path& output_dir);

}  // namespace inferperf::plot
