#!/usr/bin/env bash
# Compile time of a cold `absc run` with and without the compile server (issue 13, target 3):
#   benchmarks/compile-time.sh [-n ROUNDS] [--units K] [--warm W] [--keep]      (--help)
#
# Generates (the same text every time) an ABS model of K units of about 90 lines each (default
# 22: about 2,000 lines): per unit a data type, three functions, two interfaces and two classes
# with loops, conditionals, case, lists, asynchronous calls, futures and awaits, and a part of
# the main block that uses them. Then measures, round by round in turn (so a change of the
# machine's load hits every variant alike), the wall time of
#   cold      ABSC_NO_SERVER=1 absc run --no-cache M.abs   scalac in a fresh C1-only JVM (the old path)
#   first     ABSC_SERVER=1 absc run --no-cache M.abs       finds no server: builds in the compiler
#                                                            JVM, then starts the server
#   warm-up   (background) the new server's warm-up builds of M.abs (ABSC_SERVER_WARM, default 3),
#             waited for: the time a user must spend between the first run and the next for the
#             server to be warm; wall from the end of first, CPU of the server
#   warm-1..W absc run --no-cache M.abs, W times more        the following runs, on that server
# checks that every variant printed the same output, and prints the medians of wall and CPU time
# (absc, its compiler JVM, and the server's share) and their ratios to cold (target: warm at most
# 0.5). The server of this script lives in a directory of its own and
# is stopped after each round and at the end (--keep keeps the model and the server's log). Uses absc's JDK (JAVA_HOME, or java on PATH).
set -euo pipefail

