#include "app/last_resort.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include "app/exit_codes.hpp"
#include "core/secrets.hpp"

namespace inferperf::app {

namespace {

// What the command is doing, for the out-of-memory message of the terminate handler.
const char* g_running_phase = "starting";
// The runtime's own handler (libstdc++ prints the exception's type and what() and aborts).
std::terminate_handler g_runtime_terminate = nullptr;

constexpr const char* kOomAdvice =
    "; lower the dataset (--isl, --num-dataset-entries, a smaller --input-file) or the load, or "
    "set --max-dataset-memory below what this machine can spare\n";

// An exception that escaped a thread ends the process here. Out of memory gets a clear message
// (written without allocating) and exit 1 instead of "terminate called ..." and an abort; any
// other escape goes to the runtime's handler: a visible crash with a core dump, as before.
[[noreturn]] void on_terminate() {
  bool oom = false;
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      oom = true;
    } catch (...) {
    }
  }
  if (!oom) {
    if (g_runtime_terminate) g_runtime_terminate();
    std::abort();
  }
  std::fputs("error: out of memory while ", stderr);
  std::fputs(g_running_phase, stderr);
  std::fputs(
      " (if a run had started, the records measured so far are in its artifact folder: "
      "'inferperf analyze <folder>' exports them)",
      stderr);
  std::fputs(kOomAdvice, stderr);
  std::_Exit(kExitRunFailed);
}

}  // namespace

void install_terminate_handler() {
  g_runtime_terminate = std::set_terminate(on_terminate);
}

int run_guarded(const char* phase, int (*run)(const std::vector<std::string>&),
                const std::vector<std::string>& args) {
  g_running_phase = phase;
  try {
    return run(args);
  } catch (const std::bad_alloc&) {
    std::fputs("error: out of memory while ", stderr);
    std::fputs(phase, stderr);
    std::fputs(kOomAdvice, stderr);
  } catch (const std::exception& e) {
    std::cerr << "error: " << core::redact_urls(e.what()) << "\n";
  }
  return kExitRunFailed;
}

}  // namespace inferperf::app
