#!/usr/bin/env bash
# Tenant density (issue 19): starts a server on the embedded defaults (Lucene, ONNX, H2) with a fresh data directory,
# provisions tenants with one short document each through the admin and data APIs, and measures open files, threads,
# RSS and live heap at each checkpoint plus a cold tenant's first query (bin/corpora bench density). Then stops it.
#   scripts/density-bench.sh [--port 9080] [--tenants 0,1000,5000,10000] [--working-set N] [--idle PT10M] [--out FILE]
#   [--server-name corpora-b] [--histogram N]
# --working-set 1000000 approximates the server before working sets (every tenant stays open).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port=9080; tenants=0,1000,5000,10000; ws=""; idle=""; out="$ROOT/bench-results/density.csv"; histogram=0; name=""
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --tenants) tenants="$2"; shift 2 ;;
    --working-set) ws="$2"; shift 2 ;;
    --idle) idle="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --histogram) histogram="$2"; shift 2 ;;
    --server-name) name="$2"; shift 2 ;;   # a second Liberty server beside the first
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
data="$(mktemp -d "${TMPDIR:-/tmp}/corpora-density.XXXXXX")"
opts=(-Dliberty.jvm.corpora.data="-Dcorpora.data.dir=$data" -Dliberty.jvm.corpora.devmode="-Dcorpora.dev.mode=true")
[ -n "$ws" ] && opts+=(-Dliberty.jvm.corpora.ws="-Dcorpora.tenants.workingSet.max=$ws")
[ -n "$name" ] && opts+=(-Dliberty.server.name="$name")
[ -n "$idle" ] && opts+=(-Dliberty.jvm.corpora.idle="-Dcorpora.tenants.idleTimeout=$idle")
(cd "$ROOT/platform-server" && exec mvn -B -q -o liberty:run -Dcorpora.http.port="$port" "${opts[@]}") > "$data.server.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
base="http://localhost:$port"
deadline=$((SECONDS + 1800)) # a loaded 2-core machine has taken 10 minutes
until curl -sf "$base/health/ready" >/dev/null 2>&1; do
  kill -0 "$server" 2>/dev/null || { echo "density: the server exited during start-up; see $data.server.log" >&2; exit 1; }
  [ $SECONDS -lt $deadline ] || { echo "density: not ready after 1800 s" >&2; exit 1; }
  sleep 3
done
# The Liberty JVM listening on the port (not Maven).
pid="$(ss -ltnpH "sport = :$port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)"
echo "density: server pid $pid, data in $data, working set ${ws:-default}, idle ${idle:-default}" >&2
"$ROOT/bin/corpora" bench density --server "$base/" --pid "$pid" --tenants "$tenants" --out "$out" --histogram "$histogram"
