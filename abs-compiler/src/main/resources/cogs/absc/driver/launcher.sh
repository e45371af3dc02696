#!/usr/bin/env bash
# @NAME@: an ABS model compiled by absc @VERSION@ ('absc package'). Needs a JDK or JRE 17 or newer
# (JAVA_HOME, or java on PATH); nothing else. The directory this script is in may be moved.
#
#   @NAME@ [--workers N] [--clock-limit T] [--port PORT [Model API options]] [--record FILE [--record-format F] | --replay FILE] [--strict] [--no-end-report] [-- ARG...]
#   @NAME@ --help
#
# JAVA_OPTS adds options to the JVM (e.g. JAVA_OPTS=-Xmx4g). The first run on a JDK writes a
# class-data archive of the program into lib/ (when lib/ is writable), which later runs map to
# start faster; ABSC_NO_CDS=1 turns that off.
set -euo pipefail

name="@NAME@"
script="${BASH_SOURCE[0]}"
while [ -L "$script" ]; do
  target="$(readlink "$script")"
  case "$target" in /*) script="$target" ;; *) script="$(dirname "$script")/$target" ;; esac
done
lib="$(cd "$(dirname "$script")/../lib" && pwd)"

# The program's options (--help lists them) are the program's to parse and check: they are passed
# through unchanged, as is everything after '--' (cogs.absc.run.ProgramCommandLine, the checks
# 'absc run' makes). This script only does what must happen before a JVM starts.
props=(@PROPS@ "-Dcogs.absc.program=$name") # what 'absc package' was told (the --foreign bindings), and the name for messages

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
  java="$(command -v java)"
else
  echo "$name: 'java' not found (set JAVA_HOME or put a Java 17 or newer on PATH)" >&2
  exit 2
fi

cp=""
for jar in @JARS@; do cp="${cp:+$cp:}$lib/$jar"; done

# A class-data archive per JDK and per place of this directory (an archive records the jars'
# paths; one made before a move would be refused, silently, so a moved package makes a new one).
# What to give the JVM is absc's choice (cogs.absc.driver.ClassData), written here when the
# package was made: one plan for JDKs from $cd_min_jdk to before $cd_jdk, one from $cd_jdk on. @BASE@ in them is the
# archive's path without its extension; @TMP@ the file the first run writes, @NEW@ the file a
# second JVM makes from it (when the plan has a `make`).
@CLASSDATA@
# (Native access: the SQLite driver loads its library; JDK 24+ warns without it. As FastRun.JvmOptions.)
opts=(-Xss256m --enable-native-access=ALL-UNNAMED)
tmp=""
# A run that only prints the program's help would record an archive without the program's classes.
record=1
for arg in "$@"; do case "$arg" in --) break ;; -h|--help) record="" ;; esac; done
if [ -z "${ABSC_NO_CDS:-}" ] && [ -w "$lib" ]; then
  java_real="$(readlink -f "$java" 2>/dev/null || echo "$java")"
  jdk="$(dirname "$(dirname "$java_real")")"
  major=0
  while IFS= read -r line; do
    case "$line" in JAVA_VERSION=*) line="${line#JAVA_VERSION=\"}"; major="${line%%[!0-9]*}" ;; esac
  done <"$jdk/release" 2>/dev/null || true
  sum="$(printf '%s|%s|%s' "$java_real" "$(stat -c %Y "$jdk/release" 2>/dev/null || echo 0)" "$lib" | cksum)"
  base="$lib/$name-cds-${sum%% *}"
  archive=""
  if [ "${major:-0}" -ge "$cd_jdk" ] 2>/dev/null; then
    archive="$cd_from_archive" mapped=("${cd_from_mapped[@]}") dump=("${cd_from_dump[@]}") make=(${cd_from_make[@]+"${cd_from_make[@]}"})
  elif [ "${major:-0}" -ge "$cd_min_jdk" ] 2>/dev/null; then # an older or unknown JDK: none
    archive="$cd_before_archive" mapped=("${cd_before_mapped[@]}") dump=("${cd_before_dump[@]}") make=(${cd_before_make[@]+"${cd_before_make[@]}"})
  fi
  archive="${archive//@BASE@/"$base"}"
  if [ -z "$archive" ]; then
    :
  elif [ -s "$archive" ]; then
    for o in "${mapped[@]}"; do opts+=("${o//@BASE@/"$base"}"); done
  elif [ -n "$record" ]; then
    tmp="$archive.$$.tmp"
    for o in "${dump[@]}"; do o="${o//@BASE@/"$base"}"; opts+=("${o//@TMP@/"$tmp"}"); done
  fi
fi

command=("$java" "${opts[@]}" "${props[@]}" ${JAVA_OPTS:-} -cp "$cp" "@MAIN@" "$@")
[ -n "$tmp" ] || exec "${command[@]}"
set +e
"${command[@]}"
status=$?
set -e
if [ ! -s "$tmp" ] || [ "$status" -eq 2 ]; then
  # Nothing recorded, or a run that ended before the model ran (a bad command line): no archive from it.
  rm -f "$tmp"
elif [ "${#make[@]}" -eq 0 ]; then
  mv -f "$tmp" "$archive" 2>/dev/null || rm -f "$tmp"
else
  # The archive is made from the recording by a JVM in the background: this run is not held up.
  made=()
  for o in "${make[@]}"; do o="${o//@BASE@/"$base"}"; o="${o//@TMP@/"$tmp"}"; made+=("${o//@NEW@/"$archive.$$.new"}"); done
  (
    "$java" "${made[@]}" -cp "$cp" >/dev/null 2>&1 && mv -f "$archive.$$.new" "$archive"
    rm -f "$tmp" "$archive.$$.new"
  ) </dev/null >/dev/null 2>&1 &
  disown 2>/dev/null || true
fi
exit "$status"
