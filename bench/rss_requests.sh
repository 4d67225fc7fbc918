#!/usr/bin/env bash
# Peak RSS against the request count (issue 29, "memory flat in request count"): closed-loop
# non-streaming runs against the mock --fast, with the client tokenizer (builtin) so the post-run
# analysis counts tokens, rewrites the records file and writes every export. For each count it
# prints the peak RSS (/usr/bin/time), the client's CPU (user + sys) and the analysis time: wall
# from the end of the load (the mock's last request) to the client's exit.
# Usage: bench/rss_requests.sh [COUNTS ("100000 1000000")]; INFERPERF=path compares another build.
# STREAMING=1 streams the answers (OSL tokens each, default 16; one inter-chunk latency per token
# after the first, so OSL=200 puts 199 values per request in that column).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTS="${1:-100000 1000000}"
OSL="${OSL:-16}"
STREAM_ARGS=()
[[ "${STREAMING:-0}" == 1 ]] && STREAM_ARGS=(--streaming)
source bench/lib.sh
bench_require_build
command -v /usr/bin/time >/dev/null || { echo "/usr/bin/time not installed" >&2; exit 2; }

OUT=$(mktemp -d /tmp/inferperf-rss.XXXXXX)
echo "files in $OUT"
bench_start_mock "$OUT/mock.log" "" --fast --workers 1 --no-tokenizer
printf '%10s %12s %10s %12s\n' requests peak_rss_MB cpu_s analysis_s
for n in $COUNTS; do
  dir="$OUT/run-$n"
  start=$(date +%s.%N)
  /usr/bin/time -v "$CLIENT" profile -m mock-model -u "http://$ADDR" --endpoint-type chat \
    --concurrency 64 --request-count "$n" --num-dataset-entries 100 --isl 64 --osl "$OSL" \
    "${STREAM_ARGS[@]}" --extra-inputs ignore_eos:true --random-seed 1 --tokenizer builtin --ui-type none \
    --artifact-dir "$dir" >"$dir.log" 2>"$dir.time" || { cat "$dir.log" "$dir.time" >&2; exit 1; }
  end=$(date +%s.%N)
  python3 - "$dir" "$dir.time" "$start" "$end" "$n" <<'PY'
import json, re, sys
d, timef, start, end, n = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
t = open(timef).read()
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", t))
s = json.load(open(f"{d}/profile_export_aiperf.json"))
# The load ends with the last response: the phase end, on the wall clock.
from datetime import datetime
load_end = datetime.fromisoformat(s["end_time"]).timestamp()
print(f"{n:>10} {rss:12.1f} {cpu:10.2f} {end - load_end:12.2f}")
PY
done
