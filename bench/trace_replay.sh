#!/usr/bin/env bash
# Trace benchmark (docs/benchmarks.md): writes the reference-shaped mooncake trace (3,541 agentic
# requests, 64K+ contexts, 94 % shared blocks; ROWS=N for another row count of the same shape),
# then
#   1. loads it, builds every request's prompt once and streams inputs.json (time, peak RSS);
#   2. replays it against the mock server: --fast, concurrency 64, --synthesis-max-osl 64 (peak RSS),
#      and prints the start-up: from the client's exec to its first request (the earliest start_ns
#      in the records file, a wall-clock stamp), split by the log's stamps (tokenizer loaded,
#      dataset ready, artifact folder, profiling started).
# Usage: bench/trace_replay.sh [TOKENIZER_JSON (.cache/tokenizers/qwen3/tokenizer.json)]
#        ROWS=N rows in the trace (3541); STARTUP_ONLY=1 skips step 1 and stops the replay after
#        DURATION seconds (5): the start-up alone, bounded in time; BENCH_OUT=DIR keeps the files.
#        BIN=build/x/apps another build; INFERPERF=path another client binary (bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
TOK="${1:-.cache/tokenizers/qwen3/tokenizer.json}"
ROWS=${ROWS:-3541}
DURATION=${DURATION:-5}
source bench/lib.sh
BUILD=${BIN%/apps}
bench_require_build
TARGETS=(inferperf_trace_gen)
[[ -z "${STARTUP_ONLY:-}" ]] && TARGETS+=(inferperf_dataset_bench)
for t in "${TARGETS[@]}"; do
  [[ -x "$BUILD/bench/$t" ]] || cmake --build "$BUILD" -j2 --target "$t" >/dev/null
done

OUT=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$OUT"
echo "artifacts: $OUT"
TRACE=$OUT/trace-$ROWS.jsonl
[[ -s "$TRACE" ]] || "$BUILD/bench/inferperf_trace_gen" "$TRACE" --requests "$ROWS" 2>"$OUT/trace_gen.log"
"$CLIENT" analyze-trace "$TRACE" | sed -n '1,20p'

if [[ -z "${STARTUP_ONLY:-}" ]]; then
  echo "== 1. load + build every prompt + stream inputs.json"
  "$BUILD/bench/inferperf_dataset_bench" "$TRACE" "$OUT/load" "$TOK"
fi

echo "== 2. replay against the mock server (concurrency 64, --synthesis-max-osl 64)"
LIMIT=(--num-requests "$ROWS")
[[ -n "${STARTUP_ONLY:-}" ]] && LIMIT=(--benchmark-duration "$DURATION" --benchmark-grace-period 0)
bench_start_mock "$OUT/mock.log" "" --fast --no-tokenizer --workers 1
REPLAY=$OUT/replay-$ROWS
rm -rf "$REPLAY"
T0=$(date +%s%N)
/usr/bin/time -v "$CLIENT" profile --ui-type none -m mock-model --tokenizer "$TOK" -v \
  -u "http://$ADDR" --endpoint-type chat --streaming --concurrency 64 \
  --input-file "$TRACE" --custom-dataset-type mooncake_trace --no-fixed-schedule \
  --dataset-sampling-strategy sequential --extra-inputs ignore_eos:true \
  "${LIMIT[@]}" --synthesis-max-osl 64 --no-server-metrics \
  --artifact-dir "$REPLAY" >"$OUT/client.log" 2>"$OUT/time.log" || true
bench_stop_mock
grep -E "Input Sequence Length|Request Count|Request Throughput" "$OUT/client.log" | cut -c1-120
grep -E "Elapsed \(wall|Maximum resident" "$OUT/time.log"
grep -o '"isl": {[^}]*}' "$REPLAY/profile_export_aiperf.json" || true

# The start-up, one line "startup rows=N first_request_s=S ..." (bench/scaling.sh reads it).
python3 - "$T0" "$ROWS" "$REPLAY" "$OUT/client.log" "$OUT/time.log" <<'PY'
import datetime, json, re, sys
t0, rows, replay, client_log, time_log = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
first = None
try:
    for line in open(f"{replay}/inferperf_records.jsonl"):
        s = json.loads(line).get("start_ns")
        if s and (first is None or s < first):
            first = s
except OSError:
    pass
# The log stamps (local time, ms) of the steps before the first request.
marks = {"tokenizer": r"INFO - tokenizer: ", "dataset": r"INFO - dataset: ",
         "folder": r"INFO - inferperf profile ", "inputs": r"INFO - inputs\.json: ",
         "profiling": r"INFO - profiling: "}
at = {}
for line in open(time_log, errors="replace"):  # -v: the log lines go to stderr
    m = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) - inferperf - ", line)
    if not m:
        continue
    for k, pat in marks.items():
        if k not in at and re.search(pat, line):
            at[k] = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp()
parts = " ".join(f"{k}_s={at[k] - t0 / 1e9:.3f}" for k in marks if k in at)
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(time_log).read())
print(f"startup rows={rows} first_request_s={'nan' if first is None else f'{(first - t0) / 1e9:.3f}'} "
      f"{parts} peak_rss_mb={int(rss.group(1)) / 1024 if rss else float('nan'):.0f}")
PY
