#!/usr/bin/env bash
# End-to-end client benchmarks against the mock server (the Performance issue's list):
#   cpu      client CPU per event and per request at 1,000 concurrent streams (mock --itl 20)
#   events   maximum events/s one client worker thread sustains (--workers-max 1)
#   streams  concurrent streams held for 60 s at --itl 500: errors and RSS per stream
#   lag      schedule lag p50/p99 at 1k, 5k and 20k requests/s (constant arrivals, non-streaming)
# Usage: bench/client_perf.sh [cpu|events|streams|lag|all ...]   (default: all)
#        STREAMS="1000 10000 19500" overrides the stream counts; BENCH_OUT=DIR keeps the files.
# The mock runs on core 1 and the client on core 0 (two cores or more), so neither steals the
# other's CPU; the mock's own CPU share is printed beside every result so a saturated mock is
# never read as a slow client. Client numbers come from the run's own `client_health` block
# (process CPU over the profiling window, events and requests received).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build

OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-perf.XXXXXX)}
mkdir -p "$OUT"
RESULTS=$OUT/results.jsonl
CORE_CLIENT=""
CORE_MOCK=""
if (($(nproc) >= 2)); then
  CORE_CLIENT=0
  CORE_MOCK=1
fi
echo "client_perf: files in $OUT (client on core ${CORE_CLIENT:-any}, mock on core ${CORE_MOCK:-any})"

# run_case NAME CLIENT ARGS...: one client run in the background against $ADDR, sampling its RSS
# every 0.5 s; then one JSON line of results (client_health + metrics + RSS + the mock's CPU).
run_case() {
  local name=$1
  shift
  local dir=$OUT/$name
  mkdir -p "$dir"
  local mock_cpu0 t0
  mock_cpu0=$(bench_cpu_s "$MOCK_PID")
  t0=$(date +%s.%N)
  local pin=()
  [[ -n "$CORE_CLIENT" ]] && pin=(taskset -c "$CORE_CLIENT")
  "${pin[@]}" "$CLIENT" profile -m mock-model -u "http://$ADDR" --no-server-metrics \
    --artifact-dir "$dir/artifacts" --ui-type none "$@" >"$dir/client.log" 2>&1 &
  local pid=$!
  BENCH_PIDS+=("$pid")
  : >"$dir/rss.txt"
  while kill -0 "$pid" 2>/dev/null; do
    echo "$(date +%s.%N) $(bench_rss_kb "$pid")" >>"$dir/rss.txt"
    sleep 0.5
  done
  local rc=0
  wait "$pid" || rc=$?
  local mock_cpu1 t1
  mock_cpu1=$(bench_cpu_s "$MOCK_PID")
  t1=$(date +%s.%N)
  python3 - "$dir" "$name" "$rc" "$mock_cpu0" "$mock_cpu1" "$t0" "$t1" >>"$RESULTS" <<'PY'
import json, sys
d, name, rc, c0, c1, t0, t1 = sys.argv[1], sys.argv[2], int(sys.argv[3]), *map(float, sys.argv[4:])
try:
    j = json.load(open(f"{d}/artifacts/profile_export_aiperf.json"))
except OSError:
    print(json.dumps({"case": name, "exit_code": rc, "error": "no summary"}))
    sys.exit(0)
h = j.get("client_health", {})
def m(tag, stat="avg"):
    return j.get(tag, {}).get(stat)
rss = [(float(a), int(b)) for a, b in (l.split() for l in open(f"{d}/rss.txt") if len(l.split()) == 2 and l.split()[1] != "0")]
out = {
    "case": name, "exit_code": rc,
    "requests_ok": m("request_count"), "errors": m("error_request_count") or 0,
    "window_s": h.get("window_s"), "events": h.get("events"),
    "events_per_s": h["events"] / h["window_s"] if h.get("window_s") else None,
    "cpu_us_per_event": h.get("cpu_us_per_event"), "cpu_us_per_request": h.get("cpu_us_per_request"),
    "worker_cpu_percent_max": h.get("worker_cpu_percent_max"), "loop_lag_p99_ms": h.get("loop_lag_p99_ms_max"),
    "schedule_lag_p50_ms": h.get("schedule_lag_p50_ms"), "schedule_lag_p99_ms": h.get("schedule_lag_p99_ms"),
    "saturated": h.get("saturated"), "causes": h.get("causes"),
    "request_throughput": m("request_throughput"), "dropped_arrivals": j.get("dropped_arrival_count"),
    "ttft_p99_ms": m("time_to_first_token", "p99"), "itl_avg_ms": m("inter_token_latency"),
    "rss_samples": rss, "mock_cpu_percent": 100.0 * (c1 - c0) / (t1 - t0) if t1 > t0 else None,
}
print(json.dumps(out))
PY
  tail -1 "$RESULTS" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read()); r.pop("rss_samples", None)
