#include "core/child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace inferperf::core {

int run_child(const std::vector<std::string>& argv, const ChildOptions& options) {
  if (argv.empty()) return -1;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
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
    execvp(args[0], args.data());
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
