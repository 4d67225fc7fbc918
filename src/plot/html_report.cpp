#include "plot/html_report.hpp"

#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "plot/plot_error.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string inline_svg(const std::string& svg, const std::string& prefix,
                       const std::string& title) {
  const auto start = svg.find("<svg");
  if (start == std::string::npos) return "";
  std::string s = svg.substr(start);
  static const std::regex id(R"(\bid=(['"]))");
  static const std::regex href(R"(\bhref=(['"])#)");
  static const std::regex url(R"(url\(#)");
  static const std::regex title_el(R"(<title>[^<]*</title>)");
  s = std::regex_replace(s, id, "id=$1" + prefix);
  s = std::regex_replace(s, href, "href=$1#" + prefix);
  s = std::regex_replace(s, url, "url(#" + prefix);
  s = std::regex_replace(s, title_el, "<title>" + html_escape(title) + "</title>",
                         std::regex_constants::format_first_only);
  return s;
}

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw output_error("inferperf plot: cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string css(const Theme& t) {
  return fmt::format(R"(
:root {{ color-scheme: {name}; }}
body {{ margin: 0; padding: 24px 32px; background: {bg}; color: {fg};
  font: 15px/1.45 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }}
h1 {{ font-size: 24px; margin: 0 0 4px; }}
h1 span {{ color: {accent}; }}
h2 {{ font-size: 18px; margin: 0 0 4px; }}
.meta {{ opacity: 0.75; margin: 0 0 20px; }}
table {{ border-collapse: collapse; margin: 8px 0 28px; background: {panel}; }}
th, td {{ padding: 6px 10px; border: 1px solid {grid}; text-align: right; white-space: nowrap; }}
th:nth-child(-n+2), td:nth-child(-n+2) {{ text-align: left; }}
.table-wrap {{ overflow-x: auto; margin: 8px 0 28px; }}
.table-wrap table {{ margin: 0; }}
th {{ background: {accent}; color: #000; font-weight: 600; white-space: normal; vertical-align: bottom; }}
tr.mean td {{ font-weight: 600; }}
.charts {{ display: grid; grid-template-columns: 1fr; gap: 28px; }}
figure.chart {{ margin: 0; padding: 16px; background: {panel}; border: 1px solid {grid};
  border-radius: 6px; }}
figure.chart svg {{ display: block; width: 100%; height: auto; }}
figcaption p {{ margin: 0 0 8px; opacity: 0.8; }}
a {{ color: {accent}; }}
details {{ margin-top: 28px; }}
)",
                     fmt::arg("name", t.name), fmt::arg("bg", t.background),
                     fmt::arg("fg", t.foreground), fmt::arg("panel", t.panel),
                     fmt::arg("grid", t.grid), fmt::arg("accent", t.palette[0]));
}

// A run's value of a column; error_request_count is only written when there were errors.
std::optional<double> column_value(const RunData& r, std::string_view tag, std::string_view stat) {
  auto v = r.stat(tag, stat);
  if (!v && tag == "error_request_count" && r.stat("request_count")) return 0.0;
  return v;
}

std::optional<double> column_mean(const Point& p, std::string_view tag, std::string_view stat) {
  double sum = 0;
  int n = 0;
  for (const auto& r : p.runs)
    if (auto v = column_value(r, tag, stat)) {
      sum += *v;
      ++n;
    }
  if (n == 0) return std::nullopt;
  return sum / n;
}

std::string cell(const std::optional<double>& v, int decimals = 2) {
  return v ? fmt::format("{:.{}f}", *v, decimals) : "&ndash;";
}

struct Column {
  const char* header;
  const char* tag;
  const char* stat;
  int decimals;
};
constexpr Column kColumns[] = {
    {"Requests", "request_count", "avg", 0},
    {"Errors", "error_request_count", "avg", 0},
    {"Request throughput (req/s)", "request_throughput", "avg", 2},
    {"Output token throughput (tok/s)", "output_token_throughput", "avg", 1},
    {"Per user (tok/s/user)", "output_token_throughput_per_user", "avg", 1},
    {"TTFT avg (ms)", "time_to_first_token", "avg", 2},
    {"TTFT p99 (ms)", "time_to_first_token", "p99", 2},
    {"ITL avg (ms)", "inter_token_latency", "avg", 2},
    {"ITL p99 (ms)", "inter_token_latency", "p99", 2},
    {"Latency avg (ms)", "request_latency", "avg", 2},
    {"Latency p99 (ms)", "request_latency", "p99", 2},
};

std::string metrics_table(const std::vector<Point>& points) {
  std::ostringstream h;
  h << "<div class=\"table-wrap\"><table "
       "id=\"key-metrics\">\n<thead><tr><th>Run</th><th>Folder</th>";
  for (const auto& c : kColumns) h << "<th>" << c.header << "</th>";
  h << "</tr></thead>\n<tbody>\n";
  for (const auto& p : points) {
    for (std::size_t i = 0; i < p.runs.size(); ++i) {
      const auto& r = p.runs[i];
      const std::string label =
          p.runs.size() > 1 ? fmt::format("{} run {}", p.label, i + 1) : p.label;
      h << "<tr><td>" << html_escape(label) << "</td><td>" << html_escape(r.dir.string())
        << "</td>";
      for (const auto& c : kColumns)
        h << "<td>" << cell(column_value(r, c.tag, c.stat), c.decimals) << "</td>";
      h << "</tr>\n";
    }
    if (p.runs.size() > 1) {
      h << "<tr class=\"mean\"><td>" << html_escape(p.label) << " mean of " << p.runs.size()
        << " runs</td><td>" << html_escape(p.name) << "</td>";
      for (const auto& c : kColumns)
        h << "<td>" << cell(column_mean(p, c.tag, c.stat), c.decimals) << "</td>";
      h << "</tr>\n";
    }
  }
  h << "</tbody>\n</table></div>\n";
  return h.str();
}

}  // namespace

