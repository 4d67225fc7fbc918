#!/usr/bin/env bash
# System calls per streamed event of the client (docs/benchmarks.md, Headline; docs/decisions.md,
# "Measured: the plain read path makes 2.5 system calls per streamed event"): counts, not timings,
# so a busy machine gives the same figures. perf stat on the syscall tracepoints (needs root or
# perf_event_paranoid <= -1) over a fixed run: 64 streams x 640 requests x 100 tokens against the
# mock (--ttft 2 --itl 2); events = requests x (osl + 3).
# Usage: bench/syscall_count.sh   (BIN=build/x/apps another build; INFERPERF=path another client)
#        bench/syscall_count.sh closed   non-streaming closed loop instead (wrk_compare.sh's load:
#        mock --fast on core 1, client on core 0, 64 connections, one worker, 50,000 requests): per
#        thread, system calls per request over the whole run (perf record on the tracepoints); the
#        worker is the thread with one sendto per request, the issuer the one with epoll_wait and
#        read in step.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
command -v perf >/dev/null || { echo "perf is not installed (linux-perf)" >&2; exit 2; }
OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-syscalls.XXXXXX)}
mkdir -p "$OUT"
calls=recvmsg,recvfrom,epoll_ctl,epoll_wait,sendto,sendmsg,writev,write,read,futex

if [[ "${1:-}" == closed ]]; then
  REQUESTS=50000
  bench_start_mock "$OUT/mock.log" 1 --fast --workers 1 --no-tokenizer
  events=""
  for c in ${calls//,/ } timerfd_settime; do events+="syscalls:sys_enter_$c,"; done
  bench_closed_loop_args 64 "$REQUESTS" "$OUT/run"
  perf record -q -e "${events%,}" -o "$OUT/perf.data" -- taskset -c 0 "$CLIENT" \
    "${CLOSED_LOOP_ARGS[@]}" >"$OUT/client.log" 2>&1 || true
  bench_stop_mock
  echo "requests: $REQUESTS (non-streaming, closed loop of 64)"
  perf script -i "$OUT/perf.data" -F tid,event 2>/dev/null |
    awk -v n="$REQUESTS" '{sub("syscalls:sys_enter_", "", $2); sub(":", "", $2); c[$1 " " $2]++}
      END {for (k in c) if (c[k] >= n / 100) {split(k, f, " ");
        printf "thread %-8s %-16s %9d  %6.3f per request\n", f[1], f[2], c[k], c[k] / n}}' |
    sort -k2,2n -k5,5nr
  exit 0
fi

REQUESTS=640
OSL=100
bench_start_mock "$OUT/mock.log" "" --workers 1 --ttft 2 --itl 2
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
