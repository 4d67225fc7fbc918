// `inferperf config expand`: a file's sweep variations in the order profile runs them (the sweep
// module orders and labels them, as for comma lists), each optionally with its whole body.
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "app/config_command/config_command.hpp"
#include "config/yaml_config.hpp"
#include "sweep/points.hpp"
#include "sweep/sweep_args.hpp"

namespace inferperf::app {

namespace {

// The mapping entry `key` of `node` (snake_case or camelCase), or an undefined node.
YAML::Node expand_child(YAML::Node node, const std::string& key) {
  if (!node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (auto kv : node) {
    std::string k = kv.first.Scalar(), snake;
    for (const char c : k) {
      if (std::isupper(static_cast<unsigned char>(c))) {
        snake += '_';
        snake += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else {
        snake += c;
      }
    }
    if (snake == key) return kv.second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

// Sets `value` at the dotted `path` of the body: list items by their name, the one dataset under
// any name, a flat phases mapping as the profiling phase, a distribution's mean.
void expand_set(YAML::Node body, const std::string& path, const std::string& value) {
  std::vector<std::string> parts;
  std::istringstream in(path);
  for (std::string p; std::getline(in, p, '.');) parts.push_back(p);
  YAML::Node at = body;  // rebound with reset(): operator= would write into the tree
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::string& p = parts[k];
    if (k == 0 && (p == "datasets" || p == "dataset")) {
      at.reset(expand_child(body, "dataset") ? expand_child(body, "dataset")
                                             : expand_child(body, "datasets"));
      if (at.IsSequence() && at.size() > 0) at.reset(at[0]);
      if (p == "datasets") ++k;  // the dataset's name
      continue;
    }
    if (at.IsSequence()) {
      std::optional<std::size_t> found;
      for (std::size_t i = 0; i < at.size(); ++i) {
        const YAML::Node name = expand_child(at[i], "name");
        if (name && name.Scalar() == p) found = i;
      }
      if (!found) return;
      at.reset(at[*found]);
      continue;
    }
    if (k == 1 && parts[0] == "phases" && p == "profiling" && !expand_child(at, "profiling") &&
        at.IsMap())
      continue;  // a flat phases mapping is the profiling phase
    YAML::Node next = expand_child(at, p);
    const bool mean_of_number =
        k + 2 == parts.size() && parts.back() == "mean" && next && next.IsScalar();
    if (k + 1 == parts.size() || mean_of_number) {  // `isl: 128` is `isl.mean`
      if (next && next.IsMap())
        next["mean"] = value;
      else
        at[p] = value;
      return;
    }
    if (!next) at[p] = YAML::Node(YAML::NodeType::Map);
    at.reset(expand_child(at, p));
  }
}

nlohmann::ordered_json expand_to_json(const YAML::Node& x) {
  if (x.IsMap()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& kv : x) j[kv.first.Scalar()] = expand_to_json(kv.second);
    return j;
  }
  if (x.IsSequence()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& e : x) j.push_back(expand_to_json(e));
    return j;
  }
  if (!x.IsScalar()) return nullptr;
  auto parsed = nlohmann::ordered_json::parse(x.Scalar(), nullptr, false);
  if (x.Tag() != "!" && !parsed.is_discarded() && !parsed.is_string()) return parsed;
  return x.Scalar();
}

// JSON to a block-style YAML node (loading JSON text would keep its flow style).
YAML::Node expand_to_yaml(const nlohmann::ordered_json& j) {
  YAML::Node n;
  if (j.is_object()) {
    n = YAML::Node(YAML::NodeType::Map);
    for (const auto& [k, v] : j.items()) n[k] = expand_to_yaml(v);
  } else if (j.is_array()) {
    n = YAML::Node(YAML::NodeType::Sequence);
    for (const auto& v : j) n.push_back(expand_to_yaml(v));
  } else if (j.is_string()) {
    n = j.get<std::string>();
  } else {
    n = j.dump();
  }
  return n;
}

}  // namespace

std::optional<std::string> expand_config_text(const std::string& path, const ConfigExpandOptions& o,
                                              std::string& error) {
  const config::ConfigFileWords file = config::expand_config_file({"profile", "-f", path});
  if (!file.errors.empty()) {
    error = file.error_text();
    return std::nullopt;
  }
  const sweep::SweepArgs sw = sweep::extract_sweep_args(file.words);
  if (!sw.errors.empty()) {
    for (const auto& e : sw.errors) error += file.point_at_file("error: " + e + "\n");
    return std::nullopt;
  }
  auto points = sweep::expand_points(sw);
  if (!points) {
    error = "error: " + path + ": " + points.error().message + "\n";
    return std::nullopt;
  }
  if (o.index && *o.index >= points->size()) {
    error = "error: --index " + std::to_string(*o.index) + ": the file has " +
            std::to_string(points->size()) + " variation(s), 0 to " +
            std::to_string(points->size() - 1) + "\n";
    return std::nullopt;
  }
  std::string err;
  const auto raw = config::read_config_text(path, err);
  YAML::Node root;
  try {
    root = YAML::Load(raw.value_or(""));
  } catch (const YAML::Exception& e) {
    error = "error: " + path + ": " + e.what() + "\n";
    return std::nullopt;
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  std::ostringstream out;
  if (o.format == "text")
    out << points->size() << " variation(s)"
        << (sw.params.empty() ? std::string(" (no sweep)") : " (" + sw.options.sweep_type + ")")
        << "\n";
  for (std::size_t k = 0; k < points->size(); ++k) {
    if (o.index && k != *o.index) continue;
    const sweep::SweepPoint& p = (*points)[k];
    YAML::Node body = YAML::Clone(expand_child(root, "benchmark"));
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (std::size_t a = 0; a < sw.params.size(); ++a) {
      if (p.values[a].empty()) continue;  // an explicit point that leaves it alone
      params[sw.params[a].path.empty() ? sw.params[a].name : sw.params[a].path] =
          expand_to_json(YAML::Node(p.values[a]));
      for (const auto& axis : file.translation.sweep) {
        if (axis.canonical == sw.params[a].path) expand_set(body, axis.path, p.values[a]);
      }
    }
    nlohmann::ordered_json v = {{"index", k}, {"name", p.folder}, {"parameters", params}};
    if (o.full) v["benchmark"] = expand_to_json(body);
    all.push_back(v);
    if (o.format == "text") {
      out << "[" << k << "] " << (p.folder.empty() ? "(base)" : p.folder) << ": "
          << (p.variation_label.empty() ? "the file as written" : p.variation_label) << "\n";
      if (o.full) {
        YAML::Emitter e;
        e << YAML::BeginMap << YAML::Key << "benchmark" << YAML::Value << body << YAML::EndMap;
        out << e.c_str() << "\n";
      }
    }
  }
  if (o.format == "json") return all.dump(2) + "\n";
  if (o.format == "yaml") {
    YAML::Emitter e;
    e << expand_to_yaml(all);
    return std::string(e.c_str()) + "\n";
  }
  return out.str();
}

}  // namespace inferperf::app
