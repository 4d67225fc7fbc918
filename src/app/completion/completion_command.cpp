#include "app/completion/completion_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/subcommand_words.hpp"

namespace inferperf::app {

namespace {

namespace fs = std::filesystem;

// Where each shell looks without configuration: bash-completion's per-user folder (loaded on
// first use of the command); for zsh a file the user sources from ~/.zshrc.
fs::path default_path(const std::string& shell) {
  const char* home = std::getenv("HOME");
  const fs::path base = home ? fs::path(home) : fs::current_path();
  if (shell == "zsh") return base / ".inferperf-completion.zsh";
  const char* data = std::getenv("XDG_DATA_HOME");
  const fs::path share = data && *data ? fs::path(data) : base / ".local" / "share";
  return share / "bash-completion" / "completions" / "inferperf";
}

std::string shell_of_environment() {
  const char* shell = std::getenv("SHELL");
  return shell ? fs::path(shell).filename().string() : "bash";
}

}  // namespace

std::string completion_script(const std::vector<std::string_view>& commands, bool zsh) {
  std::string words = "--help --version --install-completion";
  for (std::string_view c : commands) words += " " + std::string(c);
  std::string s = "# inferperf shell completion, written by `inferperf --install-completion`.\n";
  if (zsh) s += "autoload -U +X bashcompinit && bashcompinit\n";
  s += R"(_inferperf() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W ")" +
       words + R"(" -- "$cur"))
    return 0
  fi
  if [[ $cur == -* ]]; then
    local opts
    opts=$("${COMP_WORDS[0]}" "${COMP_WORDS[1]}" --help 2>/dev/null |
      grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return 0
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o default -F _inferperf inferperf
)";
  return s;
}

int run_install_completion(const std::vector<std::string>& args) {
  CLI::App app("Write a shell completion script for inferperf", "inferperf --install-completion");
  std::string shell = shell_of_environment(), output;
  CLI::Option* shell_opt =
      app.add_option("--shell", shell, "bash or zsh (default: the login shell, $SHELL)");
  app.add_option("-o,--output", output,
                 "Where to write it (default: bash-completion's per-user folder, or "
                 "~/.inferperf-completion.zsh); - prints it");
  if (auto stop = parse_subcommand_words(
          app, std::vector<std::string>(args.begin() + 1, args.end()), "--install-completion"))
    return print_instead_of_running(stop->first, stop->second);
  if (shell != "bash" && shell != "zsh") {
    return print_instead_of_running(
        kExitBadConfig, usage_message("--install-completion",
                                      "--shell " + shell + (shell_opt->count() ? "" : " ($SHELL)") +
                                          ": bash and zsh are supported"));
  }
  std::vector<std::string_view> names;
  for (const Command& c : commands()) names.push_back(c.name);
  const std::string script = completion_script(names, shell == "zsh");
  if (output == "-") {
    std::cout << script;
    return kExitOk;
  }
  const fs::path path = output.empty() ? default_path(shell) : fs::path(output);
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::trunc);
  out << script;
  out.close();
  if (!out) {
    std::cerr << "inferperf --install-completion: cannot write " << path.string() << "\n";
    return kExitRunFailed;
  }
  std::cout << "inferperf: " << shell << " completion written to " << path.string() << "\n";
  if (shell == "zsh")
    std::cout << "inferperf: add `source " << path.string() << "` to ~/.zshrc\n";
  else if (output.empty())
    std::cout << "inferperf: new bash sessions complete inferperf (bash-completion loads it)\n";
  else
    std::cout << "inferperf: add `source " << path.string() << "` to ~/.bashrc\n";
  return kExitOk;
}

}  // namespace inferperf::app
