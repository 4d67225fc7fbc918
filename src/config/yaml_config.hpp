// AIPerf 0.11 YAML configuration files (`inferperf profile -f FILE`). The file is translated into
// the `profile` flags that mean the same run, and those words are parsed by the ordinary command
// line parser, so a YAML run and its flags run are one and the same run (docs/config.md).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace inferperf::config {

// One flag the file produced, with where it came from ("benchmark.endpoint.streaming", line 7).
struct YamlFlagOrigin {
  std::string flag;  // "--streaming"
  std::string path;  // "benchmark.endpoint.streaming"
  int line = 0;      // 1-based; 0 when unknown
};

// A swept parameter of the file's `sweep:` block: the key as written and the flag it drives.
struct YamlSweepAxis {
  std::string key;        // as written: "concurrency", "phases.profiling.concurrency"
  std::string path;       // the body path it sets: "phases.profiling.concurrency"
  std::string canonical;  // AIPerf's path of the axis ("datasets.main.prompts.isl.mean")
  std::string flag;       // "--concurrency"
  std::vector<std::string> values;
};

// What one YAML text turns into.
struct YamlTranslation {
  std::vector<std::string> words;  // the profile flags, without "profile"
  // The same words by flag (the flag, then its values), parallel to `origins`.
  std::vector<std::vector<std::string>> groups;
  std::vector<YamlFlagOrigin> origins;
  std::vector<YamlSweepAxis> sweep;
  std::string sweep_type = "grid";
  std::vector<std::string> errors;    // "FILE:LINE: key.path: problem"
  std::vector<std::string> warnings;  // keys accepted but without effect in inferperf
};

// Reads the environment for ${VAR}; std::getenv by default.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// Translates a YAML text (`file` names it in messages). Never throws.
YamlTranslation translate_yaml(const std::string& text, const std::string& file,
                               const EnvLookup& env = {});

// `inferperf profile ... -f FILE ...` (or --config FILE, --config=FILE) with the file's words put
// in place: "profile", the file's flags, then the typed words. A typed option drops the file's
// words for the same option (a list is replaced, not extended); a file's sweep axis drops a typed
// scalar of the same flag (the sweep sets it per variation).
struct ConfigFileWords {
  bool used = false;  // a config file was named
  std::string file;
  std::vector<std::string> words;  // `args` itself when no file was named
  YamlTranslation translation;
  std::vector<std::string> errors;  // the file's errors, or a missing/unreadable file

  // `message` (one problem per line, as the profile parser prints them) with each line that names
  // a flag the file produced rewritten to point at the file: "error: FILE:LINE: key.path: ...".
  std::string point_at_file(const std::string& message) const;
  // The errors, one "error: ..." line each.
  std::string error_text() const;
};
ConfigFileWords expand_config_file(const std::vector<std::string>& args, const EnvLookup& env = {});

// The file's text, or an error naming it (missing, a folder, unreadable, larger than 16 MiB).
std::optional<std::string> read_config_text(const std::string& path, std::string& error);

}  // namespace inferperf::config
