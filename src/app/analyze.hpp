// `inferperf analyze ARTIFACT_DIR`: rebuilds every report of a run from its records file and run
// manifest, without a server. On a finished run the files are byte-identical to what `profile`
// wrote.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "app/run_manifest.hpp"
#include "core/error.hpp"
#include "records/request_record.hpp"

namespace inferperf::app {

// One artifact folder read back: its manifest and records (wall-clock stamped, anchor 0). A run
// that did not finish is marked cancelled and, when it had not counted them, gets its client
// token counts from inputs.json.
struct LoadedRun {
  RunManifest manifest;
  std::vector<records::RequestRecord> records;
};
core::Result<LoadedRun> load_run(const std::filesystem::path& dir);
// Writes `records` as inferperf_records.jsonl lines (atomically), times through `anchor`; records
// read back by load_run are wall-clock already (anchor {0, 0}).
core::Result<bool> save_records(const std::filesystem::path& file,
                                const std::vector<records::RequestRecord>& records,
                                const core::WallAnchor& anchor);

// Exit codes as `profile`: 0, 1 (no valid record or a write failed), 2 (unreadable input).
int run_analyze(const std::string& artifact_dir);

}  // namespace inferperf::app
