// A run's records file (inferperf_records.jsonl) with its manifest: read back by `analyze` and
// `merge`, written again by `profile` (with the client token counts) and by `merge` (the pooled
// records).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "artifacts/run_manifest.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "records/request_record.hpp"

namespace inferperf::artifacts {

// One artifact folder read back: its manifest and records (wall-clock stamped, anchor 0).
struct LoadedRun {
  RunManifest manifest;
  std::vector<records::RequestRecord> records;
};

// Reads a records file one record at a time (wall-clock stamped, anchor 0), handing each to `fn`
// in file order; returns how many were read. A partial last line (a run killed mid-write) is
// skipped with a warning; any other bad line is an error naming file and line.
core::Result<std::int64_t> for_each_record(const std::filesystem::path& file,
                                           const std::function<void(records::RequestRecord&)>& fn);

// The same with the reading and parsing on a thread of its own, a few batches ahead of `fn` (which
// runs on the calling thread): the parse overlaps the caller's work on the records before.
core::Result<std::int64_t> for_each_record_read_ahead(
    const std::filesystem::path& file, const std::function<void(records::RequestRecord&)>& fn);

// The manifest and the records as they are on disk. A partial last line (a run killed mid-write)
// is skipped with a warning; any other bad line is an error naming file and line. What a run that
// did not finish (manifest.complete false) means is left to the caller.
core::Result<LoadedRun> read_run(const std::filesystem::path& dir);

// Writes `records` as inferperf_records.jsonl lines (atomically), times through `anchor`; records
// read back by read_run are wall-clock already (anchor {0, 0}).
core::Result<bool> save_records(const std::filesystem::path& file,
                                const std::vector<records::RequestRecord>& records,
                                const core::WallAnchor& anchor);

}  // namespace inferperf::artifacts
