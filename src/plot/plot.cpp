#include "plot/plot.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "plot/charts.hpp"
#include "plot/dashboard.hpp"
#include "plot/discovery.hpp"
#include "plot/gnuplot.hpp"
#include "plot/html_report.hpp"
#include "plot/plot_error.hpp"
#include "plot/points.hpp"
#include "plot/theme.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw output_error("inferperf plot: cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) throw output_error("inferperf plot: cannot write " + p.string() + ": " + ec.message());
}

// Charts an earlier call drew and this one does not would otherwise linger beside the new ones.
void remove_stale_charts(const fs::path& out, const ChartSet& set) {
  std::ifstream in(out / kPlotManifest);
  if (!in) return;
  nlohmann::json old;
  try {
    old = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return;
  }
  std::set<std::string> now;
  for (const auto& c : set.charts) now.insert(c.name);
  if (!old.contains("charts") || !old["charts"].is_array()) return;
  for (const auto& c : old["charts"]) {
    const std::string name = c.value("name", "");
    if (name.empty() || now.count(name) || name.find('/') != std::string::npos) continue;
    std::error_code ec;
    for (const char* ext : {".png", ".svg"}) fs::remove(out / (name + ext), ec);
    for (const char* ext : {".gp", ".dat", ".log"}) fs::remove(out / "gnuplot" / (name + ext), ec);
  }
}

std::string manifest(const std::vector<Point>& points, const ChartSet& set,
                     const std::string& theme) {
  nlohmann::ordered_json j;
  j["theme"] = theme;
  j["charts"] = nlohmann::ordered_json::array();
  for (const auto& c : set.charts)
    j["charts"].push_back({{"name", c.name},
                           {"title", c.title},
                           {"png", c.name + ".png"},
                           {"svg", c.name + ".svg"},
                           {"series", c.series.size()}});
  j["skipped"] = nlohmann::ordered_json::array();
  for (const auto& s : set.skipped)
    j["skipped"].push_back({{"name", s.name}, {"reason", s.reason}});
  j["points"] = nlohmann::ordered_json::array();
  for (const auto& p : points) {
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const auto& r : p.runs) runs.push_back(r.dir.string());
    j["points"].push_back({{"label", p.label}, {"name", p.name}, {"runs", runs}});
  }
  return j.dump(2) + "\n";
}

int plot(const PlotOptions& o) {
  const Theme& theme = theme_named(o.theme);
  const std::vector<std::string> inputs = input_paths(o);
  std::vector<fs::path> paths(inputs.begin(), inputs.end());
  const fs::path out = output_folder(o);

  const Discovery found = discover_runs(paths);
  std::vector<Point> points = load_points(found);
  std::size_t runs = 0;
  for (const auto& p : points) runs += p.runs.size();
  if (o.verbose) {
    for (const auto& n : found.notes) std::cout << "inferperf plot: skipped " << n << "\n";
    for (const auto& p : points) {
      std::cout << "inferperf plot: " << p.label << ": " << p.runs.size() << " run(s) in " << p.name
                << "\n";
      for (const auto& r : p.runs)
        for (const auto& n : r.notes) std::cout << "inferperf plot:   " << n << "\n";
    }
  }

  std::string why;
  if (!gnuplot_available(&why)) throw output_error("inferperf plot: " + why);

  const ChartSet set = build_charts(points, paths);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw output_error("inferperf plot: cannot create " + out.string() + ": " + ec.message());
  remove_stale_charts(out, set);
  for (const auto& c : set.charts) {
    const std::string warnings = render_chart(c, theme, out);
    if (o.verbose && !warnings.empty())
      std::cout << "inferperf plot: gnuplot on " << c.name << ": " << warnings;
  }
  ReportInput report{&points, &set, &theme, out, inputs};
  write_file(out / "report.html", render_report(report));
  write_file(out / kPlotManifest, manifest(points, set, o.theme));

  if (o.verbose)
    for (const auto& s : set.skipped)
      std::cout << "inferperf plot: not drawn: " << s.name << ": " << s.reason << "\n";
  std::cout << fmt::format("inferperf plot: {} charts from {} run{} ({} configuration{}) in {}\n",
                           set.charts.size(), runs, runs == 1 ? "" : "s", points.size(),
                           points.size() == 1 ? "" : "s", out.string())
            << "inferperf plot: report " << (out / "report.html").string() << std::endl;

  if (!o.dashboard) return 0;
  return serve_dashboard(out, o.host, o.port, [](const std::string& url) {
    std::cout << "inferperf plot: dashboard listening on " << url << " (Ctrl-C to stop)"
              << std::endl;
  });
}

}  // namespace

std::vector<std::string> input_paths(const PlotOptions& o) {
  return o.paths.empty() ? std::vector<std::string>{"./artifacts"} : o.paths;
}

std::string output_folder(const PlotOptions& o) {
  if (!o.output.empty()) return o.output;
  return (fs::path(input_paths(o).front()) / "plots").string();
}

int run_plot(const PlotOptions& options) {
  try {
    return plot(options);
  } catch (const PlotError& e) {
    std::cerr << e.what() << "\n";
    return e.exit_code();
  }
}

}  // namespace inferperf::plot
