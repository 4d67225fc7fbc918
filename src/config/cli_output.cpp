// The output options: --max-* ceilings, artifacts, shards and timeslices.
#include "config/cli_areas.hpp"

namespace inferperf::config {

// --max-*, artifacts, shards and timeslices.
void add_limits_and_output_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--max-dataset-memory", t.max_dataset_memory,
                   "Refuse a dataset whose estimated size (prompts, payloads, inputs.json) is "
                   "above this many bytes (default: half the physical memory)")
      ->type_name("BYTES")
      ->group("Limits");
  profile
      ->add_option("--max-response-bytes", t.max_response_bytes,
                   "A response body longer than this is cut and counted as an error record "
                   "(default 256M)")
      ->type_name("BYTES")
      ->group("Limits");
  profile
      ->add_option("--max-sse-event-bytes", t.max_sse_event_bytes,
                   "An SSE event longer than this ends the request as an error record (default "
                   "16M)")
      ->type_name("BYTES")
      ->group("Limits");

  profile
      ->add_option("--output-artifact-dir,--artifact-dir", c.output.artifact_dir, "Artifact folder")
      ->group("Output");
  profile
      ->add_option("--shard-count", c.shard.count,
                   "This run is one of N load generators of one benchmark (default: "
                   "$INFERPERF_SHARD_COUNT, else 1); `inferperf merge` joins their folders")
      ->group("Scale Out");
  profile
      ->add_option("--shard-index", c.shard.index,
                   "Which of the --shard-count shards this is, 0 to N-1 (default: "
                   "$JOB_COMPLETION_INDEX, a Kubernetes Indexed Job's)")
      ->group("Scale Out");
  profile
      ->add_option("--start-at", c.shard.start_at,
                   "Unix time in seconds (fractional) at which the first phase starts; give every "
                   "shard the same value")
      ->group("Scale Out");
  profile
      ->add_option("--profile-export-prefix,--profile-export-file", c.output.export_prefix,
                   "Name the export files <prefix>.json, <prefix>.csv, <prefix>.jsonl, "
                   "<prefix>_raw.jsonl, <prefix>_timeslices.* (inside the artifact folder)")
      ->group("Output");
  profile
      ->add_option(
          "--export-level,--profile-export-level", t.export_level,
          "summary | records (adds profile_export.jsonl) | raw (adds profile_export_raw.jsonl too)")
      ->transform(enum_choice({"summary", "records", "raw"}))
      ->group("Output");
  profile
      ->add_option("--slice-duration", c.output.slice_duration_s,
                   "Seconds per timeslice; also writes per-slice metrics "
                   "(profile_export_aiperf_timeslices.csv/.json)")
      ->group("Output");
}

}  // namespace inferperf::config
