// `inferperf analyze ARTIFACT_DIR`: rebuilds every report of a run from its records file and run
// manifest, without a server. On a finished run the files are byte-identical to what `profile`
// wrote.
#pragma once
#include <string>

namespace inferperf::app {

// Exit codes as `profile`: 0, 1 (no valid record or a write failed), 2 (unreadable input).
int run_analyze(const std::string& artifact_dir);

}  // namespace inferperf::app
