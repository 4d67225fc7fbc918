// The AIPerf 0.11 subcommands that expose its plugin registry and process architecture, which
// inferperf (one process, built-in types) does not have: `plugins` lists the built-in types by
// AIPerf's plugin category, `service` and `speed-bench-report` say what to use instead.
#pragma once
#include <string>
#include <vector>

namespace inferperf::app {

struct PluginCategory {
  std::string name;                // AIPerf's category: "endpoint", "custom_dataset_loader", ...
  std::string flag;                // the profile option that selects one: "--endpoint-type"
  std::vector<std::string> types;  // the values that option accepts, from the parser itself
};

// Every AIPerf category inferperf has an equivalent for, with its types.
std::vector<PluginCategory> builtin_plugin_categories();

// `inferperf plugins [CATEGORY [TYPE]] [--category C] [--name T] [--all] [--validate]`.
// Exit codes: 0; 2 an unknown category or type, or a category inferperf has no equivalent for.
int run_plugins_command(const std::vector<std::string>& args);
// `inferperf service ...`: exit 2 with what to run instead (exit 0 with --help).
int run_service_command(const std::vector<std::string>& args);
// `inferperf speed-bench-report ...`: exit 2, SPEED-Bench runs are not supported (0 with --help).
int run_speed_bench_report_command(const std::vector<std::string>& args);

}  // namespace inferperf::app
