#include "report/console_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <vector>

#include "report/format.hpp"

namespace inferperf::report {

namespace {

using Row = std::vector<std::string>;

// Display width of UTF-8 text (every code point counts as one column).
std::size_t width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad(const std::string& s, std::size_t w, bool right) {
  std::string fill(w > width(s) ? w - width(s) : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string render_table(const std::string& title, const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows,
                         std::size_t right_from) {
  std::vector<std::size_t> w(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    w[c] = width(header[c]);
    for (const auto& r : rows) w[c] = std::max(w[c], width(r[c]));
  }
  auto line = [&](const char* l, const char* m, const char* r) {
    std::string s = l;
    for (std::size_t c = 0; c < w.size(); ++c) {
      for (std::size_t i = 0; i < w[c] + 2; ++i) s += "━";
      s += c + 1 < w.size() ? m : r;
    }
    return s + "\n";
  };
  auto row = [&](const Row& r) {
    std::string s = "┃";
    for (std::size_t c = 0; c < w.size(); ++c) s += " " + pad(r[c], w[c], c >= right_from) + " ┃";
    return s + "\n";
  };
  std::size_t total = 1;
  for (auto x : w) total += x + 3;
  std::string out = pad(title, (total + width(title)) / 2, true) + "\n";
  out += line("┏", "┳", "┓");
  out += row(header);
  out += line("┡", "╇", "┩");
  for (const auto& r : rows) out += row(r);
  out += line("┗", "┻", "┛");
  return out;
}

namespace {

std::string render(const std::string& title, const Row& header, const std::vector<Row>& rows,
                   std::size_t right_from) {
  return render_table(title, header, rows, right_from);
}

}  // namespace

namespace {

// Ordered metrics first (by order), then those without a place, in catalogue order.
void sort_for_console(std::vector<const metrics::MetricResult*>& shown) {
  std::stable_sort(shown.begin(), shown.end(), [](auto* a, auto* b) {
    const int x = a->info->order > 0 ? a->info->order : INT_MAX;
    const int y = b->info->order > 0 ? b->info->order : INT_MAX;
    return x < y;
  });
}

std::string render_rows(const std::vector<const metrics::MetricResult*>& shown,
                        const std::string& title);

// "LLM Metrics", "LLM Metrics: Usage", ...: AIPerf 0.11 titles a group's table after the default
// one.
std::string group_title(const std::string& title, metrics::ConsoleGroup g) {
  if (g == metrics::ConsoleGroup::kDefault) return title;
  std::string name(metrics::to_string(g));
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return title + ": " + name;
}

}  // namespace

std::string render_metrics_table(const metrics::BenchmarkResult& result, const ReportContext& ctx) {
  using metrics::ConsoleGroup;
  std::string out;
  for (ConsoleGroup g :
       {ConsoleGroup::kDefault, ConsoleGroup::kUsage, ConsoleGroup::kCache,
        ConsoleGroup::kPrediction, ConsoleGroup::kAudio, ConsoleGroup::kReasoning}) {
    std::vector<const metrics::MetricResult*> shown;
    for (const auto& m : result.metrics) {
      if (m.info->console_group == g && m.info->visibility == metrics::Visibility::kNormal)
        shown.push_back(&m);
    }
    if (shown.empty()) continue;
    sort_for_console(shown);
    if (!out.empty()) out += "\n";
    out += render_rows(shown, group_title(ctx.title, g));
  }
  return out;
}

std::string render_metrics_table(const metrics::BenchmarkResult& result, const std::string& title,
                                 metrics::Visibility visibility) {
  std::vector<const metrics::MetricResult*> shown;
  for (const auto& m : result.metrics) {
    if (m.info->order > 0 && m.info->visibility == visibility) shown.push_back(&m);
  }
  if (shown.empty()) return {};
  sort_for_console(shown);
  return render_rows(shown, title);
}

namespace {

std::string render_rows(const std::vector<const metrics::MetricResult*>& shown,
                        const std::string& title) {
  std::vector<Row> rows;
  for (const auto* m : shown) {
    std::string label = fmt::format("{} ({})", m->info->header, m->info->unit);
    if (m->scalar) {
      rows.push_back({label, with_thousands(m->value), "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"});
    } else {
      const auto& s = m->stats;
      rows.push_back({label, with_thousands(s.avg), with_thousands(s.min), with_thousands(s.max),
                      with_thousands(s.percentile(99)), with_thousands(s.percentile(90)),
                      with_thousands(s.percentile(50)), with_thousands(s.std)});
    }
  }
  return render("inferperf | " + title, {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"},
                rows, 1);
}

}  // namespace

std::string render_error_table(const metrics::BenchmarkResult& result) {
  if (result.errors.empty()) return {};
  std::vector<Row> rows;
  for (const auto& e : result.errors) {
    std::string msg = e.message.size() > 80 ? e.message.substr(0, 77) + "..." : e.message;
    for (auto& c : msg) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    rows.push_back(
        {e.code ? std::to_string(*e.code) : "N/A", e.type, msg, std::to_string(e.count)});
  }
  return render("inferperf | Error Summary", {"Code", "Type", "Message", "Count"}, rows, 3);
}

}  // namespace inferperf::report
