#include "config/yaml_config.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "config/cli.hpp"
#include "config/yaml_support.hpp"

namespace inferperf::config {

namespace {

constexpr std::uintmax_t kYamlMaxFileBytes = std::uintmax_t{16} << 20;

void yaml_variables(yaml::Ctx& ctx, const yaml::At& at) {
  if (!at.node.IsMap()) return ctx.error(at, "expected a mapping of names to values");
  for (const auto& kv : at.node) {
    const yaml::At v = at.child(kv.second, kv.first.Scalar());
    if (auto t = ctx.text(v)) ctx.variables[kv.first.Scalar()] = *t;
  }
}

void yaml_body(yaml::Ctx& ctx, const yaml::At& body) {
  if (!ctx.check_keys(body,
                      {"models",    "model",         "endpoint",       "datasets",        "dataset",
                       "phases",    "warmup",        "profiling",      "artifacts",       "slos",
                       "tokenizer", "gpu_telemetry", "server_metrics", "network_latency", "otel",
                       "mlflow",    "wandb",         "runtime",        "logging",         "metrics",
                       "accuracy"}))
    return;
  for (const char* key : {"model", "models"}) {
    if (const YAML::Node n = yaml::Ctx::get(body.node, key); n && !n.IsNull())
      yaml::translate_models(ctx, body.child(n, key));
  }
  if (const YAML::Node n = yaml::Ctx::get(body.node, "endpoint"); n && !n.IsNull())
    yaml::translate_endpoint(ctx, body.child(n, "endpoint"));
  yaml::translate_datasets(ctx, body);
  yaml::translate_phases(ctx, body);
  if (const YAML::Node n = yaml::Ctx::get(body.node, "artifacts"); n && !n.IsNull())
    yaml::translate_artifacts(ctx, body.child(n, "artifacts"));
  yaml::translate_services(ctx, body);
}

void yaml_envelope(yaml::Ctx& ctx, const YAML::Node& root) {
  const yaml::At top{root, ""};
  if (!ctx.check_keys(top, {"schema_version", "benchmark", "sweep", "multi_run", "random_seed",
                            "variables", "plot", "no_sweep_table"}))
    return;
  if (const YAML::Node v = yaml::Ctx::get(root, "schema_version")) {
    const yaml::At at = top.child(v, "schemaVersion");
    if (auto t = ctx.text(at); t && *t != "2.0" && *t != "2")
      ctx.error(at, "'" + *t + "': only schema version \"2.0\" is known");
  }
  if (const YAML::Node v = yaml::Ctx::get(root, "variables"); v && !v.IsNull())
    yaml_variables(ctx, top.child(v, "variables"));
  const YAML::Node body = yaml::Ctx::get(root, "benchmark");
  if (!body || body.IsNull()) {
    ctx.error(top, "the file needs a benchmark: section (the workload)");
  } else {
    yaml_body(ctx, top.child(body, "benchmark"));
  }
  ctx.number_flag(top, "random_seed", "--random-seed");
  if (const YAML::Node v = yaml::Ctx::get(root, "multi_run"); v && !v.IsNull())
    yaml::translate_multi_run(ctx, top.child(v, "multi_run"));
  if (const YAML::Node v = yaml::Ctx::get(root, "sweep"); v && !v.IsNull())
    yaml::translate_sweep(ctx, top.child(v, "sweep"));
  ctx.refuse_unless_noop(top, "plot",
                         "plot configuration files do not exist in inferperf (use "
                         "artifacts.auto_plot or `inferperf plot`)");
  if (const YAML::Node v = yaml::Ctx::get(root, "no_sweep_table"))
    ctx.warn(top.child(v, "no_sweep_table"), "the sweep summary is a file only; ignored");
}

// The last group of each flag wins (a sweep over a phase's value, urls over url), except the
// repeatable ones a search's filters and dimensions arrive as.
void yaml_keep_last(yaml::Ctx& ctx) {
  static const std::set<std::string> kRepeatable = {"--search-sla", "--search-space"};
  std::set<std::string> seen;
  std::vector<std::vector<std::string>> groups;
  std::vector<YamlFlagOrigin> origins;
  for (std::size_t k = ctx.groups.size(); k-- > 0;) {
    const std::string& flag = ctx.groups[k].front();
    if (!seen.insert(flag).second && !kRepeatable.count(flag)) continue;
    groups.insert(groups.begin(), ctx.groups[k]);
    origins.insert(origins.begin(), ctx.out.origins[k]);
  }
  ctx.out.groups = std::move(groups);
  ctx.out.origins = std::move(origins);
  ctx.out.words.clear();
  for (const auto& g : ctx.out.groups)
    ctx.out.words.insert(ctx.out.words.end(), g.begin(), g.end());
}

}  // namespace

YamlTranslation translate_yaml(const std::string& text, const std::string& file,
                               const EnvLookup& env) {
  yaml::Ctx ctx(file, env);
  try {
    const YAML::Node root = YAML::Load(text);
    if (!root.IsMap()) {
      ctx.out.errors.push_back(file + ": expected a mapping with a benchmark: section");
      return ctx.out;
    }
    yaml_envelope(ctx, root);
  } catch (const YAML::Exception& e) {
    ctx.out.errors.push_back(file + ":" + std::to_string(e.mark.line + 1) +
                             ": not valid YAML: " + e.msg);
    return ctx.out;
  }
  yaml_keep_last(ctx);
  return ctx.out;
}

std::optional<std::string> read_config_text(const std::string& path, std::string& error) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    error = path + ": no such configuration file";
    return std::nullopt;
  }
  if (!std::filesystem::is_regular_file(status)) {
    error = path + ": not a file";
    return std::nullopt;
  }
  if (std::filesystem::file_size(path, ec) > kYamlMaxFileBytes) {
    error = path + ": larger than 16 MiB; not a configuration file";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in && !in.eof()) {
    error = path + ": cannot be read";
    return std::nullopt;
  }
  return s.str();
}

