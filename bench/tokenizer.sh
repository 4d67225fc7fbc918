#!/usr/bin/env bash
# Tokenizer benchmark: C++ encode throughput and load time next to the pinned JavaScript reference
# on the same corpus, same run. Usage: bench/tokenizer.sh [MB (10)]
set -euo pipefail
cd "$(dirname "$0")/.."
MB="${1:-10}"
bash scripts/fetch-tokenizers.sh >/dev/null
[[ -x build/release/bench/inferperf_tokenizer_bench ]] || bash scripts/build.sh release >/dev/null
for n in qwen3 llama3 gpt4o llama2; do
  cpp=$(build/release/bench/inferperf_tokenizer_bench ".cache/tokenizers/$n/tokenizer.json" "tests/data/tokenizer/$n.vectors.jsonl" "$MB")
  js=$(cd tools/tokenizer-vectors && node bench.mjs "$n" "../../tests/data/tokenizer/$n.vectors.jsonl" "$MB")
  echo "$n  C++: $cpp"
  echo "$n  JS:  $js"
done
