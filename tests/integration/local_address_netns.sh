#!/usr/bin/env bash
# --local-address spreads connections over several source addresses (the issue's demonstration).
#
# Each scenario runs in its own network namespace (unshare -n: loopback only, nothing else there)
# whose ephemeral port range is cut to 1,000 ports (60000-60999; the range is per namespace).
# 1,500 requests at concurrency 1,500 against a mock server slow enough (TTFT 2 s) that every
# connection is open at once, and kept open (keep-alive) until the run ends:
#   - no --local-address: one source address, 1,000 ports: the rest fail with
#     "Cannot assign requested address" (ClientConnectionError), counted in the export;
#   - --local-address 127.0.0.1,127.0.0.2: 2,000 ports, every request valid, and the server sees
#     about half of the connections from each address.
#
# usage: local_address_netns.sh INFERPERF_BIN MOCK_SERVER_BIN
# Exit 77 (skipped): not root, no unshare/ip/ss, no network namespace allowed, too few files.
set -euo pipefail

readonly N=1500 PORT=18080 RANGE="60000 60999"

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*"
  exit 1
}

# --- inner: one scenario inside the namespace -------------------------------------------------
# local_address_netns.sh --inner INFERPERF MOCK WORKDIR [--local-address LIST]
if [[ "${1:-}" == "--inner" ]]; then
  inferperf=$2 mock=$3 work=$4
  shift 4
  ip link set lo up
  echo "$RANGE" >/proc/sys/net/ipv4/ip_local_port_range
  ulimit -n "$(ulimit -Hn)"
  "$mock" --host 127.0.0.1 --port "$PORT" --ttft 2000 --itl 0 >"$work/mock.out" 2>&1 &
  mock_pid=$!
  trap 'kill "$mock_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    grep -q "listening on" "$work/mock.out" 2>/dev/null && break
    sleep 0.05
  done
  grep -q "listening on" "$work/mock.out" || fail "mock server did not start: $(cat "$work/mock.out")"
  # Hermetic: no server-metrics flush wait, no DCGM probing (as the other integration tests).
  AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD=0 AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS="" \
    "$inferperf" profile -m mock-model -u "http://127.0.0.1:$PORT" --endpoint-type chat \
    --concurrency "$N" --request-count "$N" --isl 8 --osl 2 --no-preflight --ui none \
    --artifact-dir "$work/artifacts" "$@" >"$work/inferperf.out" 2>&1 &
  client=$!
  # The connections the server holds, by client address, at the moment most were open.
  best=0
  : >"$work/peers"
  while kill -0 "$client" 2>/dev/null; do
    ss -Htn state established "( sport = :$PORT )" | awk '{print $NF}' | sed 's/:[0-9]*$//' |
      sort | uniq -c >"$work/peers.now" || true
    total=$(awk '{s += $1} END {print s + 0}' "$work/peers.now")
    if ((total > best)); then
      best=$total
      cp "$work/peers.now" "$work/peers"
    fi
    sleep 0.2
  done
  rc=0
  wait "$client" || rc=$?
  echo "$rc" >"$work/rc"
  exit 0
fi

# --- outer: checks, the two scenarios, the assertions ------------------------------------------
(($# == 2)) || fail "usage: $0 INFERPERF_BIN MOCK_SERVER_BIN"
inferperf=$1 mock=$2
[[ -x "$inferperf" && -x "$mock" ]] || fail "binaries not found: $inferperf $mock"
(($(id -u) == 0)) || skip "needs root for a network namespace (unshare -n)"
for tool in unshare ip ss; do
  command -v "$tool" >/dev/null || skip "$tool not found"
done
unshare -n true 2>/dev/null || skip "unshare -n failed (no permission for a network namespace)"
hard=$(ulimit -Hn)
[[ "$hard" == unlimited ]] || ((hard >= N + 200)) || skip "open-file hard limit $hard < $((N + 200))"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ip-local-address-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The "avg" of a metric object in profile_export_aiperf.json (0 when the export leaves it out).
metric() {
  local v
  v=$(awk -v key="\"$1\": {" 'index($0, key) {f = 1; next}
                              f && /"avg"/ {gsub(/[^0-9]/, ""); print; exit}' "$2")
  echo "${v:-0}"
}
peers_of() {  # DIR ADDRESS: connections the server held from ADDRESS at the peak
  local v
  v=$(awk -v a="$2" '$2 == a {print $1}' "$1/peers")
  echo "${v:-0}"
}

run_scenario() {  # NAME [--local-address LIST]
  local name=$1 work="$tmp/$1"
  shift
  mkdir -p "$work"
  unshare -n bash "$0" --inner "$inferperf" "$mock" "$work" "$@"
  [[ -f "$work/artifacts/profile_export_aiperf.json" ]] ||
    fail "$name: no export; inferperf said: $(tail -20 "$work/inferperf.out")"
}

run_scenario single
run_scenario spread --local-address 127.0.0.1,127.0.0.2

s_json="$tmp/single/artifacts/profile_export_aiperf.json"
m_json="$tmp/spread/artifacts/profile_export_aiperf.json"
s_ok=$(metric request_count "$s_json") s_err=$(metric error_request_count "$s_json")
m_ok=$(metric request_count "$m_json") m_err=$(metric error_request_count "$m_json")
echo "no --local-address:                  $s_ok valid, $s_err errors; connections by source:" \
  "$(tr -s "\n " " " <"$tmp/single/peers")"
echo "--local-address 127.0.0.1,127.0.0.2: $m_ok valid, $m_err errors; connections by source:" \
  "$(tr -s "\n " " " <"$tmp/spread/peers")"

# One address: 1,000 ports, so about 500 requests cannot connect.
((s_ok + s_err == N)) || fail "single: $s_ok + $s_err != $N"
((s_ok <= 1000)) || fail "single: $s_ok valid with a 1,000-port range"
((s_err >= N - 1000)) || fail "single: only $s_err errors"
grep -q '"type": "ClientConnectionError"' "$s_json" || fail "single: no ClientConnectionError"
grep -q '"message": "Cannot assign requested address"' "$s_json" ||
  fail "single: the errors are not port exhaustion: $(grep -A3 '"error_details"' "$s_json")"

# Two addresses: every request valid, the connections split over both.
(($(cat "$tmp/spread/rc") == 0)) || fail "spread: exit code $(cat "$tmp/spread/rc")"
((m_ok == N && m_err == 0)) ||
  fail "spread: $m_ok valid, $m_err errors; $(grep -A3 '"error_details"' "$m_json" | head -20)"
a=$(peers_of "$tmp/spread" 127.0.0.1) b=$(peers_of "$tmp/spread" 127.0.0.2)
((a >= 600 && b >= 600)) || fail "spread: connections from 127.0.0.1: $a, from 127.0.0.2: $b"
echo "PASS"
