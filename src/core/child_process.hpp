// Runs another program and waits for it: the orchestrator's runs and gnuplot share this.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace inferperf::core {

struct ChildOptions {
  std::filesystem::path cwd;  // empty: this process's
  // Empty: the child shares this process's stdin, stdout and stderr. Otherwise stdin is /dev/null
  // and stdout and stderr go to this file.
  std::filesystem::path log;
  std::function<void(pid_t)> on_start;  // told the child's pid before the wait (signal forwarding)
  std::function<void()> on_end;         // after the wait
  // "NAME=value" entries added to (or replacing) the child's copy of this process's environment.
  std::vector<std::string> extra_env;
};

// argv[0] is looked up on PATH when it has no '/'. The exit status, 128 + the signal that ended
// the child, or -1 when it could not be started.
int run_child(const std::vector<std::string>& argv, const ChildOptions& options = {});

}  // namespace inferperf::core
