#!/usr/bin/env bash
# What the dashboard costs the client: the same streaming load (client_perf.sh's "cpu" case: 1,000
# streams, mock TTFT = ITL = 20 ms, 100 tokens per request) with --ui-type none and with
# --ui-type dashboard inside a detached tmux session (a real terminal, 160x50), alternated
# REPEAT times (default 3). Prints each run's client_health.cpu_us_per_event (process CPU over
# the profiling window / events received) and the medians; the issue's bound is < 5 % more per
# event with the dashboard.
# Usage: bench/ui_cost.sh   (REPEAT=N, BENCH_OUT=DIR to keep the files)
# The mock runs on core 1 and the client on core 0 when there are two cores or more.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
command -v tmux >/dev/null || { echo "ui_cost: tmux is required" >&2; exit 2; }

REPEAT=${REPEAT:-3}
OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-uicost.XXXXXX)}
mkdir -p "$OUT"
SOCKET=inferperf-uicost-$$
CORE_CLIENT=""
CORE_MOCK=""
if (($(nproc) >= 2)); then
  CORE_CLIENT=0
  CORE_MOCK=1
fi
cleanup() {
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  bench_cleanup
}
trap cleanup EXIT
echo "ui_cost: files in $OUT (client on core ${CORE_CLIENT:-any}, mock on core ${CORE_MOCK:-any})"
bench_start_mock "$OUT/mock.log" "$CORE_MOCK" --ttft 20 --itl 20 --workers 1

LOAD=(--streaming --concurrency 1000 --request-count 5000 --warmup-request-count 1000
  --isl 32 --osl 100 --extra-inputs ignore_eos:true --no-server-metrics)

# run UI DIR: one client run; the dashboard one in tmux, waited for through its exit-code file.
run() {
  local ui=$1 dir=$2
  mkdir -p "$dir"
  local pin=""
  [[ -n "$CORE_CLIENT" ]] && pin="taskset -c $CORE_CLIENT"
  local cmd="$pin $(realpath "$CLIENT") profile -m mock-model -u http://$ADDR ${LOAD[*]}"
  cmd+=" --artifact-dir $dir/artifacts --ui-type $ui"
  if [[ $ui == dashboard ]]; then
    tmux -f /dev/null -L "$SOCKET" new-session -d -x 160 -y 50 \
      "INFERPERF_UI_LINGER_S=0 $cmd 2>$dir/client.err; echo \$? >$dir/rc"
    for _ in $(seq 1 1200); do
      [[ -s $dir/rc ]] && break
      sleep 0.5
    done
  else
    $cmd >"$dir/client.log" 2>&1
    echo $? >"$dir/rc"
  fi
  python3 - "$dir/artifacts/profile_export_aiperf.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["client_health"]
print(h["cpu_us_per_event"])
PY
}

declare -a NONE DASH
for i in $(seq 1 "$REPEAT"); do
  NONE+=("$(run none "$OUT/none-$i")")
  DASH+=("$(run dashboard "$OUT/dashboard-$i")")
  echo "run $i: cpu_us_per_event none=${NONE[-1]} dashboard=${DASH[-1]}"
done
python3 - "${NONE[*]}" "${DASH[*]}" <<'PY'
import statistics, sys
none = [float(x) for x in sys.argv[1].split()]
dash = [float(x) for x in sys.argv[2].split()]
mn, md = statistics.median(none), statistics.median(dash)
print(f"median cpu_us_per_event: none {mn:.4g}, dashboard {md:.4g} ({(md / mn - 1) * 100:+.1f} %)")
PY
