#include "sweep/design_plan.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "sweep/sampling_design.hpp"
#include "sweep/sweep_args.hpp"
#include "sweep/sweep_words.hpp"

namespace inferperf::sweep {

namespace {

using ojson = nlohmann::ordered_json;

// The spec as the YAML translation wrote it; nullopt (and a message) when malformed.
std::optional<DesignSpec> read_spec(const ojson& j, const SweepOptions& o,
                                    std::vector<std::string>& errors) {
  DesignSpec spec;
  spec.type = j.value("type", "");
  const double samples = j.value("samples", 0.0);
  if (samples != std::floor(samples) || samples < 0 || samples > 1e12) {
    errors.push_back(fmt::format("sweep ({}): samples must be a whole number", spec.type));
    return std::nullopt;
  }
  spec.samples = static_cast<std::size_t>(samples);
  spec.seed = 42;  // AIPerf 0.11's seed for any sweep when none is given
  if (o.random_seed)
    if (const auto s = detail::parse_integer(*o.random_seed); s && *s >= 0)
      spec.seed = static_cast<std::uint64_t>(*s);
  if (j.contains("seed")) {
    const double s = j["seed"].get<double>();
    if (s != std::floor(s) || s < 0 || s > 9.0e15) {
      errors.push_back(
          fmt::format("sweep ({}): seed must be a whole number of 0 or more", spec.type));
      return std::nullopt;
    }
    spec.seed = static_cast<std::uint64_t>(s);
  }
  spec.label_format = j.value("label_format", "index");
  for (const auto& d : j.value("dimensions", ojson::array())) {
    DesignDimension dim;
    dim.path = d.value("path", "");
    dim.lo = d.value("lo", 0.0);
    dim.hi = d.value("hi", 0.0);
    dim.log_scale = d.value("scale", "linear") == "log";
    const auto* s = detail::sweepable_for(d.value("flag", ""));
    dim.integer = d.contains("kind") ? d["kind"] == "int" : (s && s->integer);
    for (const auto& c : d.value("choices", ojson::array())) dim.choices.push_back(c);
    const std::string scale = d.value("scale", "linear"), kind = d.value("kind", "int");
    if (scale != "linear" && scale != "log")
      errors.push_back(fmt::format("sweep ({}): {}: scale '{}' is not linear or log", spec.type,
                                   dim.path, scale));
    if (kind != "int" && kind != "real")
      errors.push_back(
          fmt::format("sweep ({}): {}: kind '{}' is not int or real", spec.type, dim.path, kind));
    spec.dimensions.push_back(std::move(dim));
  }
  for (const auto& e : check_design(spec))
    errors.push_back(fmt::format("sweep ({}): {}", spec.type, e));
  if (!errors.empty()) return std::nullopt;
  return spec;
}

void plan_design(SweepArgs& out);

}  // namespace

void resolve_design(SweepArgs& out) {
  if (!out.design) return;
  // The YAML translation writes the word; typed by hand, a wrongly typed field is still exit 2.
  try {
    plan_design(out);
  } catch (const nlohmann::json::exception& e) {
    out.errors.push_back(std::string("--sweep-design: a field has the wrong type (") + e.what() +
                         ")");
  }
}

namespace {

void plan_design(SweepArgs& out) {
  auto& errors = out.errors;
  if (!out.params.empty() || !out.variants.empty() || out.search.enabled() || out.search.recipe)
    return errors.push_back(
        "a sampled design (sobol, latin_hypercube) is the whole sweep: leave "
        "out comma lists, --variant, --search-space and --search-recipe");
  const ojson j = ojson::parse(*out.design, nullptr, false);
  if (!j.is_object()) return errors.push_back("--sweep-design: not a JSON object");
  const std::size_t before = errors.size();
  const auto spec = read_spec(j, out.options, errors);
  if (!spec || errors.size() > before) return;
  const auto unit = unit_design(spec->type, spec->samples, spec->dimensions.size(), spec->seed);
  const auto values = design_values(*spec, unit);
  const ojson dims = j["dimensions"];
  // The axes in path order, as AIPerf 0.11 orders a sweep's (folder names, labels).
  std::vector<std::size_t> order(dims.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return dims[a].value("path", "") < dims[b].value("path", "");
  });
  for (const std::size_t k : order) {
    const std::string flag = dims[k].value("flag", "");
    const auto* s = detail::sweepable_for(flag);
    if (!s) return errors.push_back("--sweep-design: " + flag + " cannot be sampled");
    const std::string path = s->path;
    out.params.push_back({s->name, flag, {}, path, path.substr(path.rfind('.') + 1)});
    detail::drop_flag_words(out.base, s->flags);  // the sample's value replaces the body's
  }
  std::set<std::vector<std::string>> seen;
  for (std::size_t i = 0; i < values.size(); ++i) {
    ExplicitPoint e{"", {}};
    for (std::size_t k = 0; k < order.size(); ++k) {
      const auto* s = detail::sweepable_for(out.params[k].flag);
      const std::string& typed = values[i][order[k]];
      const auto v = detail::canonical_sweep_value(*s, typed);
      if (!v)
        return errors.push_back(fmt::format(
            "sweep ({}): {} takes {} {}, and sample {} gave '{}' (kind int, or lo above 0)",
            spec->type, out.params[k].path, s->integer ? "whole numbers" : "numbers",
            s->zero_ok ? "of 0 or more" : "above 0", i, typed));
      e.values.push_back(*v);
      auto& listed = out.params[k].values;
      if (std::find(listed.begin(), listed.end(), *v) == listed.end()) listed.push_back(*v);
    }
    // kv labels by value, so two samples with the same values need a name to keep two folders.
    if (spec->label_format == "index" || !seen.insert(e.values).second)
      e.name = fmt::format("sample_{:04d}", i);
    out.explicit_points.push_back(std::move(e));
  }
  out.design_file =
      std::make_shared<const std::string>(sampling_design_json(*spec, unit, values).dump(2) + "\n");
  out.options.sweep_type = spec->type;
}

}  // namespace

}  // namespace inferperf::sweep
