#include "sweep/points.hpp"

#include <fmt/format.h>

#include <cctype>
#include <set>

namespace inferperf::sweep {

namespace {

SweepPoint make_point(const std::vector<SweepParam>& params, std::vector<std::string> values) {
  SweepPoint p;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (values[k].empty()) continue;  // an explicit point that leaves this flag alone
    if (!p.folder.empty()) {
      p.folder += "__";
      p.label += ' ';
      p.variation_label += ", ";
    }
    const auto& param = params[k];
    p.folder += (param.dir_name.empty() ? param.name : param.dir_name) + "_" + values[k];
    p.label += param.name + "=" + values[k];
    p.variation_label += (param.path.empty() ? param.name : param.path) + "=" + values[k];
  }
  p.values = std::move(values);
  return p;
}

// A scenario's folder: its name with anything but letters, digits, '.', '-' and '_' made '_'.
std::string scenario_folder(const std::string& name) {
  std::string out;
  for (const char c : name)
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_';
  out = out.substr(0, 128);
  // "." and ".." are not folders of their own.
  if (out.find_first_not_of('.') == std::string::npos) out = std::string(out.size() + 1, '_');
  return out;
}

}  // namespace

core::Result<std::vector<SweepPoint>> explicit_sweep_points(
    const std::vector<SweepParam>& params, const std::vector<ExplicitPoint>& points) {
  std::vector<SweepPoint> out;
  std::set<std::string> folders;
  for (const auto& e : points) {
    SweepPoint p = make_point(params, e.values);
    if (!e.name.empty()) {
      p.label = e.name;
      p.variation_label = e.name;
    }
    // Any flag's value can be in an unnamed point's folder ("model=org/a"): made safe either way.
    p.folder = scenario_folder(e.name.empty() ? p.folder : e.name);
    if (!folders.insert(p.folder).second)
      return core::Error{core::ErrorKind::kConfig,
                         fmt::format("two points would share the folder '{}' ({}): name the "
                                     "scenarios apart, or drop the repeated one",
                                     p.folder, p.label)};
    out.push_back(std::move(p));
  }
  return out;
}

core::Result<std::vector<SweepPoint>> expand_points(const SweepArgs& s) {
  if (!s.explicit_points.empty()) return explicit_sweep_points(s.params, s.explicit_points);
  return expand_points(s.params, s.options.sweep_type);
}

core::Result<std::vector<SweepPoint>> expand_points(const std::vector<SweepParam>& params,
                                                    const std::string& sweep_type) {
  std::vector<SweepPoint> out;
  if (params.empty()) {
    out.push_back(SweepPoint{});
    return out;
  }
  if (sweep_type == "zip") {
    const std::size_t n = params.front().values.size();
    for (const auto& p : params) {
      if (p.values.size() != n) {
        return core::Error{core::ErrorKind::kConfig,
                           fmt::format("--sweep-type zip: {} has {} values but {} has {}; zip "
                                       "pairs the lists item by item, so they must be as long",
                                       params.front().flag, n, p.flag, p.values.size())};
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<std::string> values;
      for (const auto& p : params) values.push_back(p.values[i]);
      out.push_back(make_point(params, std::move(values)));
    }
    return out;
  }
  // Grid: an odometer over the lists, the last parameter turning fastest.
  std::vector<std::size_t> at(params.size(), 0);
  while (true) {
    std::vector<std::string> values;
    for (std::size_t k = 0; k < params.size(); ++k) values.push_back(params[k].values[at[k]]);
    out.push_back(make_point(params, std::move(values)));
    std::size_t k = params.size();
    while (k > 0) {
      --k;
      if (++at[k] < params[k].values.size()) break;
      at[k] = 0;
      if (k == 0) return out;
    }
  }
}

std::string run_folder(int run) {
  return fmt::format("run_{:04d}", run);
}

std::string trial_folder(int trial) {
  return fmt::format("trial_{:04d}", trial);
}

}  // namespace inferperf::sweep
