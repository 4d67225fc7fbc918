#!/usr/bin/env bash
# The headline of docs/benchmarks.md: client CPU per streamed event, inferperf ÷ the floor client
# (bench/floor_client.c: C, epoll, one recv per readiness, a clock read per read, chunked and SSE
# framing counted, keep-alive), on the same mock and the same loads:
#   itl2  64 streams, mock --ttft 2 --itl 2, 100 tokens per request, 2,560 requests (about 8 s)
#   fast  64 streams, mock --fast, 1,000 tokens per request, 1,920 requests (about 6 s)
#   c1000 1,000 streams, mock --ttft 20 --itl 20, 100 tokens per request, 5,000 requests (not in
#         the default set: about 12 s a run)
#   c10000 10,000 streams, mock --ttft 200 --itl 200 (the same 50,000 events/s), 50 tokens per
#         request, 20,000 requests (not in the default set: about 25 s a run; needs ulimit -n
#         above 10,000 for the floor client and the mock, as bench/scaling.sh sets)
# Per load one mock runs on core 1 and the two clients take turns on core 0, ROUNDS rounds
# (default 3), floor first; the medians are compared. Both CPU figures are getrusage over the load
# window (user + system): the floor client's own, inferperf's `client_health` block. The mock's
# CPU per event is printed beside each run, so a mock that worked differently shows.
# Usage: bench/floor_ratio.sh [itl2|fast|c1000|c10000 ...]   (default: itl2 fast)
#        ROUNDS=N sets the rounds; BENCH_OUT=DIR keeps the files; FLOOR=path another floor build.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
FLOOR=${FLOOR:-${BIN%/apps}/bench/inferperf_floor_client}
[[ -x "$FLOOR" ]] || cmake --build "${BIN%/apps}" --target inferperf_floor_client >/dev/null

OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-floor.XXXXXX)}
mkdir -p "$OUT"
RESULTS=$OUT/results.jsonl
ROUNDS=${ROUNDS:-3}
CORE_CLIENT=""
CORE_MOCK=""
if (($(nproc) >= 2)) && command -v taskset >/dev/null; then
  CORE_CLIENT=0
  CORE_MOCK=1
fi
PIN=()
[[ -n "$CORE_CLIENT" ]] && PIN=(taskset -c "$CORE_CLIENT")
echo "floor_ratio: files in $OUT (client on core ${CORE_CLIENT:-any}, mock on core ${CORE_MOCK:-any})"

# record LOAD CLIENT ROUND MOCK_CPU_S JSON_FILE: appends one result line (the client's figures and
# the mock's CPU per event over the run) and prints it.
record() {
  python3 - "$@" >>"$RESULTS" <<'PY'
import json, sys
load, client, rnd, mock_cpu, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
r = {"load": load, "client": client, "round": rnd}
try:
    j = json.load(open(path))
except (OSError, ValueError):
    print(json.dumps({**r, "error": f"no result in {path}"}))
    sys.exit(0)
if client == "floor":
    r.update(requests=j["requests"], events=j["events"], errors=j["errors"], window_s=j["wall_s"],
             user_s=j["cpu_user_s"], sys_s=j["cpu_sys_s"], cpu_us_per_event=j["cpu_us_per_event"],
             reads_per_event=j["reads_per_event"])
else:
    h = j.get("client_health", {})
    r.update(requests=h.get("requests"), events=h.get("events"),
             errors=(j.get("error_request_count") or {}).get("avg", 0), window_s=h.get("window_s"),
             user_s=h.get("process_cpu_user_s"), sys_s=h.get("process_cpu_system_s"),
             cpu_us_per_event=h.get("cpu_us_per_event"), saturated=h.get("saturated"))
if r.get("events"):
    r["mock_us_per_event"] = mock_cpu * 1e6 / r["events"]
print(json.dumps(r))
PY
  tail -1 "$RESULTS" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("  " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()))'
}

