# Shared by the bench scripts (sourced): start the mock on a free port, read CPU and memory of a
# process from /proc, stop everything on exit.
# shellcheck shell=bash

BIN=${BIN:-build/release/apps}
MOCK=$BIN/mock-server/inferperf-mock-server
CLIENT=${INFERPERF:-$BIN/inferperf}  # INFERPERF=path compares another build
BENCH_PIDS=()

bench_cleanup() {
  for p in "${BENCH_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap bench_cleanup EXIT

bench_require_build() {
  [[ -x "$CLIENT" && -x "$MOCK" ]] || bash scripts/build.sh release >/dev/null
}

# bench_start_mock LOG CPU_LIST [MOCK FLAGS...]: starts the mock pinned to CPU_LIST ("" = anywhere),
# sets MOCK_PID and ADDR (host:port).
bench_start_mock() {
  local log=$1 cpus=$2
  shift 2
  if [[ -n "$cpus" ]]; then
    taskset -c "$cpus" "$MOCK" --port 0 "$@" >"$log" 2>&1 &
  else
    "$MOCK" --port 0 "$@" >"$log" 2>&1 &
  fi
  MOCK_PID=$!
  BENCH_PIDS+=("$MOCK_PID")
  ADDR=""
  for _ in $(seq 1 100); do
    ADDR=$(sed -n 's/^inferperf-mock-server listening on //p' "$log")
    [[ -n "$ADDR" ]] && return 0
    sleep 0.1
  done
  echo "the mock did not start: $(cat "$log")" >&2
  return 1
}

# bench_closed_loop_args CONCURRENCY REQUESTS ARTIFACT_DIR: sets CLOSED_LOOP_ARGS, the profile
# arguments of the non-streaming closed loop wrk is compared with (wrk_compare.sh,
# syscall_count.sh closed): chat, 100 distinct prompts (built before the load), one worker as
# wrk's one thread; the mock's address from bench_start_mock.
bench_closed_loop_args() {
  CLOSED_LOOP_ARGS=(profile -m mock-model -u "http://$ADDR" --endpoint-type chat
    --concurrency "$1" --request-count "$2" --num-dataset-entries 100 --workers-max 1 --isl 64
    --osl 16 --extra-inputs ignore_eos:true --random-seed 1 --artifact-dir "$3" --ui-type none)
}

bench_stop_mock() {
  kill "$MOCK_PID" 2>/dev/null || true
  wait "$MOCK_PID" 2>/dev/null || true
}

# CPU seconds (user + system) a process has used so far.
bench_cpu_s() {
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$1/stat" 2>/dev/null || echo 0
}

# Resident set size in kB.
bench_rss_kb() {
  awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0
}
