#!/usr/bin/env bash
# Usage: scripts/help-table.sh BINARY
#
# Reads `BINARY --help` and, recursively, the --help of every subcommand it lists (CLI11's layout:
# a description line, "Usage: ...", then sections "Positionals:", "Options:", "Subcommands:" or an
# option group name, each entry starting in column 3 with its description from column 31 or on the
# lines below), and prints one tab-separated record a line for scripts/gen-man.sh and
# scripts/gen-completions.sh:
#
#   cmd   PATH  DESCRIPTION  USAGE            (one per command; PATH is "" for the program itself,
#                                              else its subcommand names joined by spaces)
#   sub   PATH  NAME  DESCRIPTION             (a subcommand of PATH)
#   pos   PATH  NAME  TYPE  MULTI  REQUIRED  DESCRIPTION
#   opt   PATH  GROUP  NAMES  TYPE  MULTI  REQUIRED  DESCRIPTION
#   note  PATH  TEXT                          (a paragraph after the sections)
#
# NAMES is the option's spellings joined by commas (-m,--model-names,--model); TYPE is what CLI11
# prints after them without the markers read into MULTI ("..."), REQUIRED, Needs:/Excludes: and
# (Env:...), e.g. "TEXT:{light,dark}=light" or "INT"; empty for a flag.
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BINARY" >&2
  exit 2
fi
bin=$1
prog=$(basename "$bin")

read -r -d '' PARSE_AWK <<'AWK' || true
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function clean(s) { gsub(/\t/, " ", s); return trim(s) }
function settle() {
  if (pending == "") return
  if (length(pending) > 30 && substr(pending, 30, 1) == " ") {
    head = trim(substr(pending, 1, 30)); desc = substr(pending, 31)
  } else {
    head = trim(pending); desc = ""
  }
  pending = ""
}
function flush(   names, rest, type, multi, required, n, parts, i, out) {
  settle()
  if (head == "") return
  d = clean(desc)
  if (section == "Subcommands") {
    split(head, parts, /[ ]+/)
    print "sub\t" path "\t" parts[1] "\t" d
  } else {
    names = head; rest = ""
    if (match(head, /[ ]/)) { names = substr(head, 1, RSTART - 1); rest = substr(head, RSTART + 1) }
    if (match(rest, /\(Env:[^)]*\)/)) {
      d = d (d ~ /[.!?]$/ ? "" : ".") " Environment variable: " substr(rest, RSTART + 5, RLENGTH - 6) "."
      sub(/ ?\(Env:[^)]*\)/, "", rest)
    }
    if (match(rest, /(^| )(Needs|Excludes):/)) rest = substr(rest, 1, RSTART - 1)
    multi = 0; required = 0
    if (rest ~ /(^| )REQUIRED( |$)/) { required = 1; sub(/(^| )REQUIRED( |$)/, " ", rest) }
    if (rest ~ /(^| )\.\.\.( |$)/) { multi = 1; sub(/(^| )\.\.\.( |$)/, " ", rest) }
    type = trim(rest)
    if (section == "Positionals") {
      print "pos\t" path "\t" names "\t" type "\t" multi "\t" required "\t" d
    } else {
      # A negatable flag is printed as --flag,--no-flag{false}.
      n = split(names, parts, ",")
      out = ""
      for (i = 1; i <= n; i++) { sub(/\{.*$/, "", parts[i]); out = out (i > 1 ? "," : "") parts[i] }
      print "opt\t" path "\t" section "\t" out "\t" type "\t" multi "\t" required "\t" d
    }
  }
  head = ""; desc = ""
}
NR == 1 { first = $0; next }
state == "" && /^Usage: / {
  # CLI11 starts a subcommand's usage with its own name or with the whole path: print the path.
  n = split(clean(substr($0, 8)), words, / /)
  split(prog " " path, known, / /)
  for (i = 1; i <= n; i++) {
    hit = 0
    for (k in known) if (words[i] == known[k]) hit = 1
    if (!hit) break
  }
  usage = prog (path == "" ? "" : " " path)
  for (; i <= n; i++) usage = usage " " words[i]
  if (path == "") { d = first; sub(/^[^ ]+ - /, "", d) } else d = first
  print "cmd\t" path "\t" clean(d) "\t" usage
  state = "body"; next
}
state == "" { first = first " " $0; next }
/^[ \t]*$/ { flush(); next }
/^[^ ].*:$/ { flush(); section = substr($0, 1, length($0) - 1); next }
/^[^ ]/ { flush(); print "note\t" path "\t" clean($0); next }
# An entry: its name padded to 30 columns and the description, or a name of 30 columns or more
# alone, with the description on the next line, which starts with 30 spaces. Which one it is shows
# only on that next line.
/^  [^ ]/ { flush(); pending = $0; next }
/^   / {
  if (pending != "") { head = trim(pending); desc = ""; pending = "" }
  desc = desc " " trim($0)
  next
}
# A command that prints a message instead of its help (it takes no options): the message is its
# description.
END {
  if (state == "") print "cmd\t" path "\t" clean(first) "\t" prog (path == "" ? "" : " " path)
  flush()
}
AWK

# walk [SUBCOMMAND...]: the records of one command, then of each of its subcommands.
walk() {
  local text records sub
  if ! text=$("$bin" "$@" --help 2>&1); then
    echo "help-table: '$bin $* --help' failed:" >&2
    printf '%s\n' "$text" >&2
    exit 1
  fi
  records=$(printf '%s\n' "$text" | awk -v path="$*" -v prog="$prog" "$PARSE_AWK")
  printf '%s\n' "$records"
  # (awk: read would merge the empty PATH field's two tabs into one.)
  while IFS= read -r sub; do
    walk "$@" "$sub"
  done < <(awk -F'\t' '$1 == "sub" { print $3 }' <<<"$records")
}

walk
