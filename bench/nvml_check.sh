#!/usr/bin/env bash
# NVML check on a real NVIDIA machine (docs/telemetry.md): a 5 s benchmark against the mock server
# with --gpu-telemetry nvml while a PyTorch matmul loop loads GPU 0, nvidia-smi before and after,
# then the standalone probe built with the machine's own g++. Results go to $OUT (default
# /tmp/nvml-check). BIN: folder holding inferperf and inferperf-mock-server (default the release
# build). LIBDIR: optional folder of carried shared libraries plus ld-linux-x86-64.so.2, for a
# machine whose own libraries differ from the build machine's.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/nvml-check}
mkdir -p "$OUT"
BIN=${BIN:-build/release/apps}
MOCK=$BIN/inferperf-mock-server
[ -x "$MOCK" ] || MOCK=$BIN/mock-server/inferperf-mock-server
run() {
  if [ -n "${LIBDIR:-}" ]; then
    local nv
    nv=$(ldconfig -p | awk '/libnvidia-ml.so.1/{print $NF; exit}')
    "$LIBDIR/ld-linux-x86-64.so.2" --library-path \
      "$LIBDIR:$(dirname "${nv:-/usr/local/nvidia/lib64/x}"):/usr/local/nvidia/lib64" "$@"
  else
    "$@"
  fi
}
nvidia-smi --query-gpu=name,uuid,pci.bus_id,power.draw,temperature.gpu,utilization.gpu,memory.used \
  --format=csv | tee "$OUT/nvidia-smi-before.csv"
run "$MOCK" --port 18555 --ttft 5 --itl 2 > "$OUT/mock.log" 2>&1 &
mock_pid=$!
sleep 1
python3 -c "
import torch, time
a = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)
t = time.time()
while time.time() - t < 9:
    b = a @ a
torch.cuda.synchronize()
" > "$OUT/load.log" 2>&1 &
load_pid=$!
sleep 2
timeout 60 bash -c "$(declare -f run); run \"$BIN/inferperf\" profile -m mock-model \
  -u 127.0.0.1:18555 --streaming --concurrency 16 --benchmark-duration 5 --tokenizer builtin \
  --gpu-telemetry nvml --artifact-dir '$OUT/art' --no-server-metrics"
echo "exit=$?"
nvidia-smi --query-gpu=power.draw,temperature.gpu,utilization.gpu,memory.used --format=csv |
  tee "$OUT/nvidia-smi-after.csv"
kill "$mock_pid"
wait "$load_pid"
g++ -std=c++20 -O2 -Isrc tools/nvml_probe.cpp src/telemetry/nvml.cpp src/core/error.cpp -ldl \
  -o "$OUT/nvml_probe" && "$OUT/nvml_probe"
