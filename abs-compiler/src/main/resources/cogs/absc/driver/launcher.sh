#!/usr/bin/env bash
# @NAME@: an ABS model compiled by absc @VERSION@ ('absc package'). Needs a JDK or JRE 17 or newer
# (JAVA_HOME, or java on PATH); nothing else. The directory this script is in may be moved.
#
#   @NAME@ [--workers N] [--clock-limit T] [--port PORT [Model API options]] [--record FILE [--record-format F] | --replay FILE] [--strict] [--no-end-report] [-- ARG...]
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

usage() {
  sed -n '5p' "$script" | sed 's/^# *//'
  cat <<'EOF'
  --workers N        worker threads of the runtime (default: one per processor)
  --clock-limit T    stop when the simulated clock would pass T (e.g. 100 or 5/2)
  --port PORT        serve the Model API on PORT of the loopback interface (0: any free port)
  --url-prefix P     serve the Model API below P (e.g. /abcd/5080)
  --modelapi-index-file FILE
                     serve FILE as the Model API's index page instead of the default one
  --modelapi-static-dir DIR
                     serve the files of DIR below static/
  --record FILE      record the run's scheduling decisions into FILE
  --record-format F  the format of --record's FILE: cogs (the default; --replay takes it) or
                     erlang (the Erlang backend's trace format)
  --replay FILE      replay the decisions recorded in FILE
  --strict           exit with status 4 when the end-of-run report finds something (a failure
                     nobody read, a process still waiting)
  --no-end-report    leave that report out
  ARGs after '--' are passed to the program.
Exit status: 0, or 1 on an uncaught exception, failed assert or deadlock; 2 on a bad command line;
4 with --strict when the end-of-run report found something.
EOF
}

bad() { echo "$name: $1 (see '$name --help')" >&2; exit 2; }

props=(@PROPS@) # what 'absc package' was told: the --foreign bindings
recording=""
format=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --strict) props+=("-Dcogs.absc.strict=true"); shift ;;
    --no-end-report) props+=("-Dcogs.absc.end-report=false"); shift ;;
    --workers|--clock-limit|-l|--port|-p|--record|--replay|--record-format|--url-prefix|--modelapi-index-file|--modelapi-static-dir)
      [ $# -ge 2 ] || bad "option $1 needs a value"
      value="$2"
      case "$1" in
        --workers)
          case "$value" in ''|*[!0-9]*|0) bad "--workers must be a whole number of at least 1, not '$value'" ;; esac
          props+=("-Dcogs.executor.parallelism=$value") ;;
        --clock-limit|-l)
          [[ "$value" =~ ^[0-9]+(/[0-9]*[1-9][0-9]*)?$ ]] || bad "--clock-limit: '$value' is not a time (a whole number or a fraction such as 5/2)"
          props+=("-Dcogs.absc.clock-limit=$value") ;;
        --port|-p)
          case "$value" in ''|*[!0-9]*) bad "--port must be from 0 to 65535, not '$value'" ;; esac
          [ "${#value}" -le 5 ] && [ "$value" -le 65535 ] || bad "--port must be from 0 to 65535, not '$value'"
          props+=("-Dcogs.absc.modelapi.port=$value") ;;
        --record|--replay)
          [ -z "$recording" ] || bad "--record and --replay exclude each other"
          recording="$1"
          case "$value" in /*) ;; *) value="$PWD/$value" ;; esac
          props+=("-Dcogs.absc.${1#--}=$value") ;;
        --record-format)
          case "$value" in cogs|erlang) ;; *) bad "--record-format must be 'cogs' or 'erlang', not '$value'" ;; esac
          format="$value"
          props+=("-Dcogs.absc.record-format=$value") ;;
        --url-prefix)
          props+=("-Dcogs.absc.modelapi.url-prefix=$value") ;;
        --modelapi-index-file|--modelapi-static-dir)
          # The program checks that they are there and that a port goes with them.
          case "$value" in /*) ;; *) value="$PWD/$value" ;; esac
          props+=("-Dcogs.absc.modelapi.${1#--modelapi-}=$value") ;;
      esac
      shift 2 ;;
    --) shift; break ;;
    -*) bad "unknown option '$1'" ;;
    *) bad "unexpected argument '$1' (the program's arguments go after '--')" ;;
  esac
done

[ -z "$format" ] || [ "$recording" = --record ] || bad "--record-format needs --record FILE"

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
opts=(-Xss256m)
tmp=""
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
  else
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
if [ ! -s "$tmp" ]; then
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
