#!/usr/bin/env bash
# Accuracy benchmark: TTFT and ITL measured by inferperf against the mock server's own timing
# model (absolute per-event deadlines: start + TTFT + j x ITL) at 64 concurrent streams.
# Usage: bench/accuracy.sh [CONCURRENCY (64)] [REQUESTS (640)]
set -euo pipefail
cd "$(dirname "$0")/.."
C="${1:-64}"
N="${2:-640}"
TTFT=100
ITL=10
OSL=50
BIN=build/release/apps
[[ -x "$BIN/inferperf" ]] || bash scripts/build.sh release >/dev/null

OUT=$(mktemp -d)
echo "artifacts: $OUT"
"$BIN/mock-server/inferperf-mock-server" --port 0 --ttft "$TTFT" --itl "$ITL" >"$OUT/mock.log" 2>&1 &
MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null || true; wait $MOCK_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  ADDR=$(sed -n 's/^inferperf-mock-server listening on //p' "$OUT/mock.log"); [[ -n "$ADDR" ]] && break; sleep 0.1
done

"$BIN/inferperf" profile -m mock-model -u "http://$ADDR" --streaming --concurrency "$C" \
  --request-count "$N" --warmup-request-count "$C" --osl "$OSL" --extra-inputs ignore_eos:true \
  --isl 64 --random-seed 1 --artifact-dir "$OUT/artifacts" --ui-type none >"$OUT/client.log" 2>&1

python3 - "$OUT" "$TTFT" "$ITL" "$OSL" <<'PY'
import json, sys
out, ttft, itl, osl = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
j = json.load(open(f"{out}/artifacts/profile_export_aiperf.json"))
expect_itl = itl  # one token per event: ITL is the event spacing
def row(name, tag, truth, bound):
    m = j[tag]
    err = m["avg"] - truth
    verdict = "ok" if abs(err) <= bound else "OVER"
    print(f"{name:6} truth {truth:7.3f} ms  avg {m['avg']:8.3f}  p50 {m['p50']:8.3f}  "
          f"p99 {m['p99']:8.3f}  error of avg {err:+.3f} ms (bound {bound} ms: {verdict})")
print(f"requests: {j['request_count']['avg']}  errors: {j.get('error_request_count', {}).get('avg', 0)}")
row("TTFT", "time_to_first_token", ttft, 1.0)
row("ITL", "inter_token_latency", expect_itl, 0.2)
row("ICL", "inter_chunk_latency", expect_itl, 0.2)
PY
