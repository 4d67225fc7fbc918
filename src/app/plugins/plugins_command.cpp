#include "app/plugins/plugins_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/subcommand_words.hpp"
#include "config/cli_app.hpp"
#include "config/endpoint_type.hpp"

namespace inferperf::app {

namespace {

// AIPerf categories with a profile option that picks one built-in type.
struct PluginsFlag {
  const char* category;
  const char* flag;
};
constexpr PluginsFlag kPluginsFlags[] = {
    {"arrival_pattern", "--arrival-pattern"},
    {"custom_dataset_loader", "--custom-dataset-type"},
    {"dataset_sampler", "--dataset-sampling-strategy"},
    {"endpoint", "--endpoint-type"},
    {"public_dataset_loader", "--public-dataset"},
    {"transport", "--transport"},
    {"ui", "--ui-type"},
    {"url_selection_strategy", "--url-strategy"},
};

// AIPerf 0.11's other categories: its processes, message bus and internal pipeline stages, or
// features inferperf builds in without a choice to make.
constexpr const char* kPluginsInternal[] = {
    "accuracy_benchmark",
    "accuracy_grader",
    "api_router",
    "communication",
    "communication_client",
    "console_exporter",
    "data_exporter",
    "dataset_backing_store",
    "dataset_client_store",
    "dataset_composer",
    "gpu_telemetry_collector",
    "gpu_telemetry_processor",
    "plot",
    "ramp",
    "record_processor",
    "results_processor",
    "search_recipe",
    "search_recipe_post_process",
    "server_metrics_processor",
    "service",
    "service_manager",
    "timing_strategy",
    "zmq_proxy",
};

// CLI11 describes a choice validator as "{a,b,c}".
std::vector<std::string> plugins_choice_list(const std::string& description) {
  std::vector<std::string> out;
  if (description.size() < 2 || description.front() != '{' || description.back() != '}') return out;
  const std::string inner = description.substr(1, description.size() - 2);
  std::size_t pos = 0;
  while (pos <= inner.size()) {
    const std::size_t comma = std::min(inner.find(',', pos), inner.size());
    if (comma > pos) out.push_back(inner.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

std::string plugins_joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void plugins_print_all(const std::vector<PluginCategory>& cats) {
  std::cout << "inferperf has no plugin registry: its types are built in, each chosen by a "
               "profile option.\nBuilt-in types by AIPerf plugin category:\n\n";
  for (const PluginCategory& c : cats)
    std::cout << fmt::format("{} ({}):\n  {}\n", c.name, c.flag, plugins_joined(c.types));
  std::cout << "\nAIPerf's other categories (services, message bus, processors, exporters) are "
               "its process architecture; inferperf runs as one process.\n"
               "Usage: inferperf plugins CATEGORY [TYPE]\n";
}

int plugins_unknown(const std::string& category, const std::vector<PluginCategory>& cats) {
  std::vector<std::string> names;
  for (const PluginCategory& c : cats) names.push_back(c.name);
  if (std::find(std::begin(kPluginsInternal), std::end(kPluginsInternal), category) !=
      std::end(kPluginsInternal)) {
    std::cerr << fmt::format(
        "inferperf plugins: '{}' is an AIPerf category with no equivalent in inferperf: it is "
        "part of AIPerf's multi-process architecture or a built-in step inferperf does not let "
        "you swap. Categories with built-in types: {}\n",
        category, plugins_joined(names));
  } else {
    std::cerr << fmt::format("inferperf plugins: unknown category '{}'. Available: {}\n", category,
                             plugins_joined(names));
  }
  return kExitBadConfig;
}

// `service --help` gets the same answer on stdout with exit code 0.
bool plugins_asked_for_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(),
                     [](const std::string& a) { return a == "--help" || a == "-h"; });
}

std::ostream& plugins_answer_stream(const std::vector<std::string>& args) {
  return plugins_asked_for_help(args) ? std::cout : std::cerr;
}

}  // namespace

std::vector<PluginCategory> builtin_plugin_categories() {
  // The values are read back from the profile parser, so the list is what profile accepts.
  config::CliTargets targets;
  CLI::App app;
  config::add_profile_options(app, targets);
  std::vector<PluginCategory> out;
  for (const PluginsFlag& f : kPluginsFlags) {
    PluginCategory c{f.category, f.flag, {}};
    if (std::string_view(f.flag) == "--endpoint-type") {
      c.types = config::endpoint_type_names();
    } else if (CLI::Option* opt = app.get_option_no_throw(f.flag)) {
      for (int i = 0; c.types.empty(); ++i) {
        const CLI::Validator* v = nullptr;
        try {
          v = opt->get_validator(i);
        } catch (const CLI::OptionNotFound&) {
          break;
        }
        if (!v) break;
        c.types = plugins_choice_list(v->get_description());
      }
    }
    if (!c.types.empty()) out.push_back(std::move(c));
  }
  return out;
}

int run_plugins_command(const std::vector<std::string>& args) {
  CLI::App app(
      "List inferperf's built-in types by AIPerf plugin category (AIPerf 0.11's "
      "`plugins`; inferperf has no plugin registry)",
      "inferperf plugins");
  std::string category, type;
  bool all = false, validate = false;
  app.add_option("CATEGORY", category, "An AIPerf plugin category (endpoint, ui, ...)")
      ->type_name("");
  app.add_option("TYPE", type, "A type of that category")->type_name("");
  app.add_option("--category", category, "The category to list");
  app.add_option("--name", type, "A type of the category, for details");
  app.add_flag("-a,--all,!--no-all", all, "Every category and its types (the default)");
  app.add_flag("-v,--validate,!--no-validate", validate,
               "Check the registry (nothing to check: the types are built in)");
  if (auto stop = parse_subcommand_words(
          app, std::vector<std::string>(args.begin() + 1, args.end()), "plugins"))
    return print_instead_of_running(stop->first, stop->second);
  const std::vector<PluginCategory> cats = builtin_plugin_categories();
  if (validate) {
    std::cout << "Nothing to validate: inferperf's types are compiled in (no plugins.yaml).\n";
    return kExitOk;
  }
  if (category.empty() || all) {
    plugins_print_all(cats);
    return kExitOk;
  }
  const auto it = std::find_if(cats.begin(), cats.end(),
                               [&](const PluginCategory& c) { return c.name == category; });
  if (it == cats.end()) return plugins_unknown(category, cats);
  if (type.empty()) {
    std::cout << fmt::format("{} types (choose one with {}):\n", it->name, it->flag);
    for (const std::string& t : it->types) std::cout << "  " << t << "\n";
    return kExitOk;
  }
  if (std::find(it->types.begin(), it->types.end(), type) == it->types.end()) {
    std::cerr << fmt::format("inferperf plugins: not found: {}:{}. Available: {}\n", category, type,
                             plugins_joined(it->types));
    return kExitBadConfig;
  }
  std::cout << fmt::format("{}:{} is built in; select it with `inferperf profile {} {}`.\n",
                           category, type, it->flag, type);
  return kExitOk;
}

int run_service_command(const std::vector<std::string>& args) {
  plugins_answer_stream(args)
      << "inferperf service: inferperf has no service processes. AIPerf's `service` starts "
         "one of its internal processes (system controller, worker, dataset or records "
         "manager, ...) that a multi-process run is made of; inferperf runs a whole "
         "benchmark in one process.\nRun `inferperf profile` with the same options instead; "
         "to spread one benchmark over several machines, start one `inferperf profile` per "
         "machine with --shard-count/--shard-index and join them with `inferperf merge`.\n";
  return plugins_asked_for_help(args) ? kExitOk : kExitBadConfig;
}

int run_speed_bench_report_command(const std::vector<std::string>& args) {
  plugins_answer_stream(args)
      << "inferperf speed-bench-report: not supported. It collects the acceptance-length "
         "results of SPEED-Bench runs (speculative decoding), which inferperf does not "
         "produce.\n";
  return plugins_asked_for_help(args) ? kExitOk : kExitBadConfig;
}

}  // namespace inferperf::app
