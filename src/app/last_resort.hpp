// The last resort of every command: an exception that escapes it becomes one line on stderr and
// exit 1 (out of memory included, with advice), instead of "terminate called ..." and an abort.
#pragma once
#include <string>
#include <vector>

namespace inferperf::app {

// Installs the handler for an exception that escapes a thread: out of memory gets one line naming
// the phase of the running command and exit 1; anything else goes to the runtime's own handler.
void install_terminate_handler();

// Runs `run(args)` as the command in `phase` ("profiling": "error: out of memory while
// profiling"): its exit code, or 1 after one line on stderr when an exception escapes it.
int run_guarded(const char* phase, int (*run)(const std::vector<std::string>&),
                const std::vector<std::string>& args);

}  // namespace inferperf::app
