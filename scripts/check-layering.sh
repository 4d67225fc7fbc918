#!/usr/bin/env bash
# Fails when a file in src/<module>/ includes a header of a module library its own library does not
# link (directly or through others). A file belongs to the library whose SOURCES list its .cpp; a
# header without a .cpp belongs to the first library of its folder (in src/<module>/CMakeLists.txt
# order) that links everything the header includes. The links themselves are checked against the
# layers of cmake/module_graph.cmake when CMake configures.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

# Every include in src/ must have a form the scan below reads: `#include "<folder>/<file>"` at the
# start of the line, or `#include <...>` of a system or third-party header that is no module folder.
# A bare `"file.hpp"` (found next to the includer first) or a `"../"` path would slip past it.
modules="$(find src -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | paste -sd'|')"
odd="$(grep -rHnE '^[[:space:]]*#[[:space:]]*include' src --include='*.hpp' --include='*.cpp' \
  --include='*.h' | grep -vE ':[0-9]+:#include ("[a-z_]+/[^".]+\.[a-z]+"|<[^>]+>)' || true)"
odd+="$(grep -rHnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($modules)/" src \
  --include='*.hpp' --include='*.cpp' --include='*.h' || true)"
if [[ -n "$odd" ]]; then
  printf '%s\n' "$odd"
  echo "check-layering: write module includes as #include \"<module>/<file>.hpp\" at the start of the line" >&2
  exit 1
fi

awk -F'\t' '
  # Which library can see which: closure(L) holds L and everything it links, transitively.
  function sees(from, to) { return (from SUBSEP to) in closure }
  function close_over(lib,    n, d, i) {
    if (lib in done) return
    done[lib] = 1; closure[lib, lib] = 1
    n = split(links[lib], d, " ")
    for (i = 1; i <= n; i++) { close_over(d[i]); add_all(lib, d[i]) }
  }
  function add_all(lib, dep,    key, p) {
    for (key in closure) { split(key, p, SUBSEP); if (p[1] == dep) closure[lib, p[2]] = 1 }
  }
  # The stem of a source path: "telemetry/collector.hpp" -> "telemetry/collector".
  function stem(path) { sub(/\.[a-z]+$/, "", path); return path }
  function dir_of(path) { sub(/\/.*/, "", path); return path }
  # The library a file belongs to; "" while a header-only file is unresolved (no array entry made).
  function owner_of(path,    k) { k = stem(path); return (k in owner) ? owner[k] : "" }

  NR == FNR {  # the module lists
    libs[++nlibs] = $1; links[$1] = $3; lib_dir[$1] = $2
    if (!($2 in first)) first[$2] = $1
    n = split($4, s, " "); for (i = 1; i <= n; i++) owner[stem($2 "/" s[i])] = $1
    next
  }
  {  # grep output: src/<file>:#include "<dir>/<header>"
    file = $0; sub(/:.*/, "", file); sub(/^src\//, "", file)
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/"$/, "", inc)
    if (!(dir_of(inc) in first)) next  # not a module header (a third-party or test path)
    files[file] = 1; incs[file] = incs[file] " " inc; files[inc] = 1
  }
  END {
    for (i = 1; i <= nlibs; i++) close_over(libs[i])
    # Header-only files: resolved lowest library first, repeated while headers of headers resolve.
    for (pass = 0; pass < 8; pass++)
      for (f in files) if (!(stem(f) in owner)) resolve(f, pass == 7)
    bad = 0
    for (f in files) {
      from = owner_of(f); n = split(incs[f], t, " ")
      for (i = 1; i <= n; i++) {
        to = owner_of(t[i])
        if (to != "" && !sees(from, to)) {
          printf "src/%s (inferperf_%s) includes %s of inferperf_%s, which it does not link\n", f, from, t[i], to
          bad = 1
        }
      }
    }
    if (bad) print "check-layering: link the module in src/*/CMakeLists.txt (within the layers of cmake/module_graph.cmake) or drop the include" > "/dev/stderr"
    exit bad
  }
  # The first library of the header folder that sees every library the header includes; with
  # `last` set, unresolved includes are ignored (and the folder top library is the fallback).
  function resolve(f, last,    d, n, t, i, j, lib, ok, to, top) {
    d = dir_of(f); n = split(incs[f], t, " ")
    for (i = 1; i <= n; i++) if (!(stem(t[i]) in owner) && t[i] != f && !last) return
    for (j = 1; j <= nlibs; j++) {
      lib = libs[j]; if (lib_dir[lib] != d) continue
      ok = 1
      for (i = 1; i <= n; i++) { to = owner_of(t[i]); if (to != "" && !sees(lib, to)) ok = 0 }
      top = lib
      if (ok) { owner[stem(f)] = lib; return }
    }
    if (last) owner[stem(f)] = top
  }
' <(scripts/gen-module-graph.sh --tsv) \
  <(grep -rHo '^#include "[a-z_]*/[^"]*"' src --include='*.hpp' --include='*.cpp' --include='*.h')
