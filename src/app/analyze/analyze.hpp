// `inferperf analyze ARTIFACT_DIR`: rebuilds every report of a run from its records file and run
// manifest, without a server. On a finished run the files are byte-identical to what `profile`
// wrote.
#pragma once
#include <filesystem>
#include <string>

#include "artifacts/run_records.hpp"
#include "core/error.hpp"

namespace inferperf::app {

// One artifact folder read back (artifacts::read_run) and made reportable: a run that did not
// finish is marked cancelled and, when it had not counted them, gets its client token counts from
// inputs.json.
core::Result<artifacts::LoadedRun> load_run(const std::filesystem::path& dir);

// Exit codes as `profile`: 0, 1 (no valid record or a write failed), 2 (unreadable input).
int run_analyze(const std::string& artifact_dir);

}  // namespace inferperf::app
