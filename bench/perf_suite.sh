#!/usr/bin/env bash
# The whole client performance suite in one command (docs/benchmarks.md, "Client performance"):
#   1. micro benchmarks: SSE framing + decode, statistics, request building, record to metrics
#   2. bench/client_perf.sh all: CPU per event/request at 1,000 streams, events/s on one worker,
#      streams held (errors, RSS per stream), schedule lag at 1k/5k/20k req/s
#   3. bench/wrk_compare.sh: non-streaming request rate against wrk (= the mock alone)
#   4. bench/accuracy.sh (pinned): TTFT/ITL error against the mock's token write log, 1,000 streams
# Usage: bench/perf_suite.sh   (about 12 minutes on 2 cores; run it on an otherwise idle machine)
# Everything it prints is also in $OUT/suite.log.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh release >/dev/null
OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-suite.XXXXXX)}
mkdir -p "$OUT"
{
  echo "# inferperf performance suite, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release && echo "$PRETTY_NAME"), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "== micro benchmarks"
  build/release/bench/inferperf_micro_bench --benchmark_min_time=0.5 2>&1 | grep -E "^BM_|^-" || true
  build/release/bench/inferperf_pipeline_bench --benchmark_min_time=0.5 2>&1 | grep -E "^BM_" || true
  BENCH_OUT=$OUT/client_perf bench/client_perf.sh all
  echo "== wrk comparison"
  bench/wrk_compare.sh 64 200000
  echo "== accuracy at 1,000 streams (mock on core 1, client on core 0)"
  PIN=1 bench/accuracy.sh 1000 3000
} 2>&1 | tee "$OUT/suite.log"
echo "suite log: $OUT/suite.log"
