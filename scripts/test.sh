#!/usr/bin/env bash
# One command for the whole test suite: install dependencies, build the release and the
# ASan+UBSan and TSan trees, and run every CTest label (unit, integration, sanitizer). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
bash scripts/fetch-tokenizers.sh

bash scripts/build.sh release
ctest --preset release -L 'unit|integration' --timeout 300 -j 2

bash scripts/build.sh asan-ubsan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan-ubsan -L sanitizer --timeout 600 -j 2

# ThreadSanitizer over the same tests: the issuer, workers and collector are the threaded core.
bash scripts/build.sh tsan
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --preset tsan -L sanitizer --timeout 900 -j 2
