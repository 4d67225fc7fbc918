#!/usr/bin/env bash
# The scaling tables of docs/benchmarks.md (issue 29, item 7), printed as markdown rows ready to
# paste. Each part reuses the benchmark that measures it:
#   cpu      client CPU per streamed event at 64, 1,000 and 10,000 streams, the floor client beside
#            each (bench/floor_ratio.sh loads itl2, c1000, c10000; the descriptor limit is raised
#            to the hard limit for the 10,000 connections of both clients and the mock)
#   rss      peak RSS after 100k, 1M and 5M non-streaming requests against the mock --fast
#            (closed loop, 64 connections), a least-squares line through them and its value at 10M;
#            a size whose projection passes half the available memory is skipped, not run
#   startup  exec -> first request for seed-shaped traces of 1k, 10k and 100k rows
#            (bench/trace_replay.sh with STARTUP_ONLY=1: the replay stops after 5 s)
#   lag      schedule lag p50/p99 at 1k, 5k and 20k req/s (bench/pacing.sh), with the timer floor
#            beside each when pacing.sh prints one ("timer floor (us): p50 X p99 Y")
# Usage: bench/scaling.sh [cpu|rss|startup|lag|all ...]   (default: all)
#   Sizes: STREAMS_LOADS="itl2 c1000 c10000", RSS_SIZES="100000 1000000 5000000",
#   STARTUP_ROWS="1000 10000 100000", LAG_RATES="1000 5000 20000", LAG_SECONDS=10, ROUNDS=3.
#   PART_TIMEOUT=S bounds every measurement (default 1200 s); BENCH_OUT=DIR keeps the files
#   (default a fresh /tmp folder); BIN=build/x/apps another build (bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
export BIN
OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-scaling.XXXXXX)}
mkdir -p "$OUT"
TABLES=$OUT/tables.md
PART_TIMEOUT=${PART_TIMEOUT:-1200}
echo "scaling: files in $OUT; tables in $TABLES"
# 10,000 connections on each side, the mock's included (it inherits this limit).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# table TITLE HEADER: starts a table in the output and in $TABLES.
table() {
  printf '\n%s\n\n%s\n%s\n' "$1" "$2" "$(sed 's/[^|]/-/g; s/-\+/---/g' <<<"$2")" | tee -a "$TABLES"
}
row() { echo "$1" | tee -a "$TABLES"; }

part_cpu() {
  local loads=${STREAMS_LOADS:-itl2 c1000 c10000} dir=$OUT/cpu
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  BENCH_OUT=$dir ROUNDS=${ROUNDS:-3} timeout "$PART_TIMEOUT" bash bench/floor_ratio.sh $loads |
    tee "$dir/floor_ratio.txt" || echo "floor_ratio.sh stopped early (exit $?)" >&2
  table "CPU per streamed event (median of ${ROUNDS:-3} alternated rounds, user + sys, one client core)" \
    "| streams | mock | inferperf µs/event | floor µs/event | ratio | inferperf saturated |"
  python3 - "$dir/results.jsonl" <<'PY' | tee -a "$TABLES"
import json, statistics, sys
try:
    rows = [json.loads(l) for l in open(sys.argv[1])]
except OSError:
    rows = []
shape = {"itl2": (64, "ITL 2 ms, 100 tokens"), "fast": (64, "--fast, 1,000 tokens"),
         "c1000": (1000, "ITL 20 ms, 100 tokens"), "c10000": (10000, "ITL 200 ms, 50 tokens")}
for load in dict.fromkeys(r["load"] for r in rows):
    med = {}
    for client in ("inferperf", "floor"):
        v = [r["cpu_us_per_event"] for r in rows
             if r["load"] == load and r["client"] == client and r.get("cpu_us_per_event")]
        med[client] = statistics.median(v) if v else None
    sat = any(r.get("saturated") for r in rows if r["load"] == load and r["client"] == "inferperf")
    streams, mock = shape.get(load, ("?", load))
    f = lambda x: f"{x:.2f}" if x is not None else "n/a"
    ratio = f"{med['inferperf'] / med['floor']:.2f}" if med["inferperf"] and med["floor"] else "n/a"
    print(f"| {streams:,} | {mock} | {f(med['inferperf'])} | {f(med['floor'])} | {ratio} | "
          f"{'yes' if sat else 'no'} |")
PY
}