std::string render_report(const ReportInput& in) {
  const Theme& t = *in.theme;
  std::size_t runs = 0;
  for (const auto& p : *in.points) runs += p.runs.size();
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    // Nothing may load from anywhere: not even the favicon the browser would ask for.
    << "<link rel=\"icon\" href=\"data:,\">\n"
    << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; img-src data:\">\n"
    << "<title>inferperf plot report</title>\n<style>" << css(t) << "</style>\n</head>\n<body>\n";
  h << "<h1><span>inferperf</span> plot report</h1>\n<p class=\"meta\">" << runs << " run"
    << (runs == 1 ? "" : "s") << " in " << in.points->size() << " configuration"
    << (in.points->size() == 1 ? "" : "s") << " from ";
  for (std::size_t i = 0; i < in.inputs.size(); ++i)
    h << (i ? ", " : "") << "<code>" << html_escape(in.inputs[i]) << "</code>";
  h << "</p>\n<h2>Key metrics</h2>\n" << metrics_table(*in.points);
  h << "<div class=\"charts\">\n";
  for (const auto& c : in.charts->charts) {
    const std::string svg =
        inline_svg(read_text(in.output_dir / (c.name + ".svg")), c.name + "-", c.title);
    if (svg.empty())
      throw output_error("inferperf plot: " + (in.output_dir / (c.name + ".svg")).string() +
                         ": no <svg> element");
    h << "<figure class=\"chart\" id=\"chart-" << c.name << "\" data-chart=\"" << c.name
      << "\">\n<figcaption><h2>" << html_escape(c.title) << "</h2><p>" << html_escape(c.caption)
      << " <a href=\"" << c.name << ".png\">PNG</a></p></figcaption>\n"
      << svg << "\n</figure>\n";
  }
  h << "</div>\n";
  if (!in.charts->skipped.empty()) {
    h << "<details id=\"skipped\"><summary>" << in.charts->skipped.size()
      << " charts not drawn</summary>\n<ul>\n";
    for (const auto& s : in.charts->skipped)
      h << "<li><code>" << html_escape(s.name) << "</code>: " << html_escape(s.reason) << "</li>\n";
    h << "</ul>\n</details>\n";
  }
  h << "</body>\n</html>\n";
  return h.str();
}

}  // namespace inferperf::plot
