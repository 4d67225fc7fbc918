#!/usr/bin/env bash
# Real-engine check: inferperf against a real llama.cpp `llama-server` (opt-in, not part of CI).
#
# The mock server can only confirm what its authors thought a server does; this check runs the
# client against a real inference engine on this machine, CPU only, with a tiny random-weight
# model whose outputs have exact lengths, and fails when inferperf's numbers disagree with what
# the server says it did:
#   * every planned request is measured and none fails with default flags,
#   * OSL equals the server's usage.completion_tokens per request (--use-server-token-count),
#   * ISL equals the server's usage.prompt_tokens minus one constant offset (the chat template),
#   * the streamed inter-token latency is within ITL_TOL_PCT of the server's own decode time
#     per token (llama-server's `timings.predicted_ms / (predicted_n - 1)`).
#
# Steps (each is skipped when its output already exists, so a re-run only re-measures):
#   1. missing Debian packages via apt-get,
#   2. llama.cpp sources from the npm package node-llama-cpp (it ships them as a git bundle),
#   3. a niced CPU-only build of the llama-server target,
#   4. the tiny GGUF model (bench/real_engine/make_model.py) and a 64-row mooncake trace,
#   5. llama-server on a free loopback port, 1 thread (the other core is the client's),
#   6. the NIM guide's concurrency sweep over the trace, then a chat/completions x
#      streaming/non-streaming matrix, each checked by bench/real_engine/check_run.py.
#
# Usage: bench/real_engine.sh   (as root on Debian 12; about 15 minutes the first time)
# Environment:
#   INFERPERF_BIN          binary to test (default build/release/apps/inferperf); it is copied,
#                          with its ../share tokenizer folder, so a rebuild can't change it mid-run
#   REAL_ENGINE_DIR        work folder, kept for inspection (default /tmp/inferperf-real-engine)
#   REAL_ENGINE_SWEEP      concurrencies of the sweep (default "1 2 4 8 16 32 64")
#   REAL_ENGINE_VOCAB      builtin (default: inferperf's builtin o200k tokenizer, so client and
#                          server count tokens alike) or llama-bpe (llama.cpp's Llama-3 vocabulary)
#   REAL_ENGINE_PARALLEL   llama-server slots (default 4)
#   REAL_ENGINE_JOBS       build jobs (default 2)
#   ITL_TOL_PCT            ITL tolerance against the server's decode time per token (default 5)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HELPERS="$REPO/bench/real_engine"
W=${REAL_ENGINE_DIR:-/tmp/inferperf-real-engine}
INFERPERF_BIN=${INFERPERF_BIN:-$REPO/build/release/apps/inferperf}
SWEEP=${REAL_ENGINE_SWEEP:-"1 2 4 8 16 32 64"}
VOCAB=${REAL_ENGINE_VOCAB:-builtin}
PARALLEL=${REAL_ENGINE_PARALLEL:-4}
JOBS=${REAL_ENGINE_JOBS:-2}
ITL_TOL_PCT=${ITL_TOL_PCT:-5}
# Debian's interpreter: a python3 earlier on PATH (pyenv) would not see python3-numpy.
PY=/usr/bin/python3

SERVER_PID=""
PORT=""
FAILED=()

