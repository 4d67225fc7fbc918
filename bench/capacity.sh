#!/usr/bin/env bash
# Capacity benchmark: N concurrent streams held against the mock server for about 30 s.
# Usage: bench/capacity.sh [CONCURRENCY (5000)] [ITL_MS (200)] [OUTPUT_TOKENS (150)]
# Reports errors, the mock's max in-flight count, achieved timing and client CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
CONC="${1:-5000}"
ITL="${2:-200}"
OSL="${3:-150}"
source bench/lib.sh
bench_require_build

OUT=$(mktemp -d)
bench_start_mock "$OUT/mock.log" "" --ttft "$ITL" --itl "$ITL" --workers 1

/usr/bin/time -v "$CLIENT" profile -m mock-model -u "http://$ADDR" --streaming \
  --concurrency "$CONC" --request-count "$CONC" --isl 32 --osl "$OSL" --extra-inputs ignore_eos:true \
  --artifact-dir "$OUT/artifacts" --ui-type none >"$OUT/client.log" 2>"$OUT/time.log" || true

python3 - "$OUT" <<'PY'
import json, sys, re, urllib.request
out = sys.argv[1]
j = json.load(open(f"{out}/artifacts/profile_export_aiperf.json"))
t = open(f"{out}/time.log").read()
def grab(label):
    m = re.search(re.escape(label) + r":\s*(.+)", t)
    return m.group(1).strip() if m else "?"
print(f"requests ok:        {j.get('request_count', {}).get('avg', 0)}")
print(f"errors:             {j.get('error_request_count', {}).get('avg', 0)}")
print(f"benchmark duration: {j['benchmark_duration']['avg']:.2f} s")
print(f"TTFT avg/p99:       {j['time_to_first_token']['avg']:.2f} / {j['time_to_first_token']['p99']:.2f} ms")
print(f"ITL avg/p99:        {j['inter_token_latency']['avg']:.3f} / {j['inter_token_latency']['p99']:.3f} ms")
print(f"ICL p99/max:        {j['inter_chunk_latency']['p99']:.2f} / {j['inter_chunk_latency']['max']:.2f} ms")
print(f"output tokens/s:    {j['output_token_throughput']['avg']:.0f}")
print(f"client user+sys s:  {grab('User time (seconds)')} + {grab('System time (seconds)')}")
print(f"client max RSS:     {grab('Maximum resident set size (kbytes)')} kB")
PY
MAXIN=$(curl -s "http://$ADDR/metrics" | sed -n 's/^inferperf_mock_max_in_flight //p')
echo "mock max in flight: $MAXIN"
