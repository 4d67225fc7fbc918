#!/usr/bin/env bash
# The Hardening numbers of docs/limits.md and docs/benchmarks.md, reproduced:
#  1. one 100 MiB answer without whitespace (mock fault big-event=104857600), non-streaming, builtin
#     tokenizer: the client's peak RSS and CPU seconds (GNU time), and whether the record says its
#     output count was estimated (outputs above 8 MiB are);
#  2. the dataset memory estimate against the prompt text actually generated, for a few synthetic
#     datasets (the run's debug line "synthetic dataset: X of prompt text (Y estimated ...)").
# Usage: bench/hardening.sh   (BENCH_OUT=DIR keeps the files; INFERPERF=path measures another
# build, e.g. one of commit 4afb810 for the "before" of case 1)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
bench_require_build
[[ -x /usr/bin/time ]] || { echo "hardening: GNU time is required (apt-get install time)" >&2; exit 2; }

OUT=${BENCH_OUT:-$(mktemp -d /tmp/inferperf-hardening.XXXXXX)}
mkdir -p "$OUT"
bench_start_mock "$OUT/mock.log" "" --ttft 1 --itl 1

echo "== 1. a 100 MiB answer without whitespace (client cost of counting its tokens)"
/usr/bin/time -f "%M %U %S" -o "$OUT/time.txt" "$CLIENT" profile -m mock-model -u "http://$ADDR" \
  --tokenizer builtin --isl 16 --osl 8 --request-count 1 --concurrency 1 --no-server-metrics \
  --max-response-bytes 1G -H X-Mock-Fault:big-event=104857600 --artifact-dir "$OUT/big" \
  >"$OUT/big.log" 2>&1 || true
read -r rss_kb user_s sys_s <"$OUT/time.txt"
estimated=$(grep -c '"output_tokens_estimated":true' "$OUT/big/profile_export.jsonl" || true)
awk -v r="$rss_kb" -v u="$user_s" -v s="$sys_s" -v e="$estimated" 'BEGIN {
  printf "peak RSS %.0f MB, CPU %.2f s, records with an estimated output count: %d\n",
    r / 1024, u + s, e }'

echo "== 2. dataset memory estimate vs prompt text generated"
printf '%-44s %14s %14s %7s\n' "dataset" "actual" "estimated" "ratio"
estimate_case() {
  local name=$1
  shift
  "$CLIENT" profile -m mock-model -u "http://$ADDR" --request-count 1 --concurrency 1 \
    --no-server-metrics --osl 4 --extra-inputs ignore_eos:true -v \
    --artifact-dir "$OUT/est-$RANDOM" "$@" >"$OUT/est.log" 2>&1 || true
  local line
  line=$(grep -o 'synthetic dataset: .* of prompt text ([^)]* estimated' "$OUT/est.log" | head -1)
  python3 - "$name" "$line" <<'PY'
import re, sys
name, line = sys.argv[1], sys.argv[2]
units = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
m = re.findall(r"([0-9.]+) (B|KiB|MiB|GiB)", line)
if len(m) < 2:
    print(f"{name:44s} (no estimate line)")
else:
    a, e = (float(v) * units[u] for v, u in m[:2])
    print(f"{name:44s} {m[0][0]+' '+m[0][1]:>14s} {m[1][0]+' '+m[1][1]:>14s} {e / a:7.2f}")
PY
}
estimate_case "builtin, 100 entries, ISL 550" --tokenizer builtin
estimate_case "builtin, ISL 3000 +- 500" --tokenizer builtin --isl 3000 --isl-stddev 500
estimate_case "builtin, 3 turns, batch 2" --tokenizer builtin --conversation-turn-mean 3 \
  --batch-size-text 2 --endpoint-type embeddings
estimate_case "no tokenizer (--use-server-token-count)" --use-server-token-count
estimate_case "builtin, 200 entries x ISL 200,000" --tokenizer builtin --isl 200000 \
  --num-dataset-entries 200
echo "files: $OUT"
