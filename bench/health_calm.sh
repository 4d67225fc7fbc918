#!/usr/bin/env bash
# Is a calm run judged calm on this machine? Runs the calm workload of
# ClientHealth.CalmRunIsJudgedByItsOwnNumbers... RUNS times (default 5) and prints each run's
# verdict and the numbers behind it. A machine whose vCPUs stall for milliseconds shows loop lag
# here; that is the machine, and the self-check is right to say so. Usage: bench/health_calm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
RUNS=${RUNS:-5}
REQUESTS=${REQUESTS:-1400}
work=$(mktemp -d /tmp/ip-health-calm-bench-XXXXXX)
bench_start_mock "$work/mock.log" "" --ttft 2 --itl 1
calm=0
printf '%-4s %-9s %14s %16s %14s  %s\n' run saturated loop_p99_ms sched_p99_ms worker_cpu% causes
for i in $(seq 1 "$RUNS"); do
  "$CLIENT" profile -m mock-model -u "http://$ADDR" --streaming --isl 16 --osl 10 \
    --extra-inputs ignore_eos:true --concurrency 4 --request-count "$REQUESTS" \
    --artifact-dir "$work/run$i" --ui-type none >"$work/run$i.log" 2>&1
  if python3 - "$work/run$i/profile_export_aiperf.json" "$i" <<'PY'; then calm=$((calm + 1)); fi
import json, sys
h = json.load(open(sys.argv[1]))["client_health"]
print(f'{sys.argv[2]:<4} {str(h["saturated"]):<9} {h["loop_lag_p99_ms_max"]:>14} '
      f'{h["schedule_lag_p99_ms"]:>16} {h["worker_cpu_percent_max"]:>14}  {",".join(h["causes"]) or "-"}')
sys.exit(1 if h["saturated"] else 0)
PY
done
echo "calm verdicts: $calm of $RUNS"
rm -rf "$work"
