#include "plot/gnuplot.hpp"

#include "core/child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "plot/plot_error.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;

namespace {

// Single-quoted gnuplot string: a quote is doubled, nothing else is special (noenhanced).
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "''";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out + "'";
}

// A label column in the data file: double-quoted, without quotes or tabs inside.
std::string data_label(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\t' || c == '\n') ? ' ' : c;
  return out + "\"";
}

std::string num(double v) {
  return fmt::format("{:.10g}", v);
}

bool finite_point(const Series& s, std::size_t i) {
  if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) return false;
  return s.style != Style::kSegments || (i < s.x2.size() && std::isfinite(s.x2[i]));
}

std::size_t drawable(const Series& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) n += finite_point(s, i);
  return n;
}

std::string colour(const Theme& t, const Series& s) {
  return quoted(t.palette[s.color % t.palette.size()]);
}

std::string series_clause(const Series& s, std::size_t index, const Theme& t) {
  const std::string src = fmt::format("'{}' index {} ", "data.dat", index);
  const std::string lc = "lc rgb " + colour(t, s);
  const std::string dt = s.dashed ? " dt 2" : "";
  const std::string axes = s.right_axis ? " axes x1y2" : "";
  const std::string title = s.title.empty() ? " notitle" : " title " + quoted(s.title);
  auto ps = [&](double fallback) {
    return fmt::format(" ps {} ", num(s.point_size > 0 ? s.point_size : fallback));
  };
  const std::string pt = std::to_string(s.point_type > 0 ? s.point_type : 7);
  // A chosen marker (a cross for a failing point) is an outline: thin, it would vanish.
  const std::string point_lw = s.point_type > 0 ? " lw 2.5" : "";
  std::string c;
  switch (s.style) {
    case Style::kLinesPoints:
      c = src + "using 1:2" + axes + " with linespoints lw 2.5 pt " + pt + ps(1.4) + lc + dt +
          title;
      break;
    case Style::kPoints:
      c = src + "using 1:2" + axes + " with points pt " + pt + point_lw + ps(0.7) + lc + title;
      break;
    case Style::kLines:
      c = src + "using 1:2" + axes + " with lines lw 2.5 " + lc + dt + title;
      break;
    case Style::kSteps:
      c = src + "using 1:2" + axes + " with steps lw 2.5 " + lc + dt + title;
      break;
    case Style::kBoxes:
      c = src + fmt::format("using 1:2:({})", num(s.box_width)) + axes +
          " with boxes fs transparent solid 0.35 border " + lc + " " + lc + title;
      break;
    case Style::kSegments:
      c = src + "using 1:2:($3-$1):(0)" + axes + " with vectors nohead lw 3 " + lc + title;
      break;
  }
  if (!s.labels.empty()) {
    const int col = s.style == Style::kSegments ? 4 : 3;
    c += fmt::format(", {}using 1:2:{}{} with labels offset char 0,1.2 tc rgb {} notitle", src, col,
                     axes, quoted(t.foreground));
  }
  return c;
}

}  // namespace

bool has_points(const Chart& chart) {
  for (const auto& s : chart.series)
    if (drawable(s) > 0) return true;
  return false;
}

std::string gnuplot_data(const Chart& chart) {
  std::ostringstream out;
  bool first = true;
  for (const auto& s : chart.series) {
    if (drawable(s) == 0) continue;
    if (!first) out << "\n\n";
    first = false;
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!finite_point(s, i)) continue;
      out << num(s.x[i]) << '\t' << num(s.y[i]);
      if (s.style == Style::kSegments) out << '\t' << num(s.x2[i]);
      if (!s.labels.empty()) out << '\t' << data_label(i < s.labels.size() ? s.labels[i] : "");
      out << '\n';
    }
  }
  return out.str();
}