log() { printf '[real_engine %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Stop the server we started (and only it) whatever way the script ends.
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

# 1. Packages. A package is installed only when what it provides is missing, judged by the
# command (or module) itself: node and npm often come from elsewhere than apt (nodesource, nvm),
# and installing Debian's npm over those fails with held packages.
install_packages() {
  local missing=() need
  for need in cmake:cmake make:make g++:g++ git:git curl:curl openssl:openssl npm:npm; do
    command -v "${need%%:*}" >/dev/null 2>&1 || missing+=("${need#*:}")
  done
  [[ -x "$PY" ]] || missing+=(python3)
  { [[ -x "$PY" ]] && "$PY" -c 'import numpy' 2>/dev/null; } || missing+=(python3-numpy)
  [[ -e /etc/ssl/certs/ca-certificates.crt ]] || missing+=(ca-certificates)
  if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# 2. llama.cpp sources. node-llama-cpp carries the exact llama.cpp tree it builds against as
# package/llama/gitRelease.bundle; the npm registry is reachable where GitHub is not.
fetch_sources() {
  [[ -d "$W/llama.cpp/.git" ]] && return
  mkdir -p "$W/npm"
  local tgz
  tgz=$(cd "$W/npm" && npm pack node-llama-cpp --silent | tail -n1)
  [[ -f "$W/npm/$tgz" ]] || die "npm pack node-llama-cpp produced no tarball"
  tar -xzf "$W/npm/$tgz" -C "$W/npm"
  local bundle="$W/npm/package/llama/gitRelease.bundle"
  [[ -f "$bundle" ]] || die "node-llama-cpp ($tgz) has no package/llama/gitRelease.bundle"
  git -c advice.detachedHead=false clone -q "$bundle" "$W/llama.cpp"
  log "llama.cpp sources from $tgz: commit $(git -C "$W/llama.cpp" rev-parse --short HEAD)"
}

# Adds -D$1 to CMAKE_ARGS only when this llama.cpp version still declares that option: options
# come and go between releases (LLAMA_CURL was replaced by LLAMA_OPENSSL, the UI options are new).
cmake_opt_if_known() {
  local name=${1%%=*}
  grep -rqs --include=CMakeLists.txt "option(${name}[[:space:]]" "$W/llama.cpp" && CMAKE_ARGS+=("-D$1")
  return 0
}

# 3. Only the server target, CPU only, no network at build time (no prebuilt web UI download).
build_server() {
  SERVER_BIN="$W/build/bin/llama-server"
  [[ -x "$SERVER_BIN" ]] && return
  CMAKE_ARGS=(-DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DBUILD_SHARED_LIBS=OFF)
  local o
  for o in LLAMA_CURL=OFF LLAMA_OPENSSL=OFF LLAMA_BUILD_TESTS=OFF LLAMA_BUILD_EXAMPLES=OFF \
           LLAMA_BUILD_TOOLS=ON LLAMA_BUILD_SERVER=ON LLAMA_BUILD_UI=OFF LLAMA_USE_PREBUILT_UI=OFF GGML_CCACHE=OFF; do
    cmake_opt_if_known "$o"
  done
  log "building llama-server (nice 15, -j$JOBS; about 10 minutes on 2 cores)"
  # nice: the machine is shared with whoever else builds or measures on it.
  nice -n 15 cmake -S "$W/llama.cpp" -B "$W/build" "${CMAKE_ARGS[@]}" >"$W/configure.log" 2>&1 \
    || die "cmake configure failed, see $W/configure.log"
  nice -n 15 cmake --build "$W/build" --target llama-server -j"$JOBS" >"$W/build.log" 2>&1 \
    || die "llama-server build failed, see $W/build.log"
}

# A private copy of the binary under test and the tokenizer folder it finds at <exe>/../share.
copy_inferperf() {
  [[ -x "$INFERPERF_BIN" ]] || die "no inferperf binary at $INFERPERF_BIN (set INFERPERF_BIN)"
  local src_share
  src_share="$(cd "$(dirname "$INFERPERF_BIN")/.." && pwd)/share"
  rm -rf "$W/inferperf"
  mkdir -p "$W/inferperf/bin"
  cp "$INFERPERF_BIN" "$W/inferperf/bin/inferperf"
  [[ -d "$src_share" ]] && cp -r "$src_share" "$W/inferperf/share"
  IP="$W/inferperf/bin/inferperf"
  BUILTIN_TOKENIZER="$W/inferperf/share/inferperf/tokenizers/builtin/tokenizer.json"
  log "inferperf under test: $INFERPERF_BIN (modified $(date -u -r "$INFERPERF_BIN" '+%F %T UTC'), sha256 $(sha256sum "$IP" | cut -c1-12))"
}

# 4. Model and trace.
make_inputs() {
  case "$VOCAB" in
    builtin)
      [[ -f "$BUILTIN_TOKENIZER" ]] || die "no builtin tokenizer next to the binary ($BUILTIN_TOKENIZER); see scripts/fetch-tokenizers.sh"
      MODEL_FILE="$W/model-o200k.gguf"; VOCAB_ARGS=(--vocab-json "$BUILTIN_TOKENIZER") ;;
    llama-bpe)
      MODEL_FILE="$W/model-llama-bpe.gguf"
      VOCAB_ARGS=(--vocab-gguf "$W/llama.cpp/models/ggml-vocab-llama-bpe.gguf") ;;
    *) die "REAL_ENGINE_VOCAB must be builtin or llama-bpe, not $VOCAB" ;;
  esac
  if [[ ! -f "$MODEL_FILE" ]]; then
    PYTHONPATH="$W/llama.cpp/gguf-py" nice -n 15 "$PY" "$HELPERS/make_model.py" --out "$MODEL_FILE.tmp" "${VOCAB_ARGS[@]}"
    mv "$MODEL_FILE.tmp" "$MODEL_FILE"
  fi
  TRACE="$W/trace.jsonl"
  [[ -f "$TRACE" ]] || "$PY" "$HELPERS/make_trace.py" "$TRACE" 64
}

