#!/bin/sh
# Big and Bang under injected network latency and loss (docs/distributed.md), as the source
# document does with Mininet: the JVMs run inside a network namespace made here, whose loopback
# gets a netem qdisc; nothing outside the namespace is touched. Needs root, the kernel's netem
# qdisc (sch_netem), and the class path of the distributed module's tests in CP. Writes netem.txt
# here. Every packet crosses lo once per direction, so a delay of D ms is a round trip of 2D ms.
# Exits 3, saying why, when netem cannot run.
set -u
cd "$(dirname "$0")/../.."   # the repository root: CP may be relative to it
here=docs/distributed
out="$(pwd)/$here/netem.txt"
ns=cogs-netem-$$
nodes=${NODES:-4}
if ! ip netns add "$ns"; then echo "run-netem: cannot create a network namespace (root needed)" >&2; exit 3; fi
trap 'ip netns del "$ns"' EXIT INT TERM
ip -n "$ns" link set lo up
if ! err=$(ip netns exec "$ns" tc qdisc add dev lo root netem delay 0ms 2>&1); then
  echo "run-netem: tc netem is not available, so no latency or loss can be injected here:" >&2
  echo "  \$ ip netns exec $ns tc qdisc add dev lo root netem delay 0ms" >&2
  echo "  $err" >&2
  echo "  kernel $(uname -r); CONFIG_NET_SCH_NETEM: $( (zcat /proc/config.gz 2>/dev/null | grep NET_SCH_NETEM) || echo 'unknown (no /proc/config.gz)')" >&2
  exit 3
fi
: > "$out"
for delay in 0 1 10 50; do
  for loss in 0 1 5; do
    ip netns exec "$ns" tc qdisc change dev lo root netem delay "${delay}ms" loss "${loss}%"
    for bench in big bang; do
      echo "# $bench, $nodes JVMs, netem delay ${delay}ms loss ${loss}% on lo (round trip $((2 * delay)) ms), $(date -u +%H:%M) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
      ip netns exec "$ns" nice java -cp "$CP" cogs.distributed.Launcher "$nodes" cogs.distributed.bench.BigBang "$bench" ${WARMUP:-3} ${WINDOWS:-5} \
        | grep -E '^\[node 0\] (bench|big|bang) ' | sed "s/^\[node 0\] //; s/^\(big\|bang\) /\1 d${delay}l${loss} /" >> "$out"
    done
  done
done
