#!/usr/bin/env bash
# Rebuilds the committed `inferperf plot` fixtures from real runs against the bundled mock server
# (run once by hand; the tests only read the committed files). Needs build/release.
#   sweep/      --concurrency 1,2,4 (a sweep), with concurrency_2 replaced by a
#               --num-profile-runs 2 run (profile_runs/run_0001, run_0002, aggregate/); timeslices,
#               fake DCGM GPU telemetry, server metrics JSONL
#   workflow/   the reference workflow's artifacts/c1 c2 c4 layout: three separate runs, summary
#               and per-request records only
# Files the plots never read (inputs.json, logs/, manifests, CSV summaries) are dropped to keep
# the fixtures small; concurrency_4 keeps only the timeslice CSV, so the CSV reader is exercised.
set -euo pipefail
cd "$(dirname "$0")"
BIN=../../../build/release/apps
WORK=$(mktemp -d)
trap 'kill "$MOCK_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
"$BIN/mock-server/inferperf-mock-server" --port 0 --ttft 20 --itl 4 --dcgm-num-gpus 2 \
  >"$WORK/mock.log" 2>&1 &
MOCK_PID=$!
for _ in $(seq 1 100); do
  ADDR=$(sed -n 's/^inferperf-mock-server listening on //p' "$WORK/mock.log")
  [[ -n "$ADDR" ]] && break
  sleep 0.1
done
COMMON=(-m mock-model --url "http://$ADDR" --endpoint-type chat --streaming --request-count 16
  --isl 32 --osl 16 --tokenizer builtin --random-seed 7 --ui-type none)
TELEMETRY=(--slice-duration 0.5 --gpu-telemetry "http://$ADDR/dcgm1/metrics"
  --server-metrics "http://$ADDR/metrics" --server-metrics-formats json jsonl)
"$BIN/inferperf" profile "${COMMON[@]}" "${TELEMETRY[@]}" --concurrency 1,2,4 \
  --artifact-dir "$WORK/sweep" >"$WORK/sweep.log" 2>&1 || cat "$WORK/sweep.log"
"$BIN/inferperf" profile "${COMMON[@]}" "${TELEMETRY[@]}" --concurrency 2 --num-profile-runs 2 \
  --artifact-dir "$WORK/rep" >"$WORK/rep.log" 2>&1
for c in 1 2 4; do
  "$BIN/inferperf" profile "${COMMON[@]}" --concurrency "$c" --artifact-dir "$WORK/workflow/c$c" \
    >"$WORK/c$c.log" 2>&1
done
rm -rf "$WORK/sweep/concurrency_2" && mv "$WORK/rep" "$WORK/sweep/concurrency_2"
find "$WORK/sweep" "$WORK/workflow" \( -name inputs.json -o -name inferperf_run.json \
  -o -name 'profile_export_aiperf.csv' -o -name 'server_metrics_export.json' \
  -o -name 'server_metrics_export.csv' -o -name 'profile_export_aiperf_aggregate.csv' \) -delete
find "$WORK/sweep" "$WORK/workflow" -type d -name logs -prune -exec rm -rf {} +
rm -rf "$WORK/sweep/logs"
rm -f "$WORK/sweep/concurrency_4/profile_export_aiperf_timeslices.json"
for j in $(find "$WORK/sweep" -name profile_export_aiperf_timeslices.json); do rm -f "${j%.json}.csv"; done
find "$WORK/workflow" \( -name inferperf_records.jsonl \) -delete
rm -rf sweep workflow
mv "$WORK/sweep" "$WORK/workflow" .
du -sh sweep workflow