free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# 5. The server: -t 1 leaves the second core to the client. --threads-http above the largest
# concurrency so requests queue for a slot inside llama-server, not in its HTTP accept backlog.
# --metrics as a deployment would run it: inferperf scrapes /metrics by default (and warns when
# it answers 501).
start_server() {
  local max_c=0 c
  for c in $SWEEP 4; do ((c > max_c)) && max_c=$c; done
  PORT=$(free_port)
  log "starting llama-server on 127.0.0.1:$PORT (parallel $PARALLEL, 1 thread)"
  "$SERVER_BIN" -m "$MODEL_FILE" --host 127.0.0.1 --port "$PORT" -t 1 -tb 1 \
    --parallel "$PARALLEL" -c $((PARALLEL * 4096)) --threads-http $((max_c + 8)) --metrics \
    --alias "inferperf-tiny-$VOCAB" \
    >"$W/server.log" 2>&1 &
  SERVER_PID=$!
  local _
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; then break; fi
    kill -0 "$SERVER_PID" 2>/dev/null || die "llama-server exited, see $W/server.log"
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null || die "llama-server not healthy after 120 s"
  MODEL=$(curl -fsS "http://127.0.0.1:$PORT/v1/models" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
  log "server model id: $MODEL"
}

# The model's outputs must have exact lengths: sample a few and compare with max_tokens.
sample_completions() {
  local n body out
  for n in 8 33; do
    body=$(printf '{"model":"%s","prompt":"Once upon a time","max_tokens":%d,"ignore_eos":true,"stream":false}' "$MODEL" "$n")
    out=$(curl -fsS "http://127.0.0.1:$PORT/v1/completions" -H 'Content-Type: application/json' -d "$body")
    printf '%s' "$out" | "$PY" -c '
import json, sys
r = json.load(sys.stdin); want = int(sys.argv[1])
got = r["usage"]["completion_tokens"]
print("sample: %d/%d tokens, finish_reason %s, text %r" % (got, want, r["choices"][0]["finish_reason"], r["choices"][0]["text"][:60]))
sys.exit(0 if got == want else 1)' "$n" >&2 || die "the model did not generate exactly $n tokens"
  done
}

# One inferperf run and its check. $1 = run name, $2 = planned request count, $3 = extra
# check_run.py arguments (the plan's lengths), rest = inferperf flags.
run_and_check() {
  local name=$1 planned=$2 check_args=$3; shift 3
  local extra=()
  read -r -a extra <<<"$check_args"
  [[ " $* " == *" --streaming "* ]] && extra+=(--streaming)
  [[ " $* " == *" --use-server-token-count "* ]] && extra+=(--server-counts)
  # Another vocabulary than the client's builtin one: prompt lengths differ per prompt.
  [[ $VOCAB != builtin ]] && extra+=(--isl-informational)
  local dir="$W/artifacts/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  log "run $name: inferperf profile $*"
  local rc=0
  "$IP" profile --ui none -m "$MODEL" --tokenizer builtin --url "http://127.0.0.1:$PORT" \
    --artifact-dir "$dir" "$@" >"$dir/console.log" 2>&1 || rc=$?
  # Every warning inferperf printed on a run that should be clean is a finding: keep them.
  grep -iE 'warn|discrepan|saturat|mismatch|error' "$dir/console.log" | sed "s/^/[$name] /" >>"$W/warnings.txt" || true
  # The 1-minute load average at the end of the run: client-health verdicts on a 2-core machine
  # shared with builds depend on it.
  extra+=(--load "$(cut -d' ' -f1 /proc/loadavg)")
  if ! "$PY" "$HELPERS/check_run.py" --name "$name" --dir "$dir" --planned "$planned" \
       --exit-code "$rc" --itl-tol-pct "$ITL_TOL_PCT" --results "$W/results.jsonl" "${extra[@]}"; then
    FAILED+=("$name")
  fi
}

# 6a. The NIM LLM benchmarking guide's sweep over the trace, flags as the guide writes them.
run_sweep() {
  local rows c
  rows=$(grep -c '' "$TRACE")
  for c in $SWEEP; do
    run_and_check "c$c" "$rows" "--planned-isl-file $TRACE --planned-osl-file $TRACE" --endpoint-type chat --streaming --concurrency "$c" --workers-max "$c" \
      --input-file "$TRACE" --custom-dataset-type mooncake_trace --no-fixed-schedule \
      --dataset-sampling-strategy sequential --use-server-token-count \
      --extra-inputs ignore_eos:true --extra-inputs "cache_salt:salt_$(openssl rand -hex 6)" \
      --num-requests "$rows"
  done
}

# 6b. Both endpoints, streamed and not, default flags (client tokenizer counts).
run_matrix() {
  local ep stream
  for ep in chat completions; do
    for stream in streaming non-streaming; do
      local flags=(--endpoint-type "$ep" --concurrency 4 --request-count 20 --isl 200 --osl 32
                   --extra-inputs ignore_eos:true)
      [[ $stream == streaming ]] && flags+=(--streaming)
      run_and_check "$ep-$stream" 20 "--planned-isl 200 --planned-osl 32" "${flags[@]}"
    done
  done
}

main() {
  [[ $(id -u) == 0 ]] || log "not root: apt-get may fail if packages are missing"
  mkdir -p "$W"
  install_packages
  fetch_sources
  build_server
  copy_inferperf
  make_inputs
  start_server
  sample_completions
  rm -f "$W/results.jsonl" "$W/warnings.txt"
  touch "$W/warnings.txt"
  run_sweep
  run_matrix
  "$PY" "$HELPERS/check_run.py" --summary "$W/results.jsonl" | tee "$W/summary.txt"
  if [[ -s "$W/warnings.txt" ]]; then
    log "inferperf printed these warnings (all runs were expected clean):"
    cat "$W/warnings.txt" >&2
  fi
  if ((${#FAILED[@]})); then
    log "FAILED: ${FAILED[*]} (details above and in $W/artifacts/<run>/check.txt)"
    exit 1
  fi
  log "all checks passed; work folder kept at $W"
}

main "$@"
