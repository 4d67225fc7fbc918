#!/usr/bin/env bash
# Builds the `fuzz` preset (clang, libFuzzer, ASan+UBSan) and runs every fuzz target in turn,
# FUZZ_SECONDS in total split evenly, starting from the committed seeds in fuzz/corpus/<target>.
# New inputs go to a scratch corpus, never into the repository. Exits non-zero when any target
# finds a crash, leak, timeout or out-of-memory; the reproducer is kept under
# build/fuzz/findings/<target>/ and can be replayed with the target binary.
#
#   scripts/fuzz.sh                                  # CI: 90 s in all
#   FUZZ_SECONDS=3600 scripts/fuzz.sh                # the long run (docs/testing.md)
#   FUZZ_TARGETS="sse cli" FUZZ_SECONDS=600 scripts/fuzz.sh
#   FUZZ_WORK=~/fuzz-work FUZZ_SECONDS=3600 scripts/fuzz.sh   # keep the grown corpora
#   FUZZ_SECONDS=0 scripts/fuzz.sh                   # skip (no clang build)
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_SECONDS="${FUZZ_SECONDS:-90}"
if ((FUZZ_SECONDS <= 0)); then
  echo "fuzz.sh: FUZZ_SECONDS=$FUZZ_SECONDS, skipped (the fuzz label's seed replay still runs in ctest)"
  exit 0
fi
read -r -a targets <<<"${FUZZ_TARGETS:-sse endpoint dataset tokenizer cli telemetry records http}"

# The largest input each target mutates towards: a bit above its largest seed (tokenizer seeds
# are trimmed real tokenizer.json files of about 11 KB).
max_len() {
  case "$1" in
    tokenizer) echo 16384 ;;
    endpoint | dataset) echo 8192 ;;
    cli) echo 2048 ;;
    *) echo 4096 ;;
  esac
}

bash scripts/build.sh fuzz

if [[ -n "${FUZZ_WORK:-}" ]]; then
  work="$FUZZ_WORK"
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/inferperf-fuzz.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi

per=$((FUZZ_SECONDS / ${#targets[@]}))
((per >= 1)) || per=1
failed=()
for t in "${targets[@]}"; do
  bin="build/fuzz/fuzz/fuzz_$t"
  findings="build/fuzz/findings/$t"
  mkdir -p "$work/$t/corpus" "$work/$t/tmp" "$findings"
  dict=()
  [[ -f "fuzz/dict/$t.dict" ]] && dict=(-dict="fuzz/dict/$t.dict")
  echo "fuzz.sh: fuzz_$t for ${per}s"
  # The first corpus folder receives new inputs; the committed seeds are only read.
  if ! TMPDIR="$work/$t/tmp" "$bin" "$work/$t/corpus" "fuzz/corpus/$t" \
    -max_total_time="$per" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$findings/" -print_final_stats=1 "${dict[@]}" >"$work/$t/log" 2>&1; then
    failed+=("$t")
    tail -n 60 "$work/$t/log"
    echo "fuzz.sh: fuzz_$t failed; reproduce with: $bin $findings/<file>" >&2
  else
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::average_exec_per_sec)' \
      "$work/$t/log" || true
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${per}s each, no finding"
