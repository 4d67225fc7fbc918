#!/usr/bin/env bash
# Pacing benchmark: constant-rate, non-streaming requests against the mock server, the mock pinned
# to core 0 and the client to core 1. Reports the achieved rate, schedule lag percentiles and drops,
# and beside them the timer floor: bench/timer_floor.c run on the client's core at the same rate
# just before the client (the kernel timer's own lateness with the client's waiting recipe).
# Usage: bench/pacing.sh [RATE (5000)] [SECONDS (10)] [PATTERN (constant)]
# INFERPERF_HAND_AHEAD_US=0 makes the issuer hand each credit over when due (the old path).
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${1:-5000}"
SECS="${2:-10}"
PATTERN="${3:-constant}"
source bench/lib.sh
bench_require_build

OUT=$(mktemp -d)
echo "artifacts: $OUT"
bench_start_mock "$OUT/mock.log" 0 --fast --workers 1 --no-tokenizer
TIMER_FLOOR=${TIMER_FLOOR:-${BIN%/apps}/bench/inferperf_timer_floor}
[[ -x "$TIMER_FLOOR" ]] || cmake --build "${BIN%/apps}" --target inferperf_timer_floor >/dev/null
taskset -c 1 "$TIMER_FLOOR" "$RATE" "$SECS" >"$OUT/floor.log"

/usr/bin/time -v taskset -c 1 "$CLIENT" profile -m mock-model -u "http://$ADDR" \
  --request-rate "$RATE" --arrival-pattern "$PATTERN" --benchmark-duration "$SECS" \
  --benchmark-grace-period 5 --isl 16 --osl 4 --workers-max 1 --random-seed 1 \
  --artifact-dir "$OUT/artifacts" --ui-type none >"$OUT/client.log" 2>"$OUT/time.log" || true
SENT=$(curl -s "http://$ADDR/metrics" | sed -n 's/^inferperf_mock_requests_total //p')

python3 - "$OUT" "$RATE" "$SECS" "$SENT" <<'PY'
import json, sys, re
out, rate, secs, sent = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
j = json.load(open(f"{out}/artifacts/profile_export_aiperf.json"))
t = open(f"{out}/time.log").read()
def grab(label):
    m = re.search(re.escape(label) + r":\s*(.+)", t)
    return m.group(1).strip() if m else "?"
lag = j.get("schedule_lag", {})
ok = j.get("request_count", {}).get("avg", 0)
print(f"target rate:        {rate:.0f} req/s for {secs:.0f} s ({rate * secs:.0f} arrivals)")
print(f"sent (mock count):  {sent}  -> achieved {sent / secs:.1f} req/s ({100 * (sent / secs - rate) / rate:+.2f} %)")
print(f"valid / errors:     {ok:.0f} / {j.get('error_request_count', {}).get('avg', 0):.0f}")
print(f"dropped arrivals:   {j.get('dropped_arrival_count', 0)}")
skipped = re.search(r"(\d+) scheduled arrival\(s\) were skipped", open(f"{out}/artifacts/logs/inferperf.log").read())
print(f"skipped arrivals:   {skipped.group(1) if skipped else 0} (issuer stalled > 2 ms)")
print(f"schedule lag (ms):  p50 {lag.get('p50', float('nan')):.4f}  p90 {lag.get('p90', float('nan')):.4f}  "
      f"p99 {lag.get('p99', float('nan')):.4f}  max {lag.get('max', float('nan')):.3f}")
floor = open(f"{out}/floor.log").read().strip()
print(floor)
m = re.search(r"p99 ([0-9.]+)", floor)
if m and float(m.group(1)) > 0:
    print(f"lag p99 / timer floor p99: {1000 * lag.get('p99', float('nan')) / float(m.group(1)):.2f}")
print(f"request latency:    avg {j['request_latency']['avg']:.3f} ms  p99 {j['request_latency']['p99']:.3f} ms")
print(f"client user+sys s:  {grab('User time (seconds)')} + {grab('System time (seconds)')}")
# Where the lag comes from, per record: the credit's release (issued_ns: the issuer's hand-out, or the
# holding worker's timer for a credit handed out ahead) against its schedule, and the way from there
# to the request's start (the hand-off to the worker, or the worker's own launch).
late, handoff = [], []
for line in open(f"{out}/artifacts/inferperf_records.jsonl"):
    r = json.loads(line)
    if r.get("intended_ns") and r.get("issued_ns") and r.get("start_ns"):
        late.append(r["issued_ns"] - r["intended_ns"])
        handoff.append(r["start_ns"] - r["issued_ns"])
def pct(v, p):
    v = sorted(v)
    return v[int(p / 100 * (len(v) - 1))] / 1000 if v else float("nan")
for name, v in (("release lateness", late), ("release to start", handoff)):
    print(f"{name + ' (us):':20}p50 {pct(v, 50):.1f}  p99 {pct(v, 99):.1f}  max {pct(v, 100):.1f}")
PY
