#!/usr/bin/env bash
# Start-up of ABS models through absc, side by side with a plain Java hello-world (issue 13,
# targets 1 and 2):   benchmarks/startup.sh [-n ROUNDS] [--calls N]      (--help)
#
# Measures, interleaved round by round (so a change of the machine's load hits every command
# alike), the wall time of:
#   java-hello     java -cp DIR Hello             a Java hello-world on the same JDK
#   absc-version   ./absc --version               absc's own JVM (picocli, no compilation)
#   absc-one-line  ./absc run one.abs             a cached run of a one-line model
#   absc-empty     ./absc run empty.abs           a cached run of a model whose main block is skip
#   absc-calls     ./absc run calls.abs           a cached run of 100 objects, N asynchronous calls
#   package-one-line  one/bin/one                 the one-line model made by `absc package`
# and prints the median of each and the ratios the issue sets targets for: one-line / hello
# (at most 4) and calls - empty (at most 50 ms). The models are compiled (and their class-data
# archives dumped) by three runs of each before the timing. Uses $JAVA_HOME/bin/java (and javac)
# when JAVA_HOME is set, as absc does; JAVA_OPTS and ABSC_NO_FAST/ABSC_NO_CDS reach absc.
set -euo pipefail

script="${BASH_SOURCE[0]}"
while [ -L "$script" ]; do
  target="$(readlink "$script")"
  case "$target" in /*) script="$target" ;; *) script="$(dirname "$script")/$target" ;; esac
done
root="$(cd "$(dirname "$script")/.." && pwd)"

rounds=11
calls=30000
while [ $# -gt 0 ]; do
  case "$1" in
    -n) rounds="$2"; shift 2 ;;
    --calls) calls="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "startup.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$rounds$calls" in *[!0-9]*) echo "startup.sh: -n and --calls take numbers" >&2; exit 2 ;; esac

if [ -n "${JAVA_HOME:-}" ]; then java="$JAVA_HOME/bin/java"; javac="$JAVA_HOME/bin/javac"
else java="$(command -v java)"; javac="$(dirname "$(readlink -f "$java")")/javac"; fi
[ -x "$javac" ] || { echo "startup.sh: no javac next to $java (a JDK is needed for the hello-world)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/Hello.java" <<'EOF'
public class Hello { public static void main(String[] args) { System.out.println("hello"); } }
EOF
"$javac" -d "$work" "$work/Hello.java"
echo 'module OneLine; { println("hello"); }' >"$work/one.abs"
echo 'module Empty; { skip; }' >"$work/empty.abs"
cat >"$work/calls.abs" <<EOF
module Calls;
interface Actor { Unit ping(Int n); }
class ActorImpl implements Actor {
  Int count = 0;
  Unit ping(Int n) { count = count + n; }
}
{
  List<Actor> actors = Nil;
  Int i = 0;
  while (i < 100) { Actor a = new ActorImpl(); actors = Cons(a, actors); i = i + 1; }
  List<Actor> rest = actors;
  i = 0;
  while (i < $calls) {
    if (rest == Nil) { rest = actors; }
    Actor a = head(rest);
    rest = tail(rest);
    a!ping(i);
    i = i + 1;
  }
  println("sent $calls calls");
}
EOF

"$root/absc" package -o "$work/one" "$work/one.abs" >/dev/null 2>"$work/err" \
  || { echo "startup.sh: absc package failed:" >&2; cat "$work/err" >&2; exit 1; }
names=(java-hello absc-version absc-one-line absc-empty absc-calls package-one-line)
run_one() {
  case "$1" in
    java-hello) "$java" -cp "$work" Hello ;;
    absc-version) "$root/absc" --version ;;
    absc-one-line) "$root/absc" run "$work/one.abs" ;;
    absc-empty) "$root/absc" run "$work/empty.abs" ;;
    absc-calls) "$root/absc" run "$work/calls.abs" ;;
    package-one-line) "$work/one/bin/one" ;;
  esac
}

echo "warming up (absc builds if needed, compiles the models, dumps their class-data archives)..." >&2
for round in 1 2 3; do
  for name in "${names[@]}"; do
    run_one "$name" >"$work/out" 2>"$work/err" || { echo "startup.sh: $name failed:" >&2; cat "$work/err" >&2; exit 1; }
  done
  # On JDK 25 the second run of a model records its AOT configuration and a JVM in the background
  # makes the cache from it: let it finish before the timing.
  [ "$round" != 2 ] || sleep 5
done

declare -A times
for ((r = 1; r <= rounds; r++)); do
  for name in "${names[@]}"; do
    t0=$(date +%s%N)
    run_one "$name" >/dev/null 2>&1
    t1=$(date +%s%N)
    times[$name]+="$(((t1 - t0) / 1000)) "
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
declare -A med
printf '%-16s %10s %10s %10s   (%d rounds, wall time, ms)\n' what median min max "$rounds"
for name in "${names[@]}"; do
  m="$(printf '%s' "${times[$name]}" | median)"
  med[$name]=$m
  lo="$(printf '%s' "${times[$name]}" | tr ' ' '\n' | grep . | sort -n | head -1)"
  hi="$(printf '%s' "${times[$name]}" | tr ' ' '\n' | grep . | sort -n | tail -1)"
  awk -v n="$name" -v m="$m" -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%-16s %10.1f %10.1f %10.1f\n", n, m / 1000, lo / 1000, hi / 1000 }'
done
awk -v one="${med[absc-one-line]}" -v hello="${med[java-hello]}" -v version="${med[absc-version]}" \
    -v empty="${med[absc-empty]}" -v calls="${med[absc-calls]}" -v n="$calls" -v pkg="${med[package-one-line]}" 'BEGIN {
  printf "cached absc run of a one-line model / java hello: %.2fx (target: at most 4x)\n", one / hello
  printf "packaged one-line model / java hello:             %.2fx\n", pkg / hello
  printf "absc --version / java hello:                      %.2fx\n", version / hello
  printf "%d asynchronous calls add to the empty model:  %.1f ms (target: at most 50 ms)\n", n, (calls - empty) / 1000
}'
echo "java: $("$java" -version 2>&1 | head -1); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
