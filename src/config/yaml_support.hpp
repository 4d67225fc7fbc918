// The pieces the YAML translator is built from (yaml_config.cpp, yaml_body.cpp, yaml_phases.cpp):
// the translation context, key lookup with snake_case/camelCase aliases and "did you mean", and the
// value forms (numbers, booleans, durations, distributions, ${VAR} and {{ expr }}).
#pragma once
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/yaml_config.hpp"

namespace inferperf::config::yaml {

// A node and the dotted key path that reached it ("benchmark.endpoint").
struct At {
  YAML::Node node;
  std::string path;
  At child(const YAML::Node& n, std::string_view key) const {
    return {n, path.empty() ? std::string(key) : path + "." + std::string(key)};
  }
};

class Ctx {
 public:
  Ctx(std::string file, EnvLookup env) : file_(std::move(file)), env_(std::move(env)) {}

  YamlTranslation out;
  // One entry per emit: the flag and its values, parallel to out.origins (words are built from
  // them at the end, the last group of a flag winning).
  std::vector<std::vector<std::string>> groups;
  std::map<std::string, std::string> variables;  // `variables:`, for {{ expr }}

  // Adds `flag` with its values (none for a switch) as coming from `at`.
  void emit(const std::string& flag, std::vector<std::string> values, const At& at);
  void error(const At& at, const std::string& problem);
  void warn(const At& at, const std::string& problem);
  // "refused": a key inferperf knows but cannot honour, with the reason.
  void refuse(const At& at, const std::string& reason);

  // Checks that `at` is a mapping whose keys (snake_case or camelCase) are all in `known`; each
  // other key is reported with the closest known one. False (reported) when not a mapping.
  bool check_keys(const At& at, std::initializer_list<std::string_view> known);
  // The value under `key` (either spelling), or an undefined node.
  static YAML::Node get(const YAML::Node& map, std::string_view key);

  // A scalar with ${VAR} and {{ expr }} substituted; nullopt (reported) otherwise.
  std::optional<std::string> text(const At& at);
  // A number (integer or decimal) as text, as written; nullopt (reported) otherwise.
  std::optional<std::string> number(const At& at);
  std::optional<bool> boolean(const At& at);
  // Seconds: a number or "30s", "500ms", "5m", "2h", "1d"; "inf" gives "inf".
  std::optional<std::string> duration(const At& at);
  // A ramp: seconds, or {duration, strategy: linear}.
  std::optional<std::string> ramp(const At& at);

  // The simple one-key-one-flag forms.
  void number_flag(const At& parent, std::string_view key, const std::string& flag);
  void text_flag(const At& parent, std::string_view key, const std::string& flag);
  void duration_flag(const At& parent, std::string_view key, const std::string& flag);
  void switch_flag(const At& parent, std::string_view key, const std::string& flag);
  // A boolean with both forms: true -> on_flag, false -> off_flag ("" for none).
  void pair_flag(const At& parent, std::string_view key, const std::string& on_flag,
                 const std::string& off_flag);
  // A distribution: a number, or {mean, stddev}; other forms are refused.
  void distribution(const At& at, const std::string& mean_flag, const std::string& stddev_flag);
  // A key inferperf refuses unless it holds a value that changes nothing (null, false, {}, 0).
  void refuse_unless_noop(const At& parent, std::string_view key, const std::string& reason);

  const std::string& file() const { return file_; }

 private:
  std::string substitute(const std::string& raw, const At& at, bool& ok);
  std::string file_;
  EnvLookup env_;
};

// "schemaVersion" -> "schema_version"; snake_case stays.
std::string snake_key(std::string_view key);
// The closest of `known` to `typed` when near enough to be a typo; "" otherwise.
std::string suggest_key(std::string_view typed, std::initializer_list<std::string_view> known);
// The 1-based line of a node (0 when unknown).
int line_of(const YAML::Node& n);
// A YAML value as JSON text (quoted scalars stay strings; plain ones become numbers/booleans).
std::string to_json_text(const YAML::Node& n);
// `{{ expr }}`: variable names, numbers, + - * / % and parentheses. Nullopt with `error` set.
std::optional<std::string> evaluate_expression(std::string_view expr,
                                               const std::map<std::string, std::string>& vars,
                                               std::string& error);

// The parts of the body and the envelope (yaml_body.cpp, yaml_phases.cpp).
void translate_models(Ctx& ctx, const At& at);
void translate_endpoint(Ctx& ctx, const At& at);
void translate_datasets(Ctx& ctx, const At& body);
// A synthetic dataset's images, audio and video tables (yaml_media.cpp).
void translate_media(Ctx& ctx, const At& ds);
void translate_artifacts(Ctx& ctx, const At& at);
void translate_services(Ctx& ctx, const At& body);
void translate_phases(Ctx& ctx, const At& body);
void translate_multi_run(Ctx& ctx, const At& at);
void translate_sweep(Ctx& ctx, const At& at);

}  // namespace inferperf::config::yaml