namespace {

// Every spelling of each profile option, keyed by spelling, giving the option's first long name.
const std::map<std::string, std::string>& yaml_canonical_names() {
  static const std::map<std::string, std::string> names = [] {
    std::map<std::string, std::string> m;
    for (const auto& o : cli_options()) {
      if (o.subcommand != "profile") continue;
      for (const auto& n : o.names) m[n] = o.name;
    }
    m["-vv"] = "--extra-verbose";
    return m;
  }();
  return names;
}

std::string yaml_canonical(const std::string& word) {
  const auto eq = word.find('=');
  const std::string name =
      word.starts_with("--") && eq != std::string::npos ? word.substr(0, eq) : word;
  const auto it = yaml_canonical_names().find(name);
  return it == yaml_canonical_names().end() ? std::string() : it->second;
}

// Takes -f/--config FILE out of `typed`; the file name, or "" (an error in `errors`).
std::string yaml_take_file(std::vector<std::string>& typed, std::vector<std::string>& errors) {
  std::string file;
  int count = 0;
  for (std::size_t k = 0; k < typed.size();) {
    const std::string& a = typed[k];
    std::optional<std::string> value;
    std::size_t width = 1;
    if (a == "-f" || a == "--config") {
      if (k + 1 >= typed.size()) {
        errors.push_back(a + ": needs the configuration file's path");
        return {};
      }
      value = typed[k + 1];
      width = 2;
    } else if (a.starts_with("--config=") || a.starts_with("-f=")) {
      value = a.substr(a.find('=') + 1);
    }
    if (!value) {
      ++k;
      continue;
    }
    ++count;
    file = *value;
    typed.erase(typed.begin() + static_cast<std::ptrdiff_t>(k),
                typed.begin() + static_cast<std::ptrdiff_t>(k + width));
  }
  if (count > 1) errors.push_back("-f/--config: give one configuration file");
  return file;
}

}  // namespace

