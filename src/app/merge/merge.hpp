// `inferperf merge DIR... --artifact-dir OUT`: the artifact folders of one benchmark's shards
// (profile --shard-index/--shard-count) become one artifact folder whose reports are those of one
// process holding every record: the records are pooled (they are wall-clock stamped, so each
// shard's clock anchor aligns them), the window runs from the first send to the last response of
// any shard, and the configuration echo is the shards' common one.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/analyze/analyze.hpp"
#include "core/error.hpp"

namespace inferperf::app {

struct MergeOptions {
  std::vector<std::string> inputs;  // shard folders, or folders holding shard-* folders
  std::string artifact_dir;         // OUT
  bool dry_run = false;
  // The shards' actual starts may differ by this much before merge warns (clock skew, a late
  // pod, a missed --start-at).
  double max_start_skew_ms = 100.0;
  std::string cli_command;  // "inferperf merge ...", for the log
};

struct MergeCommand {
  bool run = false;  // false: print `message`, exit with `exit_code`
  int exit_code = 0;
  std::string message;
  MergeOptions options;
};
MergeCommand parse_merge_command(const std::vector<std::string>& args);

// A shard as merge sees it: where it came from and what it holds.
struct ShardRun {
  std::filesystem::path dir;
  artifacts::LoadedRun run;
};

struct MergedRun {
  artifacts::LoadedRun run;    // manifest (context, settings) and pooled records
  double start_spread_ms = 0;  // latest minus earliest shard start
  std::vector<std::string> warnings;
};

// The folders the inputs name, one per shard (a folder with a run manifest is a shard; any other
// folder contributes its shard-* subfolders that have one).
core::Result<std::vector<std::filesystem::path>> shard_folders(
    const std::vector<std::string>& inputs);

// Pools the shards' records and joins their manifests. Refused: a folder that is not a shard,
// shards of different counts, a missing or repeated index, configurations that differ (the
// first differing setting is named).
core::Result<MergedRun> merge_shards(std::vector<ShardRun> shards, const MergeOptions& o);

// The whole command: read, merge, write OUT (records, manifest, inputs.json, every report).
// Exit codes as `analyze`: 0, 1, 2 (bad input), 130 (a shard was stopped early).
int run_merge(const MergeOptions& o);

}  // namespace inferperf::app