script="${BASH_SOURCE[0]}"
while [ -L "$script" ]; do
  target="$(readlink "$script")"
  case "$target" in /*) script="$target" ;; *) script="$(dirname "$script")/$target" ;; esac
done
root="$(cd "$(dirname "$script")/.." && pwd)"

rounds=5
units=22
warm=3
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) rounds="$2"; shift 2 ;;
    --units) units="$2"; shift 2 ;;
    --warm) warm="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,16p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compile-time.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$rounds$units$warm" in *[!0-9]*|"") echo "compile-time.sh: -n, --units and --warm take numbers" >&2; exit 2 ;; esac
[ "$warm" -ge 1 ] || { echo "compile-time.sh: --warm must be at least 1" >&2; exit 2; }

work="$(mktemp -d)"
server_dir="$work/server"
stop_server() { # the server of this script only: its pid file is in our own directory
  local f pid
  for f in "$server_dir"/*.pid; do
    [ -e "$f" ] || continue
    pid="$(cat "$f" 2>/dev/null || true)"
    [ -n "$pid" ] || continue
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
}
cleanup() { stop_server; if [ -n "$keep" ]; then echo "kept: $work" >&2; else rm -rf "$work"; fi; }
trap cleanup EXIT

# ------------------------------------------------------------------ the model
model="$work/Generated.abs"
unit() { # unit i: declarations
  local i=$1
  cat <<EOF
// ---------------------------------------------------------------- unit $i
data Shape$i = Circle$i(Int radius$i) | Rect$i(Int width$i, Int height$i) | Empty$i;

def Int area$i(Shape$i s) =
  case s {
    Circle$i(r) => 3 * r * r + $i;
    Rect$i(w, h) => w * h;
    Empty$i => 0;
  };

def List<Int> upTo$i(Int n) = if n <= 0 then Nil else Cons(n + $i, upTo$i(n - 1));

def Int sumList$i(List<Int> l) =
  case l {
    Nil => 0;
    Cons(x, rest) => x + sumList$i(rest);
  };

interface Worker$i {
  Int work(Int n);
  Int total();
  Unit reset();
}

interface Collector$i {
  Unit report(Int value);
  Int collected();
}

class CollectorImpl$i implements Collector$i {
  Int sum = 0;
  Int count = 0;

  Unit report(Int value) {
    sum = sum + value;
    count = count + 1;
  }

  Int collected() {
    await count >= 1;
    return sum;
  }
}

class WorkerImpl$i(Collector$i sink, Int factor) implements Worker$i {
  Int done = 0;
  List<Shape$i> shapes = Nil;

  Int work(Int n) {
    Int i = 0;
    Int acc = 0;
    while (i < n) {
      Shape$i s = Empty$i;
      if (i % 3 == 0) {
        s = Circle$i(i);
      } else if (i % 3 == 1) {
        s = Rect$i(i, factor);
      }
      shapes = Cons(s, shapes);
      acc = acc + area$i(s);
      i = i + 1;
    }
    Int bonus = sumList$i(upTo$i(n));
    if (acc > bonus) {
      acc = acc - bonus;
    } else {
      acc = acc + bonus * factor;
    }
    sink!report(acc);
    done = done + 1;
    return acc;
  }

  Int total() {
    Int t = 0;
    List<Shape$i> rest = shapes;
    while (rest != Nil) {
      t = t + area$i(head(rest));
      rest = tail(rest);
    }
    return t + done * $i;
  }

  Unit reset() {
    shapes = Nil;
    done = 0;
  }
}

EOF
}
main_part() { # unit i: its part of the main block
  local i=$1
  cat <<EOF
  Collector$i c$i = new CollectorImpl$i();
  Worker$i w$i = new WorkerImpl$i(c$i, $((i % 5 + 2)));
  Fut<Int> f$i = w$i!work($((i % 7 + 5)));
  Int r$i = f$i.get;
  Int t$i = await w$i!total();
  Int s$i = await c$i!collected();
  total = total + r$i + t$i + s$i;
EOF
}
{
  echo "// Generated by benchmarks/compile-time.sh ($units units): a model to time absc's compilation."
  echo "module Generated;"
  echo
  for i in $(seq 1 "$units"); do unit "$i"; done
  echo "{"
  echo "  Int total = 0;"
  for i in $(seq 1 "$units"); do main_part "$i"; done
  echo "  println(\"total \" + toString(total));"
  echo "}"
} >"$model"
lines="$(wc -l <"$model")"

# ------------------------------------------------------------------ timing
absc="$root/absc"
# absc builds itself if needed; and the model must compile before anything is timed.
ABSC_NO_SERVER=1 "$absc" run --no-cache "$model" >"$work/expected.out"
echo "model: $lines lines ($units units); expected output: $(head -c 200 "$work/expected.out")" >&2

# Wall time, and CPU time (user + system): of absc and its children (the compiler JVM), plus
# what the server's JVM spent during the run (from /proc). On a loaded machine the CPU time says
# more about the work than the wall time, which mostly says how long each waited for a core.
tick="$(getconf CLK_TCK)"
server_cpu_ms() { # CPU time of this script's server so far (0 if none)
  local f pid stat
  for f in "$server_dir"/*.pid; do
    [ -e "$f" ] || continue
    pid="$(cat "$f" 2>/dev/null || true)"
    stat="$(cat "/proc/$pid/stat" 2>/dev/null || true)"
    [ -n "$stat" ] || continue
    echo "$stat" | sed 's/^.*) //' | awk -v t="$tick" '{print int(($12 + $13) * 1000 / t)}'
    return
  done
  echo 0
}
declare -A times cpus
timed() { # variant command...: runs it, checks its output, appends its wall and CPU times
  local v=$1; shift
  local s0 s1 real user sys
  s0="$(server_cpu_ms)"
  TIMEFORMAT='%R %U %S'
  local status=0
  { time "$@" >"$work/out" 2>"$work/err" ; } 2>"$work/time" || status=$?
  [ "$status" = 0 ] || { echo "compile-time.sh: $v failed (status $status):" >&2; cat "$work/err" >&2; exit 1; }
  s1="$(server_cpu_ms)"
  read -r real user sys <"$work/time"
  if ! cmp -s "$work/out" "$work/expected.out"; then
    echo "compile-time.sh: $v printed something else:" >&2; diff "$work/expected.out" "$work/out" >&2 || true; exit 1
  fi
  if [ -s "$work/err" ]; then echo "compile-time.sh: $v said on stderr:" >&2; cat "$work/err" >&2; fi
  times[$v]+="$(awk -v r="$real" 'BEGIN {print int(r * 1000)}') "
  cpus[$v]+="$(awk -v u="$user" -v s="$sys" -v a="$s0" -v b="$s1" 'BEGIN {print int((u + s) * 1000 + b - a)}') "
}
warm_ups="${ABSC_SERVER_WARM:-3}"
variants=(cold first warm-up)
for w in $(seq 1 "$warm"); do variants+=("warm-$w"); done
warm_up_lines() { cat "$server_dir"/*.log 2>/dev/null | grep -c 'warm-up build' || true; }
await_warm_up() { # waits (up to 10 minutes) for the server's last warm-up build; times it as 'warm-up'
  local t0 s0 s1 n=0 i
  t0="$(date +%s%N)"
  s0="$(server_cpu_ms)"
  for i in $(seq 6000); do
    n=$(( $(warm_up_lines) - lines_before ))
    [ "$n" -ge "$warm_ups" ] && break
    sleep 0.1
  done
  [ "$n" -ge "$warm_ups" ] || echo "compile-time.sh: the server did $n of $warm_ups warm-up builds in 10 minutes" >&2
  s1="$(server_cpu_ms)"
  times[warm-up]+="$(( ($(date +%s%N) - t0) / 1000000 )) "
  cpus[warm-up]+="$(( s1 - s0 )) "
}
export ABSC_SERVER_DIR="$server_dir"
for r in $(seq 1 "$rounds"); do
  stop_server
  timed cold env ABSC_NO_SERVER=1 "$absc" run --no-cache "$model"
  lines_before="$(warm_up_lines)" # the log is kept across rounds
  timed first env ABSC_SERVER=1 "$absc" run --no-cache "$model"
  await_warm_up
  for w in $(seq 1 "$warm"); do timed "warm-$w" env ABSC_SERVER=1 "$absc" run --no-cache "$model"; done
  line="round $r/$rounds (wall/CPU ms):"
  for v in "${variants[@]}"; do line+=" $v $(echo "${times[$v]}" | awk '{print $NF}')/$(echo "${cpus[$v]}" | awk '{print $NF}')"; done
  echo "$line (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'; }
cold_ms="$(echo "${times[cold]}" | median)"
cold_cpu="$(echo "${cpus[cold]}" | median)"
echo
echo "absc run --no-cache of a $lines-line model, $rounds rounds, medians (load at the end: $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  %-8s %9s %8s   %9s %8s\n' variant "wall ms" "x cold" "CPU ms" "x cold"
for v in "${variants[@]}"; do
  m="$(echo "${times[$v]}" | median)"
  c="$(echo "${cpus[$v]}" | median)"
  printf '  %-8s %9d %8.2f   %9d %8.2f\n' "$v" "$m" "$(awk -v a="$m" -v b="$cold_ms" 'BEGIN {print a / b}')" \
    "$c" "$(awk -v a="$c" -v b="$cold_cpu" 'BEGIN {print a / b}')"
done
for v in "${variants[@]}"; do echo "  $v rounds, wall ms: ${times[$v]% }; CPU ms: ${cpus[$v]% }"; done
echo "target 3: a warm run at most 0.5x cold"
