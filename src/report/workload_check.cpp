#include "report/workload_check.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/console_notes.hpp"

namespace inferperf::report {

using ojson = nlohmann::ordered_json;

ojson expectation_json(const WorkloadExpectation& e) {
  ojson j;
  j["dataset_type"] = e.dataset_type;
  j["rows"] = e.rows;
  j["isl_avg"] = e.isl_avg ? ojson(*e.isl_avg) : ojson(nullptr);
  j["osl_avg"] = e.osl_avg ? ojson(*e.osl_avg) : ojson(nullptr);
  j["tolerance_pct"] = e.tolerance_pct;
  return j;
}

WorkloadExpectation expectation_from_json(const ojson& j) {
  WorkloadExpectation e;
  e.dataset_type = j.value("dataset_type", "");
  e.rows = j.value("rows", std::size_t{0});
  if (j.contains("isl_avg") && j["isl_avg"].is_number()) e.isl_avg = j["isl_avg"].get<double>();
  if (j.contains("osl_avg") && j["osl_avg"].is_number()) e.osl_avg = j["osl_avg"].get<double>();
  e.tolerance_pct = j.value("tolerance_pct", 10.0);
  return e;
}

namespace {

struct Side {
  const char* name;
  std::optional<double> expected;
  std::optional<double> measured;
  std::optional<double> deviation_pct() const {
    if (!expected || !measured || *expected <= 0) return std::nullopt;
    return (*measured - *expected) / *expected * 100.0;
  }
};

std::optional<double> avg_of(const metrics::BenchmarkResult& r, std::string_view tag) {
  const auto* m = r.find(tag);
  if (!m || m->scalar) return std::nullopt;
  return m->stats.avg;
}

}  // namespace

ojson workload_check_json(const metrics::BenchmarkResult& result, const WorkloadExpectation& e) {
  if (e.rows == 0 || (!e.isl_avg && !e.osl_avg)) return nullptr;
  Side isl{"isl", e.isl_avg, avg_of(result, "input_sequence_length")};
  Side osl{"osl", e.osl_avg, avg_of(result, "output_sequence_length")};
  ojson j;
  j["dataset_type"] = e.dataset_type;
  j["rows_compared"] = e.rows;
  j["tolerance_pct"] = e.tolerance_pct;
  bool ok = true;
  auto causes = ojson::array();
  for (const Side* s : {&isl, &osl}) {
    if (!s->expected) continue;
    ojson side;
    side["expected_avg"] = *s->expected;
    side["measured_avg"] = s->measured ? ojson(*s->measured) : ojson(nullptr);
    const auto dev = s->deviation_pct();
    side["deviation_pct"] = dev ? ojson(*dev) : ojson(nullptr);
    const bool side_ok = dev && std::fabs(*dev) <= e.tolerance_pct;
    side["ok"] = side_ok;
    j[s->name] = std::move(side);
    if (side_ok || !dev) continue;
    ok = false;
    const double ratio = *s->measured / *s->expected;
    if (s == &isl) {
      if (ratio < 0.01) {
        causes.push_back(
            "the measured input is tiny: a Git LFS pointer may have been replayed instead of the "
            "trace (re-check the download)");
      } else if (ratio < 0.3) {
        causes.push_back(
            "the measured input is a fraction of the trace's: the shared prefix may have been "
            "dropped (check --endpoint-type: completions has no system role)");
      }
      causes.push_back(
          "--tokenizer may not match the served model, so client and server count tokens "
          "differently");
    } else {
      causes.push_back(ratio < 1.0 ? "the server stopped before max tokens: pass --extra-inputs "
                                     "ignore_eos:true (and/or min_tokens) if it supports them"
                                   : "the server ignored the requested max tokens");
      causes.push_back(
          "--tokenizer may not match the served model, so the output is counted in other tokens");
    }
  }
  j["ok"] = ok;
  j["likely_causes"] = std::move(causes);
  return j;
}

std::string render_workload_warning(const ojson& check) {
  if (check.is_null() || check.value("ok", true)) return "";
  std::vector<std::string> lines;
  lines.push_back(
      fmt::format("The measured sequence lengths differ from the {} rows sent by more than {:g} %:",
                  check.value("dataset_type", "dataset"), check.value("tolerance_pct", 10.0)));
  for (const char* side : {"isl", "osl"}) {
    if (!check.contains(side) || check[side].value("ok", true)) continue;
    const auto& s = check[side];
    lines.push_back(fmt::format(
        "{} avg: expected {:.0f}, measured {}{}", side == std::string("isl") ? "ISL" : "OSL",
        s["expected_avg"].get<double>(),
        s["measured_avg"].is_number() ? fmt::format("{:.0f}", s["measured_avg"].get<double>())
                                      : std::string("n/a"),
        s["deviation_pct"].is_number()
            ? fmt::format(" ({:+.1f} %)", s["deviation_pct"].get<double>())
            : std::string()));
  }
  for (const auto& c : check["likely_causes"]) lines.push_back("- " + c.get<std::string>());
  lines.push_back("Details: workload_check in the JSON export.");
  return panel("Workload Check Warning", lines);
}

}  // namespace inferperf::report
