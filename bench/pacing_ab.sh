#!/usr/bin/env bash
# Alternated rounds of bench/pacing.sh with one binary: the issuer handing each credit over when
# due (INFERPERF_HAND_AHEAD_US=0) against credits handed to their worker 2 ms ahead and timed there
# (the default). Prints each run, then per rate and path the medians of schedule lag p50 / p99, the
# timer floor p99 from the same runs, their ratio, release lateness and release-to-start p99.
# Usage: bench/pacing_ab.sh [ROUNDS (3)] [SECONDS (5)] [RATES ("1000 5000 20000")]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${1:-3}"
SECS="${2:-5}"
RATES="${3:-1000 5000 20000}"
LOG=$(mktemp)
for rate in $RATES; do
  for round in $(seq 1 "$ROUNDS"); do
    for lead in 0 2000; do
      out=$(INFERPERF_HAND_AHEAD_US=$lead bash bench/pacing.sh "$rate" "$SECS" 2>&1) || true
      printf 'rate=%s lead_us=%s round=%s\n%s\n' "$rate" "$lead" "$round" "$out" | tee -a "$LOG" |
        grep -E '^(rate=|sent|skipped|schedule lag|timer floor|lag p99|release)' || true
    done
  done
done
python3 - "$LOG" <<'PY'
import re, statistics, sys, collections
runs, cur = collections.defaultdict(list), None
for line in open(sys.argv[1]):
    if m := re.match(r"rate=(\d+) lead_us=(\d+)", line):
        cur = {}
        runs[(int(m[1]), int(m[2]))].append(cur)
    elif cur is not None and (m := re.match(r"schedule lag \(ms\):\s+p50 ([\d.]+).*p99 ([\d.]+)", line)):
        cur["lag50"], cur["lag99"] = 1000 * float(m[1]), 1000 * float(m[2])
    elif cur is not None and (m := re.match(r"timer floor \(us\):.*p99 ([\d.]+)", line)):
        cur["floor99"] = float(m[1])
    elif cur is not None and (m := re.match(r"release lateness \(us\):.*p99 ([\d.]+)", line)):
        cur["rel99"] = float(m[1])
    elif cur is not None and (m := re.match(r"release to start \(us\):.*p99 ([\d.]+)", line)):
        cur["start99"] = float(m[1])
print("\nmedians (us)     runs  lag p50  lag p99  floor p99  ratio  release p99  release->start p99")
for (rate, lead), rs in sorted(runs.items()):
    ok = [r for r in rs if {"lag99", "floor99", "rel99", "start99"} <= r.keys()]
    if not ok:
        print(f"{rate:>6} lead {lead:>4}  no complete run")
        continue
    med = lambda k: statistics.median(r[k] for r in ok)
    ratio = statistics.median(r["lag99"] / r["floor99"] for r in ok if r["floor99"] > 0)
    print(f"{rate:>6} lead {lead:>4} {len(ok):>5} {med('lag50'):>8.1f} {med('lag99'):>8.1f} "
          f"{med('floor99'):>10.1f} {ratio:>6.2f} {med('rel99'):>12.1f} {med('start99'):>19.1f}")
PY
rm -f "$LOG"
