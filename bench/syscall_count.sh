#!/usr/bin/env bash
# System calls per streamed event of the client (docs/benchmarks.md, Headline; docs/decisions.md,
# "Measured: the plain read path makes 2.5 system calls per streamed event"): counts, not timings,
# so a busy machine gives the same figures. perf stat on the syscall tracepoints (needs root or
# perf_event_paranoid <= -1) over a fixed run: 64 streams x 640 requests x 100 tokens against the
# mock (--ttft 2 --itl 2); events = requests x (osl + 3).
# Usage: bench/syscall_count.sh   (BIN=build/x/apps another build; INFERPERF=path another client)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
command -v perf >/dev/null || { echo "perf is not installed (linux-perf)" >&2; exit 2; }
OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-syscalls.XXXXXX)}
mkdir -p "$OUT"
REQUESTS=640
OSL=100
bench_start_mock "$OUT/mock.log" "" --workers 1 --ttft 2 --itl 2
calls=recvmsg,recvfrom,epoll_ctl,epoll_wait,sendto,sendmsg,writev,write,read,futex
events="raw_syscalls:sys_enter"
for c in ${calls//,/ }; do events+=",syscalls:sys_enter_$c"; done
perf stat -x, -e "$events" -o "$OUT/perf.txt" -- "$CLIENT" profile -m mock-model \
  -u "http://$ADDR" --no-server-metrics --artifact-dir "$OUT/run" --ui-type none \
  --tokenizer builtin --streaming --concurrency 64 --request-count "$REQUESTS" --isl 32 \
  --osl "$OSL" --extra-inputs ignore_eos:true >"$OUT/client.log" 2>&1 || true
bench_stop_mock
python3 - "$OUT/perf.txt" $((REQUESTS * (OSL + 3))) <<'PY'
import sys
events = int(sys.argv[2])
print(f"events: {events:,} (requests x (osl + 3))")
for line in open(sys.argv[1]):
    f = line.strip().split(",")
    if len(f) > 2 and f[0].replace(".", "").isdigit():
        name = f[2].replace("syscalls:sys_enter_", "").replace("raw_syscalls:sys_enter", "all")
        print(f"{name:12s} {int(float(f[0])):10,d}  {float(f[0]) / events:6.3f} per event")
PY
