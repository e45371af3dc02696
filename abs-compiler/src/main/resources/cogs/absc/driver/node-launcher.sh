#!/usr/bin/env bash
# run: one node of the ABS model @NAME@ on a cluster ('absc package --cluster', absc @VERSION@).
# Needs a JDK or JRE 17 or newer (JAVA_HOME, or java on PATH); nothing else.
#
#   run --node NAME --config FILE [-- ARG...]
#
# FILE (HOCON) gives every node's address, cogs.distributed.nodes { main = "HOST:PORT", n1 =
# "HOST:PORT" }, and the deployment, cogs.distributed.deployment { Component = "n1" }. The node
# 'main' runs the main block (ARGs go to it); any other serves. Start every node so, each on its
# machine, with the same FILE. Exit status: the node's (the main node's is the program's).
set -euo pipefail

script="${BASH_SOURCE[0]}"
while [ -L "$script" ]; do
  target="$(readlink "$script")"
  case "$target" in /*) script="$target" ;; *) script="$(dirname "$script")/$target" ;; esac
done
lib="$(cd "$(dirname "$script")/../lib" && pwd)"
usage() { echo "run: $1 (usage: run --node NAME --config FILE [-- ARG...])" >&2; exit 2; }

node="" config=""
while [ $# -gt 0 ]; do
  case "$1" in
    --node) [ $# -ge 2 ] || usage "--node needs a NAME"; node="$2"; shift 2 ;;
    --node=*) node="${1#--node=}"; shift ;;
    --config) [ $# -ge 2 ] || usage "--config needs a FILE"; config="$2"; shift 2 ;;
    --config=*) config="${1#--config=}"; shift ;;
    -h|--help) sed -n '5,10p' "$script" | sed 's/^# *//'; exit 0 ;;
    --) shift; break ;;
    *) usage "unknown option '$1'" ;;
  esac
done
[ -n "$node" ] || usage "--node NAME is needed"
[ -n "$config" ] || usage "--config FILE is needed"
[ -f "$config" ] || usage "--config: no such file: $config"
config="$(cd "$(dirname "$config")" && pwd)/$(basename "$config")"

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then java="$(command -v java)"
else echo "run: 'java' not found (set JAVA_HOME or put a Java 17 or newer on PATH)" >&2; exit 2
fi
# shellcheck disable=SC2086  # JAVA_OPTS is a list of options
exec "$java" -Xss256m --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} "-Dconfig.file=$config" -cp "$lib/@JAR@" \
  cogs.distributed.abs.RunNode "@MAIN@" "$node" -- "$@"
