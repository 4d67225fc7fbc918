#!/usr/bin/env bash
# Request rate of inferperf against wrk on the same mock server, non-streaming chat completions,
# the same connection count and about the same duration. wrk does nothing but send a fixed request
# and parse the response, so its rate is what the mock alone can serve: comparing against it keeps
# a slow mock from being mistaken for a slow client. The mock's CPU is reported for both parts.
# The mock is pinned to core 1 and the client (inferperf or wrk) to core 0 with taskset, so they
# never compete for a core.
# Usage: bench/wrk_compare.sh [CONCURRENCY (64)] [REQUESTS (200000: about 12 s)]
set -euo pipefail
cd "$(dirname "$0")/.."
C="${1:-64}"
N="${2:-200000}"
source bench/lib.sh
bench_require_build
command -v wrk >/dev/null || { echo "wrk not installed (scripts/install-deps.sh)" >&2; exit 2; }
TCK=$(getconf CLK_TCK)

OUT=$(mktemp -d)
echo "artifacts: $OUT"
bench_start_mock "$OUT/mock.log" 1 --fast --workers 1 --no-tokenizer
echo "mock: --fast --workers 1 on core 1 ($ADDR); clients on core 0"

# utime + stime of a process, in clock ticks.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
now() { date +%s.%N; }

# Runs a command in the background and samples its CPU ticks and the mock's every 50 ms until it
# exits, into the file $SAMPLES ("seconds client_ticks mock_ticks" per line). The mock is idle
# outside the load, so the samples where its ticks move delimit the load window, and each side's
# CPU over that window leaves out the client's start-up (dataset) and analysis (exports).
run_sampled() {
  local pid t
  : >"$SAMPLES"
  "$@" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    t=$(ticks "$pid")
    [[ "$t" != 0 ]] && echo "$(now) $t $(ticks "$MOCK_PID")" >>"$SAMPLES"
    sleep 0.05
  done
  wait "$pid" || true
}

SAMPLES="$OUT/inferperf.samples"
bench_closed_loop_args "$C" "$N" "$OUT/artifacts"
run_sampled taskset -c 0 "$CLIENT" "${CLOSED_LOOP_ARGS[@]}" >"$OUT/client.log" 2>&1

# The same body for wrk: the first payload inferperf sent.
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
j = json.load(open(f"{out}/artifacts/inputs.json"))
open(f"{out}/body.json", "w").write(json.dumps(j["data"][0]["payloads"][0], separators=(",", ":")))
PY
DUR=$(python3 -c "import json,math,sys; print(max(1, math.ceil(json.load(open(sys.argv[1]))['benchmark_duration']['avg'])))" \
  "$OUT/artifacts/profile_export_aiperf.json")

export WRK_BODY_FILE="$OUT/body.json"
SAMPLES="$OUT/wrk.samples"
run_sampled taskset -c 0 wrk -t1 -c"$C" -d"${DUR}s" --latency \
  -s bench/wrk_post.lua "http://$ADDR/v1/chat/completions" >"$OUT/wrk.log" 2>&1

python3 - "$OUT" "$TCK" "$C" "$DUR" <<'PY'
import json, re, sys
out, tck, c, dur = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])

def window(name):
    """CPU seconds of the client and the mock, and the wall seconds, over the load window."""
    rows = [tuple(map(float, l.split())) for l in open(f"{out}/{name}.samples") if l.strip()]
    busy = [i for i in range(1, len(rows)) if rows[i][2] > rows[i - 1][2]]
    if not busy:
        return 0.0, 0.0, 0.0, rows[-1][1] / tck if rows else 0.0
    a, b = busy[0] - 1, busy[-1]
    wall = rows[b][0] - rows[a][0]
    return ((rows[b][1] - rows[a][1]) / tck, (rows[b][2] - rows[a][2]) / tck, wall,
            rows[-1][1] / tck)

j = json.load(open(f"{out}/artifacts/profile_export_aiperf.json"))
rate = j["request_throughput"]["avg"]
count = j["request_count"]["avg"]
bench_s = j["benchmark_duration"]["avg"]
errors = j.get("error_request_count", {}).get("avg", 0)
w = open(f"{out}/wrk.log").read()
m = re.search(r"Requests/sec:\s*([\d.]+)", w)
wrk_rate = float(m.group(1)) if m else float("nan")
m = re.search(r"(\d+) requests in ([\d.]+)(\w+)", w)
wrk_count = int(m.group(1)) if m else 0
non2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", w)
ic, im, iw, itotal = window("inferperf")
wc, wm, ww, _ = window("wrk")
print(f"inferperf: {count:.0f} requests ({errors:.0f} errors) in {bench_s:.2f} s = {rate:,.0f} req/s, "
      f"concurrency {c}, one worker")
print(f"  load window {iw:.1f} s: inferperf CPU {ic:.2f} s = {100 * ic / iw:.0f} % of core 0, "
      f"{ic / count * 1e6:.0f} us per request; mock CPU {im:.2f} s = {100 * im / iw:.0f} % of core 1")
print(f"  inferperf CPU over the whole run (dataset, exports included): {itotal:.2f} s")
print(f"wrk:       {wrk_count} requests in {dur:.0f} s = {wrk_rate:,.0f} req/s, {c} connections, -t1"
      + (f", NON-2xx {non2xx.group(1)}" if non2xx else ""))
print(f"  load window {ww:.1f} s: wrk CPU {wc:.2f} s = {100 * wc / ww:.0f} % of core 0, "
      f"{wc / max(wrk_count, 1) * 1e6:.0f} us per request; mock CPU (the mock alone) {wm:.2f} s = "
      f"{100 * wm / ww:.0f} % of core 1")
ratio = rate / wrk_rate
print(f"ratio inferperf / wrk: {100 * ratio:.1f} % (target >= 50 %: {'met' if ratio >= 0.5 else 'MISSED'})")
PY
