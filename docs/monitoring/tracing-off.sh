#!/usr/bin/env bash
# The cost of tracing *off*: the examples on the current tree against a build of the commit before
# tracing was instrumented (165a8ac), run alternately so that the machine's drift hits both alike.
#   docs/monitoring/tracing-off.sh [REPETITIONS=7] [PRE_TRACE_TREE=/tmp/pre-trace]
# Prepare the old tree once:
#   git worktree add /tmp/pre-trace 165a8ac
#   (cd /tmp/pre-trace && mvn -q -B -pl examples -am -Dmaven.test.skip=true package)
# Prints one CSV line per run (example,tree,repetition,millis) and, at the end, medians and ranges.
set -euo pipefail
reps="${1:-7}"
pre="${2:-/tmp/pre-trace}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$(mktemp)"
echo "example,tree,repetition,millis"
for ex in "pingpong 10000000" "listing5 100000"; do
  for i in $(seq 1 "$reps"); do
    # Alternate which tree goes first, so neither always runs right after the other.
    if [ $((i % 2)) -eq 1 ]; then order="main pre"; else order="pre main"; fi
    for tree in $order; do
      dir="$root"; [ "$tree" = pre ] && dir="$pre"
      # shellcheck disable=SC2086
      ms="$("$dir/examples/run" $ex 2>&1 | sed -n 's/.*, time \([0-9]*\) ms.*/\1/p' | head -1)"
      echo "${ex%% *},$tree,$i,$ms" | tee -a "$out"
    done
  done
done
echo
python3 - "$out" <<'PY'
import sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    ex, tree, rep, ms = line.strip().split(",")
    if ms:
        runs[(ex, tree)].append(int(ms))
print("example  tree  n  median  min  max  (ms)")
for (ex, tree), v in sorted(runs.items()):
    print(f"{ex}  {tree}  {len(v)}  {statistics.median(v)}  {min(v)}  {max(v)}")
for ex in sorted({e for e, _ in runs}):
    if (ex, "main") in runs and (ex, "pre") in runs:
        print(f"{ex}: main/pre of the medians {statistics.median(runs[(ex, 'main')]) / statistics.median(runs[(ex, 'pre')]):.3f}")
PY
rm -f "$out"
