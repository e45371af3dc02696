#!/bin/sh
# Big and Bang on 2, 4 and 8 JVMs on loopback (docs/distributed.md): writes bigbang.txt here.
# Needs the class path of the distributed module's tests in CP (see docs/distributed.md).
set -e
cd "$(dirname "$0")/../.."   # the repository root: CP may be relative to it
here=docs/distributed
out="$here/bigbang.txt"
: > "$out"
for bench in big bang; do
  for n in 2 4 8; do
    echo "# $bench, $n JVMs, $(date -u +%H:%M) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
    nice java -cp "$CP" cogs.distributed.Launcher "$n" cogs.distributed.bench.BigBang "$bench" ${WARMUP:-3} ${WINDOWS:-5} \
      | grep -E '^\[node 0\] (bench|big|bang) ' | sed 's/^\[node 0\] //' >> "$out"
  done
done
