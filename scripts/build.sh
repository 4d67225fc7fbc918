#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release). Idempotent.
#   scripts/build.sh [PRESET [-DNAME=VALUE...]]   (the -D settings go to the configure step)
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${1:-release}"
JOBS="${JOBS:-$(nproc)}"
cmake --preset "$PRESET" "${@:2}" >/dev/null
cmake --build --preset "$PRESET" -j "$JOBS"
