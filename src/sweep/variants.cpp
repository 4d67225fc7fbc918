#include "sweep/variants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "config/enum_token.hpp"
#include "sweep/sweep_args.hpp"
#include "sweep/sweep_words.hpp"

namespace inferperf::sweep {

namespace {

std::string trim(const std::string& s) {
  return config::trim_list_item(s);
}

bool name_like(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ' ';
  });
}

// "request_rate" / "request-rate" / "--request-rate" -> "--request-rate".
std::string flag_of(std::string key) {
  while (key.starts_with("-")) key.erase(0, 1);
  std::replace(key.begin(), key.end(), '_', '-');
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return "--" + key;
}

// The SweepParam a scenario's flag becomes: a sweepable option keeps its sweep name and config
// path (folders, variation values); any other flag is named after itself.
SweepParam variant_param(const std::string& flag) {
  if (const auto* s = detail::sweepable_for(flag)) {
    const std::string path = s->path;
    return {s->name, flag, {}, path, path.substr(path.rfind('.') + 1)};
  }
  std::string name = flag.substr(2);
  std::replace(name.begin(), name.end(), '-', '_');
  return {name, flag, {}, "", name};
}

// The words every spelling of `flag` takes on the command line, for drop_flag_words.
std::vector<std::string> spellings(const std::string& flag) {
  if (const auto* s = detail::sweepable_for(flag)) return s->flags;
  return {flag};
}

}  // namespace

core::Result<Variant> parse_variant(const std::string& word) {
  const auto fail = [&](const std::string& why) {
    return core::Error{core::ErrorKind::kConfig,
                       fmt::format("--variant '{}': {} (the form is [name:] key=value, "
                                   "key=value, e.g. \"low: concurrency=4, isl=128\")",
                                   core::excerpt(word), why)};
  };
  Variant v;
  std::string rest = word;
  const auto colon = rest.find(':');
  if (colon != std::string::npos && rest.substr(0, colon).find('=') == std::string::npos) {
    v.name = trim(rest.substr(0, colon));
    if (!name_like(v.name))
      return fail("the name may hold letters, digits, spaces, '.', '-' and '_'");
    rest = rest.substr(colon + 1);
  }
  for (const auto& piece : [&] {
         std::vector<std::string> out;
         std::size_t start = 0;
         for (std::size_t c; (c = rest.find(',', start)) != std::string::npos; start = c + 1)
           out.push_back(rest.substr(start, c - start));
         out.push_back(rest.substr(start));
         return out;
       }()) {
    const auto eq = piece.find('=');
    if (eq == std::string::npos) {
      if (v.sets.empty()) return fail("'" + trim(piece) + "' is not key=value");
      v.sets.back().second += "," + piece;  // a value holding a comma
      continue;
    }
    const std::string key = trim(piece.substr(0, eq));
    if (!name_like(key) || key.find(' ') != std::string::npos)
      return fail("'" + key + "' is not a flag name");
    v.sets.push_back({flag_of(key), trim(piece.substr(eq + 1))});
  }
  std::set<std::string> seen;
  for (auto& [flag, value] : v.sets) {
    value = trim(value);
    if (value.empty()) return fail(flag.substr(2) + " has no value");
    if (!seen.insert(flag).second) return fail(flag.substr(2) + " is set twice");
  }
  if (v.sets.empty()) return fail("it sets nothing");
  return v;
}

void resolve_variants(SweepArgs& out) {
  if (out.variants.empty()) return;
  auto& errors = out.errors;
  if (out.variants.size() < 2)
    errors.push_back(
        "--variant is given once: a scenario sweep needs two or more (each "
        "--variant is one run)");
  if (!out.params.empty())
    errors.push_back(
        "--variant cannot be combined with a comma list (a sweep): give each "
        "value its own --variant");
  if (out.search.enabled() || out.search.recipe)
    errors.push_back("--variant cannot be combined with --search-space or --search-recipe");
  std::vector<Variant> variants;
  for (const auto& w : out.variants) {
    auto v = parse_variant(w);
    if (!v) {
      errors.push_back(v.error().message);
      continue;
    }
    for (auto& [flag, value] : v->sets) {
      if (is_orchestration_flag(flag) || is_search_flag(flag) || flag == "--variant" ||
          flag == "--sweep-variant") {
        errors.push_back(
            fmt::format("--variant '{}': {} applies to the whole plan, not to one "
                        "scenario; give it once outside --variant",
                        core::excerpt(w), flag));
        continue;
      }
      if (const auto* s = detail::sweepable_for(flag)) {
        const auto canonical = detail::canonical_sweep_value(*s, value);
        if (!canonical) {
          errors.push_back(fmt::format(
              "--variant '{}': {}={} is not a {} {}", core::excerpt(w), flag.substr(2), value,
              s->integer ? "whole number" : "number", s->zero_ok ? "of 0 or more" : "above 0"));
          continue;
        }
        value = *canonical;
      }
    }
    variants.push_back(std::move(*v));
  }
  if (!errors.empty()) return;
  std::set<std::string> names;
  for (const auto& v : variants)
    if (!v.name.empty() && !names.insert(v.name).second)
      errors.push_back("--variant: the name '" + v.name + "' is given twice");
  // One parameter per flag any scenario sets, in order of first appearance.
  for (const auto& v : variants)
    for (const auto& [flag, value] : v.sets)
      if (std::none_of(out.params.begin(), out.params.end(),
                       [&](const SweepParam& p) { return p.flag == flag; }))
        out.params.push_back(variant_param(flag));
  for (const auto& v : variants) {
    ExplicitPoint e{v.name, std::vector<std::string>(out.params.size())};
    for (const auto& [flag, value] : v.sets)
      for (std::size_t k = 0; k < out.params.size(); ++k)
        if (out.params[k].flag == flag) {
          e.values[k] = value;
          if (std::find(out.params[k].values.begin(), out.params[k].values.end(), value) ==
              out.params[k].values.end())
            out.params[k].values.push_back(value);
        }
    out.explicit_points.push_back(std::move(e));
  }
  for (std::size_t k = 0; k < out.params.size(); ++k) {
    auto& p = out.params[k];
    p.inline_value = true;  // "--streaming=false" needs one word
    // A scenario deep-merges over the base: the ones that leave this flag alone keep the
    // command line's value.
    const auto typed = detail::drop_flag_words(out.base, spellings(p.flag));
    if (!typed) continue;
    if (typed->size() > 1) {
      errors.push_back(
          fmt::format("--variant sets {}, which the command line gives several "
                      "values: give it in every --variant instead",
                      p.flag));
      continue;
    }
    const std::string kept = typed->empty() ? "true" : typed->front();  // a bare switch
    for (auto& e : out.explicit_points)
      if (e.values[k].empty()) e.values[k] = kept;
  }
  out.options.sweep_type = "scenarios";
}

}  // namespace inferperf::sweep
