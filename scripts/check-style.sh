#!/usr/bin/env bash
# The guards that keep the tree readable, in seconds and without a build (docs/testing.md, Style
# guards):
#   1. every C/C++ file under src apps tests bench fuzz tools is clang-formatted (.clang-format);
#   2. no file in src/ or apps/ is over 600 lines, except the data tables allowed below;
#   3. no function in src/ or apps/ is over 150 lines, except the data tables allowed below.
# Prints every violation and exits 1 if there is one. Files git does not ignore are checked, tracked
# or not, so a new file is checked before it is added.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

readonly MAX_FILE_LINES=600
readonly MAX_FUNCTION_LINES=150

# Files allowed over MAX_FILE_LINES: data tables only, each with its reason.
# Format: "path|reason".
readonly FILE_ALLOW=(
)

# Functions allowed over MAX_FUNCTION_LINES: data tables only, each with its reason.
# Format: "path|function name as it appears in its head|reason".
readonly FUNCTION_ALLOW=(
)

# Existing, not ignored C/C++ files under the given folders (a file deleted but still in the index,
# as while files move, is skipped).
source_files() {
  git ls-files --cached --others --exclude-standard -- "$@" |
    grep -E '\.(cpp|hpp|c|h)$' | sort -u |
    while IFS= read -r f; do [[ -f "$f" ]] && printf '%s\n' "$f"; done
}

allowed() {  # allowed KEY ENTRY... : is KEY ("path" or "path|function") the prefix of an entry?
  local key="$1" entry
  shift
  for entry in "$@"; do [[ "$entry" == "$key|"* ]] && return 0; done
  return 1
}

failed=0

# 1. Formatting.
mapfile -t all_files < <(source_files src apps tests bench fuzz tools)
if ! command -v clang-format >/dev/null; then
  echo "check-style: clang-format not found (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
mapfile -t unformatted_files < <(printf '%s\0' "${all_files[@]}" |
  xargs -0 -n 64 -P 2 clang-format --dry-run --Werror 2>&1 |
  sed -n 's/^\([^ :]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if ((${#unformatted_files[@]})); then
  echo "check-style: not clang-formatted (run clang-format -i on them):"
  printf '  %s\n' "${unformatted_files[@]}"
  failed=1
fi

# 2. File size.
mapfile -t own_files < <(source_files src apps)
while read -r lines file; do
  [[ "$file" == total ]] && continue
  if ((lines > MAX_FILE_LINES)) && ! allowed "$file" "${FILE_ALLOW[@]}"; then
    echo "check-style: $file has $lines lines (at most $MAX_FILE_LINES; split it by what it owns)"
    failed=1
  fi
done < <(printf '%s\0' "${own_files[@]}" | xargs -0 wc -l)

# 3. Function size. The awk reads clang-formatted code, which step 1 guarantees.
read -r -d '' FUNCTION_SIZE_AWK <<'AWK'
# Prints FILE:LINE:LINES:HEAD for every function body longer than max lines. Works on
# clang-formatted code (Google style: namespaces not indented): a top-level body starts at a line
# ending in "{" (its head is the last line that began at column 0) and ends at the next "}" in
# column 0; member functions defined in a class at column 0 start at a line of two-space indent
# ending in "{" and end at the next "}" indented by two.
function report(n, h) {
  if (n > max) { sub(/[ \t]*\{[ \t]*(\/\/.*)?$/, "", h); sub(/^[ \t]+/, "", h); printf "%s:%d:%d:%s\n", FILENAME, start, n, h }
}
FNR == 1 { state = 0; head = ""; headline = 0 }
{
  line = $0
  if (state == 0) {                      # namespace scope
    if (line ~ /^[A-Za-z_~]/ && line !~ /^(public|private|protected):/) { head = line; headline = FNR }
    if (line ~ /\{[ \t]*(\/\/.*)?$/) {
      if (line ~ /^[ \t]*(namespace|extern)/) next
      if (head ~ /^(template[^(]*)?[ \t]*(class|struct|union|enum)[ \t]/ && head !~ /\(/) { state = 2; mhead = ""; next }
      state = 1; start = headline ? headline : FNR
    }
    next
  }
  if (state == 1) {                      # a top-level body
    if (line ~ /^\}/) { report(FNR - start + 1, head); state = 0; head = ""; headline = 0 }
    next
  }
  if (state == 2) {                      # a class body
    if (line ~ /^\}/) { state = 0; head = ""; headline = 0; next }
    if (line ~ /^  [A-Za-z_~]/ && line !~ /^  (public|private|protected):/) { mhead = line; mline = FNR }
    if (line ~ /^  [^ ].*\{[ \t]*(\/\/.*)?$/ || (line ~ /^      .*\{[ \t]*$/ && mhead ~ /\(/ && mline)) {
      if (mhead ~ /^  (template[^(]*)?[ \t]*(class|struct|union|enum)[ \t]/ && mhead !~ /\(/) { state = 4; next }
      state = 3; start = mline ? mline : FNR; next
    }
    if (line ~ /;[ \t]*(\/\/.*)?$/ || line ~ /^[ \t]*$/) mline = 0
    next
  }
  if (state == 3) {                      # a member function body
    if (line ~ /^  \}/) { report(FNR - start + 1, mhead); state = 2; mhead = ""; mline = 0 }
    next
  }
  if (state == 4) { if (line ~ /^  \}/) { state = 2; mhead = ""; mline = 0 } next }  # nested type
}
AWK
while IFS=: read -r file line lines head; do
  name=$(sed -E 's/^.*[ *&]([A-Za-z_~][A-Za-z0-9_:~]*)\(.*$/\1()/' <<<"$head")
  if ! allowed "$file|$name" "${FUNCTION_ALLOW[@]}"; then
    echo "check-style: $file:$line: $name has $lines lines (at most $MAX_FUNCTION_LINES)"
    failed=1
  fi
done < <(printf '%s\0' "${own_files[@]}" |
  xargs -0 awk -v max="$MAX_FUNCTION_LINES" "$FUNCTION_SIZE_AWK")

if ((failed)); then exit 1; fi
echo "check-style: ${#all_files[@]} files formatted; src/ and apps/ within $MAX_FILE_LINES lines a file and $MAX_FUNCTION_LINES a function"