print("  " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items() if v is not None))'
}

case_cpu() {
  echo "== cpu: 1,000 streams, mock TTFT = ITL = 20 ms, 100 tokens per request"
  bench_start_mock "$OUT/mock-cpu.log" "$CORE_MOCK" --ttft 20 --itl 20 --workers 1
  run_case cpu-1000 --streaming --concurrency 1000 --request-count 5000 \
    --warmup-request-count 1000 --isl 32 --osl 100 --extra-inputs ignore_eos:true
  bench_stop_mock
}

case_events() {
  echo "== events: one client worker thread"
  bench_start_mock "$OUT/mock-events-fast.log" "$CORE_MOCK" --fast --workers 1
  run_case events-fast --workers-max 1 --streaming --concurrency 64 --request-count 640 \
    --isl 32 --osl 1000 --extra-inputs ignore_eos:true
  bench_stop_mock
  bench_start_mock "$OUT/mock-events-itl1.log" "$CORE_MOCK" --ttft 1 --itl 1 --workers 1
  run_case events-itl1-c500 --workers-max 1 --streaming --concurrency 500 --request-count 1500 \
    --isl 32 --osl 500 --extra-inputs ignore_eos:true
  bench_stop_mock
}

case_streams() {
  echo "== streams: held for about 60 s at ITL 500 ms (120 tokens per request)"
  bench_start_mock "$OUT/mock-streams.log" "$CORE_MOCK" --ttft 500 --itl 500 --workers 1
  # The idle baseline: one stream, same flags.
  run_case streams-1 --streaming --concurrency 1 --request-count 1 --isl 32 --osl 20 \
    --extra-inputs ignore_eos:true
  for n in ${STREAMS:-1000 10000 19500}; do
    run_case "streams-$n" --streaming --concurrency "$n" --request-count "$n" --isl 32 --osl 120 \
      --extra-inputs ignore_eos:true --request-timeout-seconds 300
  done
  bench_stop_mock
}

case_lag() {
  echo "== lag: constant arrivals for 10 s, non-streaming, mock --fast"
  bench_start_mock "$OUT/mock-lag.log" "$CORE_MOCK" --fast --workers 1
  for rate in 1000 5000 20000; do
    run_case "lag-$rate" --request-rate "$rate" --arrival-pattern constant --concurrency 2000 \
      --request-count $((rate * 10)) --isl 32 --osl 8
  done
  bench_stop_mock
}

cases=("$@")
((${#cases[@]})) || cases=(all)
for c in "${cases[@]}"; do
  case $c in
    cpu) case_cpu ;;
    events) case_events ;;
    streams) case_streams ;;
    lag) case_lag ;;
    all) case_cpu; case_events; case_streams; case_lag ;;
    *) echo "unknown case $c (cpu|events|streams|lag|all)" >&2; exit 2 ;;
  esac
done

# RSS per stream = (steady RSS at N streams − idle RSS) ÷ N, steady = median of the samples taken
# 20–50 s into the run, idle = the one-stream run's median.
python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def steady(r, lo, hi):
    s = r.get("rss_samples") or []
    if not s: return None
    t0 = s[0][0]
    mid = [kb for t, kb in s if lo <= t - t0 <= hi] or [kb for _, kb in s]
    return statistics.median(mid)
idle = next((r for r in rows if r["case"] == "streams-1"), None)
if idle:
    base = steady(idle, 1, 8)
    print(f"\nidle RSS (one stream): {base / 1024:.1f} MB")
    for r in rows:
        if r["case"].startswith("streams-") and r["case"] != "streams-1":
            n = int(r["case"].split("-")[1]); st = steady(r, 20, 50)
            print(f"{n:>6} streams: errors {r['errors']}, ok {r['requests_ok']}, steady RSS {st / 1024:.1f} MB, "
                  f"{(st - base) * 1024 / n / 1000:.1f} KB per stream")
PY
echo "results: $RESULTS"
