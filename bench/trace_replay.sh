#!/usr/bin/env bash
# Trace benchmark (docs/benchmarks.md): writes the reference-shaped mooncake trace (3,541 agentic
# requests, 64K+ contexts, 94 % shared blocks), then
#   1. loads it, builds every request's prompt once and streams inputs.json (time, peak RSS);
#   2. replays it against the mock server: --fast, concurrency 64, --synthesis-max-osl 64 (peak RSS).
# Usage: bench/trace_replay.sh [TOKENIZER_JSON (.cache/tokenizers/qwen3/tokenizer.json)]
set -euo pipefail
cd "$(dirname "$0")/.."
TOK="${1:-.cache/tokenizers/qwen3/tokenizer.json}"
BUILD=build/release
source bench/lib.sh
[[ -x "$BUILD/bench/inferperf_dataset_bench" ]] || cmake --build "$BUILD" >/dev/null

OUT=$(mktemp -d)
echo "artifacts: $OUT"
"$BUILD/bench/inferperf_trace_gen" "$OUT/trace.jsonl" 2>"$OUT/trace_gen.log"
"$CLIENT" analyze-trace "$OUT/trace.jsonl" | sed -n '1,20p'

echo "== 1. load + build every prompt + stream inputs.json"
"$BUILD/bench/inferperf_dataset_bench" "$OUT/trace.jsonl" "$OUT/load" "$TOK"

echo "== 2. replay against the mock server (concurrency 64, --synthesis-max-osl 64)"
bench_start_mock "$OUT/mock.log" "" --fast --no-tokenizer --workers 1
/usr/bin/time -v "$CLIENT" profile --ui-type none -m mock-model --tokenizer "$TOK" \
  -u "http://$ADDR" --endpoint-type chat --streaming --concurrency 64 \
  --input-file "$OUT/trace.jsonl" --custom-dataset-type mooncake_trace --no-fixed-schedule \
  --dataset-sampling-strategy sequential --extra-inputs ignore_eos:true \
  --num-requests "$(grep -c '' "$OUT/trace.jsonl")" --synthesis-max-osl 64 \
  --artifact-dir "$OUT/replay" >"$OUT/client.log" 2>"$OUT/time.log"
grep -E "Input Sequence Length|Request Count|Request Throughput" "$OUT/client.log" | cut -c1-120
grep -E "Elapsed \(wall|Maximum resident" "$OUT/time.log"
grep -o '"isl": {[^}]*}' "$OUT/replay/profile_export_aiperf.json" || true
