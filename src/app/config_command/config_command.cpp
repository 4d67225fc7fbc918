#include "app/config_command/config_command.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

#include "app/config_command/config_templates.hpp"
#include "app/exit_codes.hpp"
#include "app/profile/profile_command.hpp"
#include "app/subcommand_words.hpp"
#include "config/yaml_config.hpp"

namespace inferperf::app {

namespace {

constexpr int kExitInvalidConfigFile = 1;  // `config validate` and `config expand`, as AIPerf 0.11

void replace_all(std::string& s, std::string_view from, const std::string& to) {
  if (to.empty()) return;
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

struct InitOptions {
  std::string name, search, category, model, url, output;
  bool list = false, verbose = false;
};

bool init_matches(const ConfigTemplate& t, const InitOptions& o) {
  if (!o.category.empty() && t.category != o.category) return false;
  if (o.search.empty()) return true;
  const auto has = [&](std::string_view where) {
    return where.find(o.search) != std::string_view::npos;
  };
  return has(t.name) || has(t.description) || has(t.category);
}

int run_config_init(const InitOptions& o) {
  if (o.list || !o.search.empty() || (!o.category.empty() && o.name.empty())) {
    int shown = 0;
    for (const ConfigTemplate& t : config_templates()) {
      if (!init_matches(t, o)) continue;
      ++shown;
      std::cout << t.name << "  [" << t.category << "]  " << t.description << "\n";
      if (o.verbose) std::cout << t.text << "\n";
    }
    if (shown == 0) {
      std::cerr << "inferperf config init: no template matches\n";
      return kExitBadConfig;
    }
    return kExitOk;
  }
  const auto text = config_template_text(o.name.empty() ? "minimal" : o.name, o.model, o.url);
  if (!text) {
    std::cerr << "inferperf config init: no template named '" << o.name
              << "' (inferperf config init --list)\n";
    return kExitBadConfig;
  }
  if (o.output.empty()) {
    std::cout << *text;
    return kExitOk;
  }
  std::ofstream out(o.output, std::ios::binary | std::ios::trunc);
  out << *text;
  out.close();
  if (!out) {
    std::cerr << "inferperf config init: cannot write " << o.output << "\n";
    return kExitBadConfig;
  }
  std::cout << "wrote " << o.output << " (inferperf profile -f " << o.output << ")\n";
  return kExitOk;
}

int run_config_validate(const std::string& path) {
  const int rc = run_profile_command({"profile", "-f", path, "--dry-run"});
  if (rc != kExitOk) {
    std::cerr << path << ": not valid\n";
    return kExitInvalidConfigFile;
  }
  std::cout << path << ": valid\n";
  return kExitOk;
}

int run_config_expand(const std::string& path, const ConfigExpandOptions& o) {
  std::string error;
  const auto text = expand_config_text(path, o, error);
  if (!text) {
    std::cerr << error;
    return kExitInvalidConfigFile;
  }
  std::cout << *text;
  return kExitOk;
}

}  // namespace

std::optional<std::string> config_template_text(const std::string& name, const std::string& model,
                                                const std::string& url) {
  for (const ConfigTemplate& t : config_templates()) {
    if (t.name != name) continue;
    std::string s(t.text);
    replace_all(s, kTemplateModel, model);
    replace_all(s, kTemplateUrl, url);
    return s;
  }
  return std::nullopt;
}

int run_config_command(const std::vector<std::string>& args) {
  CLI::App app("YAML configuration files for `inferperf profile -f`", "inferperf config");
  app.require_subcommand(1);
  InitOptions init;
  CLI::App* init_cmd = app.add_subcommand("init", "Print or write a bundled YAML template");
  init_cmd->add_option("-t,--template", init.name, "Template name (default minimal)");
  init_cmd->add_flag("-l,--list", init.list, "List the templates");
  init_cmd->add_option("-s,--search", init.search, "List the templates mentioning WORD");
  init_cmd->add_option("-c,--category", init.category, "Only this category");
  init_cmd->add_flag("-v,--verbose", init.verbose, "With a list: print each template too");
  init_cmd->add_option("-m,--model", init.model, "Model name to put in the template");
  init_cmd->add_option("-u,--url", init.url, "Server URL to put in the template");
  init_cmd->add_option("-o,--output", init.output, "Write here instead of stdout");

  std::string file;
  ConfigExpandOptions expand;
  std::size_t index = 0;
  CLI::App* expand_cmd =
      app.add_subcommand("expand", "Print a file's sweep variations without running them");
  expand_cmd->add_option("config_file,--config-file", file, "The YAML file (or positional)")
      ->required();
  expand_cmd->add_flag("-F,--full", expand.full, "Print each variation's whole body");
  CLI::Option* index_opt =
      expand_cmd->add_option("-i,--index", index, "Only this variation (0-based); implies -F");
  expand_cmd->add_option("-f,--format", expand.format, "text | yaml | json (text)")
      ->check(CLI::IsMember({"text", "yaml", "json"}));

  std::string validate_file;
  CLI::App* validate_cmd = app.add_subcommand(
      "validate", "Load and check a file as profile would (nothing is sent); exit 1 if invalid");
  validate_cmd
      ->add_option("config_file,--config-file", validate_file, "The YAML file (or positional)")
      ->required();

  if (auto stop = parse_subcommand_words(
          app, std::vector<std::string>(args.begin() + 1, args.end()), "config"))
    return print_instead_of_running(stop->first, stop->second);
  if (init_cmd->parsed()) return run_config_init(init);
  if (validate_cmd->parsed()) return run_config_validate(validate_file);
  if (index_opt->count() > 0) {
    expand.index = index;
    expand.full = true;
  }
  return run_config_expand(file, expand);
}

}  // namespace inferperf::app