# run_floor LOAD ROUND CONCURRENCY REQUESTS OSL
run_floor() {
  local dir=$OUT/$1-floor-$2 c0 rc=0
  mkdir -p "$dir"
  c0=$(bench_cpu_s "$MOCK_PID")
  "${PIN[@]}" "$FLOOR" -a "$ADDR" -c "$3" -n "$4" -o "$5" >"$dir/result.json" 2>"$dir/client.log" ||
    rc=$?
  ((rc == 0)) || echo "  floor client exit $rc: $(cat "$dir/client.log")" >&2
  record "$1" floor "$2" "$(awk -v a="$(bench_cpu_s "$MOCK_PID")" -v b="$c0" 'BEGIN {print a - b}')" \
    "$dir/result.json"
}

# run_inferperf LOAD ROUND CONCURRENCY REQUESTS OSL
run_inferperf() {
  local dir=$OUT/$1-inferperf-$2 c0 rc=0
  mkdir -p "$dir"
  c0=$(bench_cpu_s "$MOCK_PID")
  "${PIN[@]}" "$CLIENT" profile -m mock-model -u "http://$ADDR" --no-server-metrics \
    --artifact-dir "$dir/artifacts" --ui-type none --tokenizer builtin --streaming \
    --concurrency "$3" --request-count "$4" --isl 32 --osl "$5" --extra-inputs ignore_eos:true \
    >"$dir/client.log" 2>&1 || rc=$?
  ((rc == 0)) || echo "  inferperf exit $rc (see $dir/client.log)" >&2
  record "$1" inferperf "$2" "$(awk -v a="$(bench_cpu_s "$MOCK_PID")" -v b="$c0" 'BEGIN {print a - b}')" \
    "$dir/artifacts/profile_export_aiperf.json"
}

# run_load LOAD CONCURRENCY REQUESTS OSL MOCK_FLAGS...: one mock, the clients alternating.
run_load() {
  local load=$1 conc=$2 requests=$3 osl=$4
  shift 4
  echo "== $load: $conc streams x $osl tokens, $requests requests, mock $*"
  bench_start_mock "$OUT/mock-$load.log" "$CORE_MOCK" --workers 1 "$@"
  for r in $(seq 1 "$ROUNDS"); do
    run_floor "$load" "$r" "$conc" "$requests" "$osl"
    run_inferperf "$load" "$r" "$conc" "$requests" "$osl"
  done
  bench_stop_mock
}

loads=("$@")
((${#loads[@]})) || loads=(itl2 fast)
for l in "${loads[@]}"; do
  case $l in
    itl2) run_load itl2 64 2560 100 --ttft 2 --itl 2 ;;
    fast) run_load fast 64 1920 1000 --fast ;;
    c1000) run_load c1000 1000 5000 100 --ttft 20 --itl 20 ;;
    c10000) run_load c10000 10000 20000 50 --ttft 200 --itl 200 ;;
    *) echo "unknown load $l (itl2|fast|c1000|c10000)" >&2; exit 2 ;;
  esac
done

# Medians over the rounds, per load and client, and the ratio.
python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("\nload   client     CPU us/event (user + sys)   mock us/event   rounds")
for load in dict.fromkeys(r["load"] for r in rows):
    med = {}
    for client in ("floor", "inferperf"):
        rs = [r for r in rows if r["load"] == load and r["client"] == client and r.get("cpu_us_per_event")]
        if not rs:
            print(f"{load:<6} {client:<10} no result")
            continue
        m = lambda k: statistics.median(r[k] for r in rs)
        med[client] = m("cpu_us_per_event")
        user = statistics.median(r["user_s"] * 1e6 / r["events"] for r in rs)
        sys_ = statistics.median(r["sys_s"] * 1e6 / r["events"] for r in rs)
        each = " ".join(f"{r['cpu_us_per_event']:.2f}" for r in rs)
        print(f"{load:<6} {client:<10} {med[client]:6.2f} ({user:.2f} + {sys_:.2f}){'':12}"
              f"{m('mock_us_per_event'):6.2f}        {each}")
    if len(med) == 2:
        print(f"{load:<6} ratio inferperf / floor = {med['inferperf'] / med['floor']:.2f}")
    counts = {(r["client"], r.get("events"), r.get("errors")) for r in rows if r["load"] == load}
    if len({(e, x) for _, e, x in counts}) > 1:
        print(f"{load:<6} WARNING: the runs received different event counts or had errors: {sorted(counts, key=str)}")
PY
echo "results: $RESULTS"
