#!/usr/bin/env bash
# The abs-bench programs through absc, against the published times of the other ABS backends
# (issue 26, "small ABS models"):   benchmarks/abs-bench.sh [-n RUNS] [--warmup N] DIR   (--help)
#
# DIR is a checkout of the ABS project's benchmark collection (the repository abs-bench of the
# abstools organisation): its programs are not copied into this repository. Every program in
# DIR/synthetic_seq/*.abs and DIR/synthetic_par/*.abs is run with `./absc run FILE`: first
# --warmup runs untimed (the first compiles the model and later ones make its class-data
# archive), then -n timed runs, round by round over all programs, so that a change of the
# machine's load hits every program alike. A run must exit with status 0.
#
# The published times are read from the spreadsheet of the collection's results directory
# (DIR/results/*.ods, sheets "haskell" and "new_java": wall time in seconds, on the machine of
# whoever published them) when python3 is on the PATH; without it, or without the file, only
# the times measured here are printed. Ratios: the median here over the published time;
# "geomean" is the geometric mean over the programs that have both.
set -euo pipefail

script="${BASH_SOURCE[0]}"
while [ -L "$script" ]; do
  target="$(readlink "$script")"
  case "$target" in /*) script="$target" ;; *) script="$(dirname "$script")/$target" ;; esac
done
root="$(cd "$(dirname "$script")/.." && pwd)"

runs=3
warmup=2
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="${2:-}"; shift 2 ;;
    --warmup) warmup="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "abs-bench.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "abs-bench.sh: one DIR only (see --help)" >&2; exit 2; }; dir="$1"; shift ;;
  esac
done
case "$runs$warmup" in ''|*[!0-9]*) echo "abs-bench.sh: -n and --warmup take numbers" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "abs-bench.sh: -n must be at least 1" >&2; exit 2; }
[ -n "$dir" ] || { echo "abs-bench.sh: give the directory of an abs-bench checkout (see --help)" >&2; exit 2; }
[ -d "$dir" ] || { echo "abs-bench.sh: $dir is not a directory" >&2; exit 2; }

shopt -s nullglob
programs=("$dir"/synthetic_seq/*.abs "$dir"/synthetic_par/*.abs)
[ ${#programs[@]} -gt 0 ] || { echo "abs-bench.sh: no synthetic_seq/*.abs or synthetic_par/*.abs under $dir" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A compile server would outlive the script; the timed runs are cached runs and start none.
export ABSC_NO_SERVER=1

name_of() { local f="$1"; printf '%s/%s' "$(basename "$(dirname "$f")")" "$(basename "$f" .abs)"; }
run_one() {
  "$root/absc" run "$1" >"$work/out" 2>"$work/err" || {
    echo "abs-bench.sh: $(name_of "$1") failed (exit $?):" >&2; tail -20 "$work/err" >&2; exit 1; }
}

echo "warming up: $warmup untimed runs of ${#programs[@]} programs (absc builds if needed, compiles each model)..." >&2
for ((w = 1; w <= warmup; w++)); do
  for f in "${programs[@]}"; do run_one "$f"; done
  echo "  warm-up round $w of $warmup done" >&2
done

declare -A times
for ((r = 1; r <= runs; r++)); do
  for f in "${programs[@]}"; do
    t0=$(date +%s%N)
    run_one "$f"
    t1=$(date +%s%N)
    times[$(name_of "$f")]+="$(((t1 - t0) / 1000)) "
  done
  echo "  timed round $r of $runs done" >&2
done

published="$work/published.csv"
: >"$published"
ods=("$dir"/results/*.ods)
if [ ${#ods[@]} -gt 0 ] && command -v python3 >/dev/null; then
  # One line per (sheet, program, seconds); a cell that is not a number (err, timeout) is left out.
  python3 - "${ods[0]}" >"$published" <<'PY' || { echo "abs-bench.sh: could not read ${ods[0]}; no published times" >&2; : >"$published"; }
import sys, zipfile, xml.etree.ElementTree as ET
T = '{urn:oasis:names:tc:opendocument:xmlns:table:1.0}'
P = '{urn:oasis:names:tc:opendocument:xmlns:text:1.0}p'
root = ET.fromstring(zipfile.ZipFile(sys.argv[1]).read('content.xml'))
for table in root.iter(T + 'table'):
    sheet = table.get(T + 'name')
    header = None
    for row in table.iter(T + 'table-row'):
        cells = []
        for c in row.findall(T + 'table-cell'):
            text = ' '.join(''.join(p.itertext()) for p in c.findall(P))
            cells += [text] * min(int(c.get(T + 'number-columns-repeated', '1')), 32)
        if header is None:
            header = cells
            continue
        if 'prog' in header and 'realtime(s)' in header and len(cells) > header.index('realtime(s)'):
            prog, secs = cells[header.index('prog')], cells[header.index('realtime(s)')]
            try:
                print('%s,%s,%s' % (sheet, prog.replace('Rosetree', 'RoseTree'), float(secs)))
            except ValueError:
                pass
PY
elif [ ${#ods[@]} -eq 0 ]; then
  echo "abs-bench.sh: no results/*.ods under $dir: no published times to compare with" >&2
else
  echo "abs-bench.sh: python3 not found: no published times to compare with" >&2
fi

pub() { awk -F, -v s="$1" -v p="$2" '$1 == s && $2 == p { print $3; exit }' "$published"; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
printf '%-32s %9s %9s %9s %9s %9s %8s %8s\n' program median min max haskell java "/haskell" "/java"
rows="$work/rows"
: >"$rows"
for f in "${programs[@]}"; do
  n="$(name_of "$f")"
  m="$(printf '%s' "${times[$n]}" | median)"
  lo="$(printf '%s' "${times[$n]}" | tr ' ' '\n' | grep . | sort -n | head -1)"
  hi="$(printf '%s' "${times[$n]}" | tr ' ' '\n' | grep . | sort -n | tail -1)"
  h="$(pub haskell "$n")"; j="$(pub new_java "$n")"
  printf '%s %s %s %s %s %s\n' "$n" "$m" "$lo" "$hi" "${h:--}" "${j:--}" >>"$rows"
done
awk -v runs="$runs" '
  function r(a, b) { return (b == "-" || b == 0) ? "-" : sprintf("%.2fx", a / b) }
  { m = $2 / 1e6; printf "%-32s %9.3f %9.3f %9.3f %9s %9s %8s %8s\n", $1, m, $3 / 1e6, $4 / 1e6, $5, $6, r(m, $5), r(m, $6)
    if ($5 != "-" && $5 > 0) { lh += log(m / $5); nh++ }
    if ($6 != "-" && $6 > 0) { lj += log(m / $6); nj++; if (m > $6) slower = slower " " $1 } }
  END {
    printf "(wall time of ./absc run in seconds, median of %d runs; haskell and java: the published times)\n", runs
    if (nh) printf "geomean over haskell (%d programs): %.2fx (target: at most 3x)\n", nh, exp(lh / nh)
    if (nj) printf "geomean over java (%d programs): %.2fx; slower than java on:%s (target: none)\n", nj, exp(lj / nj), (slower == "" ? " none" : slower)
  }' "$rows"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
echo "java: $("$java" -version 2>&1 | head -1); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
