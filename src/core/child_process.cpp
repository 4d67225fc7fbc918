#include "core/child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace inferperf::core {

namespace {

// This process's environment with `extra` added; an entry of `extra` replaces one of the same name.
// Built before fork: the child may only make async-signal-safe calls.
std::vector<char*> child_environment(const std::vector<std::string>& extra) {
  std::vector<char*> env;
  for (char** e = environ; e && *e; ++e) {
    bool replaced = false;
    for (const auto& x : extra) {
      const auto eq = x.find('=');
      replaced = replaced || (eq != std::string::npos && std::strncmp(*e, x.c_str(), eq + 1) == 0);
    }
    if (!replaced) env.push_back(*e);
  }
  for (const auto& x : extra) env.push_back(const_cast<char*>(x.c_str()));
  env.push_back(nullptr);
  return env;
}

}  // namespace

int run_child(const std::vector<std::string>& argv, const ChildOptions& options) {
  if (argv.empty()) return -1;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env = child_environment(options.extra_env);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    // Only async-signal-safe calls until exec.
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(126);
    if (!options.log.empty()) {
      const int in = open("/dev/null", O_RDONLY);
      const int out = open(options.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in < 0 || out < 0) _exit(126);
      dup2(in, 0);
      dup2(out, 1);
      dup2(out, 2);
    }
    execvpe(args[0], args.data(), env.data());
    _exit(127);
  }
  if (options.on_start) options.on_start(pid);
  int status = 0;
  int rc = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      rc = -1;
      break;
    }
  }
  if (options.on_end) options.on_end();
  if (rc < 0) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace inferperf::core
