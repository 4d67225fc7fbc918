#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${1:-release}"
JOBS="${JOBS:-$(nproc)}"
cmake --preset "$PRESET" >/dev/null
cmake --build --preset "$PRESET" -j "$JOBS"
