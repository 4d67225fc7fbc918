#!/usr/bin/env bash
# Soak: a long open-loop run against the mock with injected faults, watching the client's memory
# and file descriptors, then checking that every request is accounted for on both sides.
# Usage: bench/soak.sh [RATE req/s (2000)] [SECONDS (1800)] [FAULT_PERCENT (1)]
# Prints a table of samples and a verdict; exits 1 when the accounting does not balance or the
# descriptors grow. Not part of CI (it runs for half an hour).
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${1:-2000}"
SECONDS_RUN="${2:-1800}"
FAULTS="${3:-1}"
source bench/lib.sh
bench_require_build

OUT=$(mktemp -d /tmp/inferperf-soak.XXXXXX)
echo "soak: $RATE req/s for $SECONDS_RUN s, $FAULTS % faults; files in $OUT"
bench_start_mock "$OUT/mock.log" "" --ttft 2 --itl 1 --workers 1 \
  --fault-rate "$FAULTS" --random-seed 1

/usr/bin/time -v "$CLIENT" profile -m mock-model -u "http://$ADDR" --streaming \
  --request-rate "$RATE" --arrival-pattern constant --concurrency 512 \
  --benchmark-duration "$SECONDS_RUN" --benchmark-grace-period 15 --request-timeout-seconds 10 \
  --isl 32 --osl 8 --extra-inputs ignore_eos:true --random-seed 7 --no-server-metrics \
  --artifact-dir "$OUT/artifacts" --ui-type none >"$OUT/client.log" 2>"$OUT/time.log" &
CLIENT_PID=$!
BENCH_PIDS+=("$CLIENT_PID")

# One sample every 10 s: elapsed, RSS (kB), open descriptors, records on disk.
echo "t_s rss_kb fds records" >"$OUT/samples.txt"
START=$(date +%s)
while kill -0 "$CLIENT_PID" 2>/dev/null; do
  # `time` forks the client: its child is the inferperf process.
  PID=$(pgrep -P "$CLIENT_PID" -x inferperf || true)
  if [[ -n "$PID" && -r /proc/$PID/status ]]; then
    RSS=$(awk '/^VmRSS:/ {print $2}' /proc/"$PID"/status 2>/dev/null || echo 0)
    FDS=$(ls /proc/"$PID"/fd 2>/dev/null | wc -l)
    RECS=$({ wc -l <"$OUT/artifacts/inferperf_records.jsonl"; } 2>/dev/null || echo 0)
    echo "$(($(date +%s) - START)) $RSS $FDS $RECS" >>"$OUT/samples.txt"
  fi
  sleep 10
done
set +e
wait "$CLIENT_PID"
CODE=$?
set -e

METRICS=$(curl -s "http://$ADDR/metrics")
SERVED=$(sed -n 's/^inferperf_mock_requests_total //p' <<<"$METRICS")
INJECTED=$(sed -n 's/^inferperf_mock_errors_injected_total //p' <<<"$METRICS")

python3 - "$OUT" "$CODE" "$SERVED" "$INJECTED" "$SECONDS_RUN" <<'PY'
import json, re, sys
out, code, served, injected, duration = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
CEILING = 512  # --concurrency below
j = json.load(open(f"{out}/artifacts/profile_export_aiperf.json"))
ok = int(j.get("request_count", {}).get("avg", 0))
bad = int(j.get("error_request_count", {}).get("avg", 0))
lines = sum(1 for _ in open(f"{out}/artifacts/inferperf_records.jsonl"))
rows = [list(map(int, l.split())) for l in open(f"{out}/samples.txt").read().split("\n")[1:] if l.strip()]
t = open(f"{out}/time.log").read()
def grab(label):
    m = re.search(re.escape(label) + r":\s*(.+)", t)
    return m.group(1).strip() if m else "?"
print(f"exit code:            {code}")
print(f"requests ok / failed: {ok} / {bad} (records file: {lines} lines)")
print(f"mock served / faults: {served} / {injected}")
print(f"achieved rate:        {(ok + bad) / j['benchmark_duration']['avg']:.0f} req/s over {j['benchmark_duration']['avg']:.0f} s "
      f"({j.get('dropped_arrival_count', 0)} arrivals dropped at the concurrency ceiling)")
print(f"client user+sys:      {grab('User time (seconds)')} + {grab('System time (seconds)')} s")
print(f"client max RSS:       {grab('Maximum resident set size (kbytes)')} kB")
verdict = True
if rows:
    # Growth per finished request while issuing, after a warm-up (start-up allocations and the
    # final analysis excluded): what the retained records cost.
    warm = max(30.0, duration * 0.05)
    during = [r for r in rows if warm <= r[0] <= duration - 5]
    if len(during) >= 2:
        base, last = during[0], during[-1]
        per_req = (last[1] - base[1]) * 1024 / max(1, last[3] - base[3])
        print(f"RSS {base[1]} kB at {base[0]} s ({base[3]} records) -> {last[1]} kB at {last[0]} s "
              f"({last[3]} records): {per_req:.0f} bytes per finished request")
        if per_req > 2048:
            print("FAIL: more than 2 KB retained per request"); verdict = False
    peak = max(r[1] for r in rows)
    print(f"peak RSS sampled {peak} kB = {peak * 1024 / max(1, ok + bad):.0f} bytes per request in all")
    # One connection per request in flight: descriptors follow the load but stay under the
    # concurrency ceiling; a leak (one per fault) would pass it within minutes.
    fds = [r[2] for r in rows if r[0] >= warm] or [r[2] for r in rows]
    print(f"open descriptors after the warm-up: min {min(fds)}, max {max(fds)} (ceiling {CEILING} + 64)")
    if max(fds) > CEILING + 64:
        print("FAIL: more descriptors than requests in flight"); verdict = False
if ok + bad != lines:
    print("FAIL: summary and records file disagree"); verdict = False
if served != ok + bad:
    print("FAIL: the mock served a different number of requests than the client recorded"); verdict = False
if injected != bad:
    print("FAIL: injected faults and failed requests differ"); verdict = False
print("PASS" if verdict else "FAIL")
sys.exit(0 if verdict else 1)
PY
