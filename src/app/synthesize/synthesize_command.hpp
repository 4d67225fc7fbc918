// `inferperf synthesize --target agentic-code`: writes a synthetic agentic-coding workload (AIPerf
// 0.11's `aiperf synthesize agentic-code`) into a new run folder under --output: dataset.jsonl
// (mooncake_trace rows) and manifest.json (seed, session count, config name, the full config).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/synthesize/agentic_config.hpp"
#include "core/error.hpp"

namespace inferperf::app {

struct SynthesizeOptions {
  std::string target;  // "agentic-code", the only one
  long long num_sessions = 1000;
  std::string output = ".";  // the run folder is made inside it
  std::string config;        // a file, a manifest.json, "default", or an inline JSON object
  std::uint64_t seed = 42;
  std::optional<long long> max_isl, max_osl;
};

struct SynthesizeCommand {
  bool run = false;  // false: print `message` (stdout when exit_code is 0), exit with `exit_code`
  int exit_code = 0;
  std::string message;
  SynthesizeOptions options;
};
SynthesizeCommand parse_synthesize_command(const std::vector<std::string>& args);

// The --config value as a config: `name` gets the manifest's config_name ("default", the file's
// stem, or "inline"); keys the generator does not read are appended to `ignored`. Errors name
// --config, the file and the key path.
core::Result<agentic::Config> load_synthesize_config(const std::string& value, std::string& name,
                                                     std::vector<std::string>* ignored);

// The run folder's name, as AIPerf's: CONFIG_NAMEs_seedSEED_YYYYMMDD-HHMMSS (UTC).
std::string synthesize_run_name(const std::string& config_name, long long num_sessions,
                                std::uint64_t seed, std::int64_t unix_seconds);

// Exit codes: 0; 2 bad command line or config; 1 the folder or files could not be written.
int run_synthesize(const SynthesizeOptions& o);

}  // namespace inferperf::app
