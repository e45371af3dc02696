#!/bin/sh
# The chat macrobenchmark, local and on 2, 4 and 8 JVMs on loopback (docs/distributed.md): writes
# chat.txt here. Needs the class path of the distributed module's tests in CP. ARGS overrides the
# benchmark's options (default below); the local run does 10 times more rounds (LOCAL, appended:
# later options win), since a local round takes milliseconds.
set -e
cd "$(dirname "$0")/../.."   # the repository root: CP may be relative to it
here=docs/distributed
out="$here/chat.txt"
args=${ARGS:---clients 256 --directories 8 --rounds 20 --warmup 5}
: > "$out"
echo "# local, $(date -u +%H:%M) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
nice java -cp "$CP" cogs.distributed.bench.ChatBench --local $args ${LOCAL:---rounds 200 --warmup 50} | grep '^chat' >> "$out"
for n in ${NODES:-2 4 8}; do
  echo "# $n JVMs, $(date -u +%H:%M) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
  nice java -cp "$CP" cogs.distributed.Launcher "$n" cogs.distributed.bench.ChatBench $args \
    | grep -E '^\[node 0\] chat' | sed 's/^\[node 0\] //' >> "$out"
done