# rss_run N: one closed-loop non-streaming run of N requests; prints "N peak_kb seconds rate".
rss_run() {
  local n=$1 dir=$OUT/rss/$1 pin=()
  mkdir -p "$dir"
  (($(nproc) >= 2)) && pin=(taskset -c 0)
  timeout "$PART_TIMEOUT" /usr/bin/time -v "${pin[@]}" "$CLIENT" profile -m mock-model \
    -u "http://$ADDR" --endpoint-type chat --concurrency 64 --request-count "$n" \
    --num-dataset-entries 100 --isl 64 --osl 16 --extra-inputs ignore_eos:true --random-seed 1 \
    --no-server-metrics --artifact-dir "$dir/artifacts" --ui-type none \
    >"$dir/client.log" 2>"$dir/time.log" || echo "  run of $n stopped (exit $?)" >&2
  python3 - "$n" "$dir" <<'PY'
import json, re, sys
n, d = sys.argv[1], sys.argv[2]
t = open(f"{d}/time.log").read()
peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
try:
    j = json.load(open(f"{d}/artifacts/profile_export_aiperf.json"))
    rate, secs = j["request_throughput"]["avg"], j["benchmark_duration"]["avg"]
except (OSError, KeyError, ValueError):
    rate, secs = float("nan"), float("nan")
print(n, peak.group(1) if peak else "nan", f"{secs:.1f}", f"{rate:.0f}")
PY
}

part_rss() {
  local sizes=${RSS_SIZES:-100000 1000000 5000000} points=$OUT/rss/points.txt
  mkdir -p "$OUT/rss"
  : >"$points"
  bench_start_mock "$OUT/rss/mock.log" "$( (($(nproc) >= 2)) && echo 1)" --fast --workers 1 --no-tokenizer
  for n in $sizes; do
    # Skip a size the fit so far says would take more than half the available memory.
    local verdict
    verdict=$(python3 - "$points" "$n" <<'PY'
import sys
pts = [tuple(map(float, l.split()[:2])) for l in open(sys.argv[1]) if l.split()[1] != "nan"]
n = float(sys.argv[2])
avail = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemAvailable:"))
if len(pts) >= 2:
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    proj = y1 + (y1 - y0) / (x1 - x0) * (n - x1)
elif pts:
    proj = pts[0][1] * n / pts[0][0]
else:
    proj = 0
print("skip %.1f GB" % (proj / 1e6) if proj > avail / 2 else "run")
PY
)
    if [[ $verdict == skip* ]]; then
      echo "  $n requests skipped: projected ${verdict#skip } > half the available memory" >&2
      echo "$n nan nan nan" >>"$points"
      continue
    fi
    echo "== rss: $n requests"
    rss_run "$n" | tee -a "$points"
  done
  bench_stop_mock
  table "Peak RSS, non-streaming closed loop (64 connections, mock --fast)" \
    "| requests | peak RSS | bytes per request | run | rate |"
  python3 - "$points" <<'PY' | tee -a "$TABLES"
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
pts = []
for n, kb, secs, rate in rows:
    if kb == "nan":
        print(f"| {int(n):,} | skipped (projected past half the available memory) | | | |")
        continue
    n, kb = int(n), int(kb)
    pts.append((n, kb * 1024))
    print(f"| {n:,} | {kb / 1024:,.0f} MB | {kb * 1024 / n:,.0f} | {secs} s | {float(rate):,.0f} req/s |")
if len(pts) >= 2:
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    b = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    a = my - b * mx
    print(f"| 10,000,000 (projected) | {(a + b * 1e7) / 1e6:,.0f} MB | {b:,.0f} (slope) | "
          f"least squares: {a / 1e6:,.0f} MB + {b:,.0f} B × requests | |")
PY
}

