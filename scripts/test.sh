#!/usr/bin/env bash
# One command for the whole test suite: install dependencies, check the style guards
# (scripts/check-style.sh), build the release and the ASan+UBSan and TSan trees, and run every CTest
# label (unit, integration, fuzz, browser, sanitizer), plus a time-boxed libFuzzer run of every
# parser (scripts/fuzz.sh). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
# Format, file-size and function-size guards first: seconds, no build (docs/testing.md).
bash scripts/check-style.sh
bash scripts/fetch-tokenizers.sh

# Tests on: scripts/demo.sh configures this tree without them where GoogleTest is not installed.
bash scripts/build.sh release -DINFERPERF_BUILD_TESTS=ON
ctest --preset release -L 'unit|integration|fuzz' --timeout 300 -j 2

# The plot report in headless chromium (playwright-core, pinned by tests/browser/package-lock.json).
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
ctest --preset release -L browser --timeout 180 --output-on-failure

# The fuzz targets over their committed seeds and whatever they find in FUZZ_SECONDS (the CI budget
# gives the fuzz label 5 minutes; the seeds replay in well under a second above and again under ASan).
FUZZ_SECONDS="${FUZZ_SECONDS:-90}" bash scripts/fuzz.sh

bash scripts/build.sh asan-ubsan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan-ubsan -L sanitizer --timeout 600 -j 2

# ThreadSanitizer on the threaded core (the CI budget, docs/decisions.md): the issuer, scheduler and
# precise waiter, credits held ahead on the workers, the record and telemetry collectors and the
# records' queue, the records read back a thread ahead, the inputs.json writer beside the run, the
# workers' response path (the plain-socket read operation), and the end-to-end runs that drive
# them all together (streaming, faults and signals, load modes, TLS and Unix sockets, GPU telemetry, subagent traces,
# the live views: LiveStats fed and read concurrently, the dashboard's UI thread in tmux while it
# counts and when q stops the run; the OTLP push, Prometheus endpoint and MLflow export threads). Single-threaded parsers, loaders, tokenizers, the endpoint
# formats (one worker path for all), the preflight probe (before any thread starts) and the
# terminal-restore checks run under ASan+UBSan above.
TSAN_TESTS='^(IssuerLoop|PreciseWaiter|HandAhead|HeldCredits|InterruptHandAhead|Scheduler[A-Za-z]*'
TSAN_TESTS+='|Collector|CollectorUrls|ResponseCollector|ResponseCollectorRaw|ProfileStreaming'
TSAN_TESTS+='|ProfileErrors|Faults/ProfileFaults|LoadModes|CollectorStreaming|RecordReader'
TSAN_TESTS+='|PlainRead|InputsJsonBesideRun|RecordQueue'
TSAN_TESTS+='|Endpoints|Tls|Transport|GpuTelemetry|ServerMetrics|WekaTrace'
TSAN_TESTS+='|ProfileDuration|StreamStalls|Reliability|Interruption|Durability|LiveStats'
TSAN_TESTS+='|OtlpExport|PrometheusEndpoint|MlflowExport)\.'
TSAN_TESTS+='|^Ui\.(DashboardShows|QStops)'
# Of those, the one that tokenizes a 1 MiB event on one thread (its slowest, 36 s) stays in ASan.
TSAN_SKIP='^ProfileErrors\.BigEventIsMeasuredNormally$'
# Only the binaries those tests live in (and the apps they run) are built under TSan.
TSAN_TARGETS=(test_timing test_telemetry test_worker test_metrics test_records test_artifacts
  test_transport test_plain_read test_integration_profile
  test_integration_endpoints test_integration_transport test_integration_reliability test_ui
  test_integration_ui)
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$(nproc)" --target "${TSAN_TARGETS[@]}"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --preset tsan -L sanitizer -R "$TSAN_TESTS" -E "$TSAN_SKIP" --no-tests=error --timeout 900 -j 2