ConfigFileWords expand_config_file(const std::vector<std::string>& args, const EnvLookup& env) {
  ConfigFileWords out;
  out.words = args;
  if (args.empty() || args.front() != "profile") return out;
  std::vector<std::string> typed(args.begin() + 1, args.end());
  const bool named = std::any_of(typed.begin(), typed.end(), [](const std::string& a) {
    return a == "-f" || a == "--config" || a.starts_with("--config=") || a.starts_with("-f=");
  });
  if (!named) return out;
  out.used = true;
  out.file = yaml_take_file(typed, out.errors);
  if (!out.errors.empty()) return out;
  std::string why;
  const auto text = read_config_text(out.file, why);
  if (!text) {
    out.errors.push_back("-f/--config " + why);
    return out;
  }
  out.translation = translate_yaml(*text, out.file, env);
  if (!out.translation.errors.empty()) {
    out.errors = out.translation.errors;
    return out;
  }
  // A swept flag also typed as one value: the sweep sets it per variation (AIPerf 0.11).
  std::set<std::string> swept;
  for (const auto& axis : out.translation.sweep) swept.insert(yaml_canonical(axis.flag));
  std::set<std::string> typed_options;
  std::vector<std::string> kept;
  for (std::size_t k = 0; k < typed.size(); ++k) {
    const std::string c = typed[k].starts_with("-") ? yaml_canonical(typed[k]) : std::string();
    if (!c.empty() && swept.count(c)) {
      if (typed[k].find('=') == std::string::npos) ++k;  // its value too
      continue;
    }
    if (!c.empty()) typed_options.insert(c);
    kept.push_back(typed[k]);
  }
  out.words = {"profile"};
  YamlTranslation& t = out.translation;
  std::vector<std::vector<std::string>> groups;
  std::vector<YamlFlagOrigin> origins;
  for (std::size_t g = 0; g < t.groups.size(); ++g) {
    if (typed_options.count(yaml_canonical(t.groups[g].front()))) continue;
    out.words.insert(out.words.end(), t.groups[g].begin(), t.groups[g].end());
    groups.push_back(t.groups[g]);
    origins.push_back(t.origins[g]);
  }
  t.groups = std::move(groups);
  t.origins = std::move(origins);
  out.words.insert(out.words.end(), kept.begin(), kept.end());
  return out;
}

namespace {

bool yaml_line_names(const std::string& line, const std::string& flag) {
  for (std::size_t pos = line.find(flag); pos != std::string::npos;
       pos = line.find(flag, pos + 1)) {
    const std::size_t end = pos + flag.size();
    const bool left = pos == 0 || line[pos - 1] == ' ' || line[pos - 1] == '/' ||
                      line[pos - 1] == '(' || line[pos - 1] == '\'' || line[pos - 1] == ',';
    const bool right =
        end == line.size() || !(std::isalnum(static_cast<unsigned char>(line[end])) ||
                                line[end] == '-' || line[end] == '_');
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::string ConfigFileWords::point_at_file(const std::string& message) const {
  if (!used) return message;
  std::map<std::string, std::vector<std::string>> spellings;  // canonical -> every spelling
  for (const auto& [name, canonical] : yaml_canonical_names())
    if (name.starts_with("--")) spellings[canonical].push_back(name);
  std::string out;
  std::istringstream in(message);
  for (std::string line; std::getline(in, line);) {
    const YamlFlagOrigin* hit = nullptr;
    for (const auto& o : translation.origins) {
      for (const auto& s : spellings[yaml_canonical(o.flag)]) {
        if (yaml_line_names(line, s)) hit = &o;
      }
      if (hit) break;
    }
    if (hit) {
      const std::string where =
          file + (hit->line > 0 ? ":" + std::to_string(hit->line) : "") + ": " + hit->path + ": ";
      line = line.starts_with("error: ") ? "error: " + where + line.substr(7) : where + line;
    }
    out += line + "\n";
  }
  return out;
}

std::string ConfigFileWords::error_text() const {
  std::string out;
  for (const auto& e : errors) out += "error: " + e + "\n";
  return out;
}

}  // namespace inferperf::config