std::string gnuplot_script(const Chart& chart, const Theme& t) {
  std::ostringstream g;
  const std::string font = "font 'DejaVu Sans,13'";
  const std::string size = fmt::format("size {},{}", kChartWidth, kChartHeight);
  const std::string fg = "rgb " + quoted(t.foreground);
  g << "# " << chart.name << ": drawn by inferperf plot from data.dat; run `gnuplot " << chart.name
    << ".gp` in this folder to redraw ../" << chart.name << ".png and .svg\n";
  g << "set datafile separator '\\t'\n";
  g << "set terminal pngcairo " << size << " noenhanced " << font << " background "
    << quoted(t.background) << "\n";
  g << "set output '../" << chart.name << ".png'\n";
  g << "set title " << quoted(chart.title) << " textcolor " << fg << " font ',17'";
  if (!chart.subtitle.empty()) {
    // The title moves up to make room for the subtitle; both stay above the fixed plot area.
    g << " offset 0,0.7\n";
    g << fmt::format("set label 1 {} at graph 0.5, screen {} center textcolor {} front\n",
                     quoted(chart.subtitle), num(kPlotTop + 0.015), fg);
  } else {
    g << "\n";
  }
  g << "set xlabel " << quoted(chart.x_label) << " textcolor " << fg << "\n";
  g << "set ylabel " << quoted(chart.y_label) << " textcolor " << fg << "\n";
  g << "set border 3 lc " << fg << "\n";
  g << "set tics nomirror textcolor " << fg << "\n";
  g << "set grid lc rgb " << quoted(t.grid) << " lw 1\n";
  g << "set key at screen 0.995, screen " << kPlotTop << " right top textcolor " << fg
    << " box lc rgb " << quoted(t.grid) << "\n";
  g << fmt::format("set lmargin at screen {}\nset rmargin at screen {}\n", kPlotLeft, kPlotRight);
  g << fmt::format("set bmargin at screen {}\nset tmargin at screen {}\n", kPlotBottom, kPlotTop);
  g << "set offsets graph 0.02, graph 0.02, graph 0.08, graph 0.02\n";
  if (chart.y_from_zero) g << "set yrange [0:*]\n";
  bool right = false;
  for (const auto& s : chart.series) right = right || (s.right_axis && drawable(s) > 0);
  if (right) {
    g << "set border 11 lc " << fg << "\n";
    g << "set y2label " << quoted(chart.y2_label) << " textcolor " << fg << "\n";
    g << "set y2tics textcolor " << fg << "\n";
    if (chart.y_from_zero) g << "set y2range [0:*]\n";
  }
  std::vector<std::string> clauses;
  std::size_t index = 0;
  for (const auto& s : chart.series) {
    if (drawable(s) == 0) continue;
    clauses.push_back(series_clause(s, index++, t));
  }
  g << "plot ";
  for (std::size_t i = 0; i < clauses.size(); ++i) g << (i ? ", \\\n     " : "") << clauses[i];
  g << "\n";
  g << "set terminal svg " << size << " noenhanced " << font << " background "
    << quoted(t.background) << "\n";
  g << "set output '../" << chart.name << ".svg'\n";
  g << "replot\n";
  g << "unset output\n";
  std::string script = g.str();
  // Each chart has its own data file name; the clauses above use a placeholder.
  const std::string placeholder = "'data.dat'";
  for (auto pos = script.find(placeholder); pos != std::string::npos;
       pos = script.find(placeholder, pos))
    script.replace(pos, placeholder.size(), quoted(chart.name + ".dat"));
  return script;
}

namespace {

std::string gnuplot_program() {
  const char* env = std::getenv("INFERPERF_GNUPLOT");
  return env && *env ? env : "gnuplot";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

bool gnuplot_available(std::string* why) {
  const fs::path dir = fs::temp_directory_path();
  const fs::path log = dir / fmt::format("inferperf-gnuplot-check-{}.log", getpid());
  const int rc = core::run_child(
      {gnuplot_program(), "-e", "set terminal pngcairo; set terminal svg"}, {dir, log});
  const std::string text = slurp(log);
  std::error_code ec;
  fs::remove(log, ec);
  if (rc == 0 && text.find("unknown") == std::string::npos) return true;
  if (why) {
    *why = rc == 127 ? gnuplot_program() + " not found (install the gnuplot-nox package)"
                     : gnuplot_program() + " lacks the pngcairo or svg terminal: " + text;
  }
  return false;
}

std::string render_chart(const Chart& chart, const Theme& theme, const fs::path& output_dir) {
  // Absolute: gnuplot runs with its working folder set to `work`.
  const fs::path work = fs::absolute(output_dir) / "gnuplot";
  std::error_code ec;
  fs::create_directories(work, ec);
  if (ec)
    throw output_error("inferperf plot: cannot create " + work.string() + ": " + ec.message());
  auto write = [&](const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw output_error("inferperf plot: cannot write " + p.string());
  };
  write(work / (chart.name + ".dat"), gnuplot_data(chart));
  write(work / (chart.name + ".gp"), gnuplot_script(chart, theme));
  const fs::path png = output_dir / (chart.name + ".png");
  const fs::path svg = output_dir / (chart.name + ".svg");
  fs::remove(png, ec);
  fs::remove(svg, ec);
  const fs::path log = work / (chart.name + ".log");
  const int rc = core::run_child({gnuplot_program(), chart.name + ".gp"}, {work, log});
  const std::string messages = slurp(log);
  if (rc != 0 || !fs::exists(png, ec) || !fs::exists(svg, ec) || fs::file_size(png, ec) == 0)
    throw output_error(fmt::format("inferperf plot: gnuplot failed on {} (exit {}): {}",
                                   (work / (chart.name + ".gp")).string(), rc, messages));
  return messages;
}

}  // namespace inferperf::plot
