#!/usr/bin/env bash
# One command for a new user: install dependencies and the builtin tokenizer, build, start the
# bundled mock server on a free loopback port, run a real streaming benchmark against it and stop
# the server again.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh --build
bash scripts/fetch-tokenizers.sh
# Only the two programs are built. The test suite needs GoogleTest, which --build does not install:
# without it the tree is configured with the tests off (scripts/test.sh turns them on again).
TESTS=()
if ! dpkg-query -W -f='${Status}' libgtest-dev 2>/dev/null | grep -q "install ok installed"; then
  TESTS=(-DINFERPERF_BUILD_TESTS=OFF)
fi
cmake --preset release "${TESTS[@]}" >/dev/null
cmake --build --preset release -j "${JOBS:-$(nproc)}" --target inferperf inferperf-mock-server

BIN=build/release/apps
MOCK_LOG=$(mktemp)
"$BIN/mock-server/inferperf-mock-server" --port 0 >"$MOCK_LOG" 2>&1 &
MOCK_PID=$!
trap 'kill "$MOCK_PID" 2>/dev/null || true; wait "$MOCK_PID" 2>/dev/null || true; rm -f "$MOCK_LOG"' EXIT

ADDR=""
for _ in $(seq 1 100); do
  ADDR=$(sed -n 's/^inferperf-mock-server listening on //p' "$MOCK_LOG")
  [[ -n "$ADDR" ]] && break
  sleep 0.1
done
if [[ -z "$ADDR" ]]; then
  echo "demo: the mock server did not start:" >&2
  cat "$MOCK_LOG" >&2
  exit 1
fi
echo "demo: mock server listening on $ADDR"

"$BIN/inferperf" profile \
  --model mock-model \
  --url "http://$ADDR" \
  --endpoint-type chat \
  --streaming \
  --concurrency 8 \
  --request-count 200 \
  --synthetic-input-tokens-mean 128 \
  --output-tokens-mean 64 \
  --random-seed 42 \
  "$@"
