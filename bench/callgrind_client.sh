#!/usr/bin/env bash
# Repeatable client cost: instructions the worker threads execute per received event, counted by
# callgrind (only code under the workers' io_context::run is collected), against the mock at a
# pace slow enough that every event arrives in its own read even under valgrind.
# Usage: bench/callgrind_client.sh [INFERPERF_BINARY (build/release/apps/inferperf)]
# Prints: events, worker instructions, instructions per event, and the records writer's thread
# (records::Collector::run) per event beside them. Takes about a minute.
# CLOSED=1: the non-streaming closed loop instead (bench_closed_loop_args: 64 connections, 5,000
# requests against the mock --fast), counting the workers and the records writer's thread
# (records::Collector::run): instructions per request, each side and together.
# FLOOR=1: the floor client under the streaming load instead (the whole process, per event).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
BINARY=${1:-$CLIENT}
OUT=$(mktemp -d /tmp/inferperf-callgrind.XXXXXX)
echo "callgrind.out, client log and artifacts in $OUT (callgrind_annotate reads the profile)"
if [[ "${CLOSED:-0}" == 1 ]]; then
  bench_start_mock "$OUT/mock.log" "" --fast --workers 1 --no-tokenizer
  bench_closed_loop_args 64 5000 "$OUT/artifacts"
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
    --toggle-collect='boost::asio::detail::scheduler::run(*' \
    --toggle-collect='inferperf::records::Collector::run(*' \
    "$BINARY" "${CLOSED_LOOP_ARGS[@]}" --no-server-metrics >"$OUT/client.log" 2>&1
  N=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["request_count"]["avg"]))' \
    "$OUT/artifacts/profile_export_aiperf.json")
  callgrind_annotate --inclusive=yes "$OUT/callgrind.out" 2>/dev/null | awk -v n="$N" '
    function num(s) { gsub(",", "", s); return s + 0 }
    /PROGRAM TOTALS/ && !all { all = num($1) }
    /records::Collector::run\(\) \[/ && !col { col = num($1) }
    END {
      if (!all || !col) { print "the records writer thread was not found in the profile" > "/dev/stderr"; exit 1 }
      printf "requests %d, instructions per request: workers %d, records writer %d, together %d\n",
             n, (all - col) / n, col / n, all / n
    }'
  exit 0
fi
bench_start_mock "$OUT/mock.log" "" --ttft 20 --itl 20 --workers 1
if [[ "${FLOOR:-0}" == 1 ]]; then
  # The floor client (bench/floor_client.c) under the same load: its whole process, per event.
  FLOOR_BIN=${BIN%/apps}/bench/inferperf_floor_client
  [[ -x "$FLOOR_BIN" ]] || cmake --build "${BIN%/apps}" --target inferperf_floor_client >/dev/null
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
    "$FLOOR_BIN" -a "$ADDR" -c 20 -n 100 -o 100 >"$OUT/result.json" 2>"$OUT/client.log"
  EVENTS=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$OUT/result.json")
  IR=$(callgrind_annotate "$OUT/callgrind.out" 2>/dev/null |
    awk '/PROGRAM TOTALS/ && !ir {gsub(",", "", $1); ir = $1} END {print ir}')
  echo "floor client: events $EVENTS, instructions $IR, per event $((IR / EVENTS))"
  exit 0
fi
valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
  --toggle-collect='boost::asio::detail::scheduler::run(*' \
  --toggle-collect='inferperf::records::Collector::run(*' \
  "$BINARY" profile -m mock-model -u "http://$ADDR" --no-server-metrics --streaming \
  --concurrency 20 --request-count 100 --isl 32 --osl 100 --extra-inputs ignore_eos:true \
  --workers-max 1 --artifact-dir "$OUT/artifacts" --ui-type none >"$OUT/client.log" 2>&1
EVENTS=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client_health"]["events"])' \
  "$OUT/artifacts/profile_export_aiperf.json")
READS=$(python3 -c '
import json, sys
print(sum(json.loads(l).get("reads", 0) for l in open(sys.argv[1])))' "$OUT/artifacts/inferperf_records.jsonl" 2>/dev/null || echo "?")
read -r IR COL < <(callgrind_annotate --inclusive=yes "$OUT/callgrind.out" 2>/dev/null | awk '
  function num(s) { gsub(",", "", s); return s + 0 }
  /PROGRAM TOTALS/ && !all { all = num($1) }
  /records::Collector::run\(\) \[/ && !col { col = num($1) }
  END { printf "%d %d\n", all - col, col }')
if ((IR <= 0 || COL <= 0 || EVENTS <= 0)); then
  echo "the workers or the records writer thread were not found in the profile ($OUT)" >&2
  exit 1
fi
echo "events $EVENTS, reads $READS, worker instructions $IR, per event $((IR / EVENTS));" \
  "records writer per event $((COL / EVENTS)), together $(((IR + COL) / EVENTS))"