part_startup() {
  local rows_list=${STARTUP_ROWS:-1000 10000 100000} dir=$OUT/startup
  mkdir -p "$dir"
  : >"$dir/lines.txt"
  for rows in $rows_list; do
    echo "== startup: $rows rows"
    ROWS=$rows STARTUP_ONLY=1 BENCH_OUT=$dir timeout "$PART_TIMEOUT" bash bench/trace_replay.sh \
      >"$dir/replay-$rows.txt" 2>&1 || echo "  trace_replay.sh $rows rows stopped (exit $?)" >&2
    grep '^startup ' "$dir/replay-$rows.txt" | tee -a "$dir/lines.txt" ||
      echo "startup rows=$rows first_request_s=nan" >>"$dir/lines.txt"
  done
  table "Start-up: exec -> first request, seed-shaped traces (mooncake, 68K mean ISL, concurrency 64)" \
    "| rows | first request | tokenizer loaded | dataset ready | profiling started | peak RSS |"
  python3 - "$dir/lines.txt" <<'PY' | tee -a "$TABLES"
import sys
for line in open(sys.argv[1]):
    kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
    s = lambda k: f"{float(kv[k]):.2f} s" if k in kv and kv[k] != "nan" else "n/a"
    rss = f"{float(kv['peak_rss_mb']):,.0f} MB" if kv.get("peak_rss_mb", "nan") != "nan" else "n/a"
    print(f"| {int(kv['rows']):,} | {s('first_request_s')} | {s('tokenizer_s')} | {s('dataset_s')} | "
          f"{s('profiling_s')} | {rss} |")
PY
}

part_lag() {
  local rates=${LAG_RATES:-1000 5000 20000} secs=${LAG_SECONDS:-10} dir=$OUT/lag
  mkdir -p "$dir"
  for rate in $rates; do
    echo "== lag: $rate req/s for $secs s"
    timeout "$PART_TIMEOUT" bash bench/pacing.sh "$rate" "$secs" constant >"$dir/pacing-$rate.txt" 2>&1 ||
      echo "  pacing.sh $rate stopped (exit $?)" >&2
    cat "$dir/pacing-$rate.txt"
  done
  table "Schedule lag, constant arrivals, non-streaming (bench/pacing.sh: mock on core 0, client on core 1)" \
    "| rate | achieved | lag p50 | lag p99 | timer floor p50 | timer floor p99 | p99 ÷ floor p99 |"
  # shellcheck disable=SC2086  # one argument per rate
  python3 - "$dir" $rates <<'PY' | tee -a "$TABLES"
import re, sys
d, rates = sys.argv[1], sys.argv[2:]
for rate in rates:
    t = open(f"{d}/pacing-{rate}.txt", errors="replace").read()
    lag = re.search(r"schedule lag \(ms\):\s*p50 ([\d.naN]+)\s+p90 [\d.naN]+\s+p99 ([\d.naN]+)", t)
    ach = re.search(r"achieved ([\d.]+) req/s", t)
    floor = re.search(r"timer floor \(us\):\s*p50 ([\d.]+)\s+p99 ([\d.]+)", t)
    us = lambda ms: f"{float(ms) * 1000:.0f} µs"
    p50, p99 = (us(lag.group(1)), us(lag.group(2))) if lag else ("n/a", "n/a")
    f50, f99 = (f"{float(floor.group(1)):.0f} µs", f"{float(floor.group(2)):.0f} µs") if floor else ("n/a", "n/a")
    ratio = f"{float(lag.group(2)) * 1000 / float(floor.group(2)):.2f}" if lag and floor else "n/a"
    print(f"| {int(rate):,}/s | {float(ach.group(1)):,.0f}/s | {p50} | {p99} | {f50} | {f99} | {ratio} |"
          if ach else f"| {int(rate):,}/s | n/a | {p50} | {p99} | {f50} | {f99} | {ratio} |")
PY
}

parts=("$@")
((${#parts[@]})) || parts=(all)
for p in "${parts[@]}"; do
  case $p in
    cpu) part_cpu ;;
    rss) part_rss ;;
    startup) part_startup ;;
    lag) part_lag ;;
    all) part_cpu; part_rss; part_startup; part_lag ;;
    *) echo "unknown part $p (cpu|rss|startup|lag|all)" >&2; exit 2 ;;
  esac
done
echo
echo "tables: $TABLES"
