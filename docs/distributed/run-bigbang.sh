#!/bin/sh
# Big and Bang on 2, 4 and 8 JVMs on loopback (docs/distributed.md): writes bigbang.txt here.
# Needs the class path of the distributed module's tests in CP (see docs/distributed.md).
set -e
cd "$(dirname "$0")/../.."   # the repository root: CP may be relative to it
here=docs/distributed
out="$here/bigbang.txt"
: > "$out"
# Each point runs twice, Cogs first (order cp) and Pekko first (pc), both primed, and keeps the
# line of the runtime that went second each time: on 4 and 8 JVMs the JIT takes half of every
# node's CPU for most of a run, so whoever goes first is measured while the shared code (Artery,
# Pekko's streams) is still being compiled (docs/distributed.md, "It is the order").
for bench in big bang; do
  for n in 2 4 8; do
    echo "# $bench, $n JVMs, $(date -u +%H:%M) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg); each runtime measured second" >> "$out"
    for order in cp pc; do
      if [ "$order" = cp ]; then second=pekko; else second=cogs; fi
      nice java -cp "$CP" cogs.distributed.Launcher "$n" cogs.distributed.bench.BigBang "$bench" --order "$order" --prime ${PRIME:-20000} \
        ${WARMUP:-3} ${WINDOWS:-5} | grep -E '^\[node 0\] (bench|big|bang) ' | sed 's/^\[node 0\] //' \
        | grep -E "^bench|^$bench +$second " >> "$out"
    done
  done
done
