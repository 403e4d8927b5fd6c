#!/usr/bin/env bash
# The scale-out tests CI runs (.ci/run): on a real cluster (scripts/cluster.sh: PostgreSQL primary + streaming replica,
# two Corpora servers, HAProxy), under steady retrieve + ingest load through HAProxy:
#   1. failover   SIGKILL server 1: no acknowledged write lost, every job ends (or fails with a reason), no retrieval (REST or MCP)
#                 fails (HAProxy re-sends reads in flight on the killed server), server 2 serves everything;
#   2. rejoin     server 1 restarts: both servers are in HAProxy's rotation again and both answer;
#   3. propagation a tenant set INACTIVE through server 1 is refused by server 2 on its next request, and back;
#   4. replica    the replica is stopped under load: searches go on (served by the primary), then it is restarted;
#   5. read-your-writes  an ingest's Corpora-Consistency token makes the next retrieve see the document at once;
#   6. relocation  the demo tenant moves to a dedicated pgvector table (started on server 1, used through server 2):
#                 same passages during and after, writes refused during, the shared table no longer holds it;
#   7. clean stop  server 1 is stopped (Liberty's quiesce) while a batch job of 200 documents runs on it: the job ends
#                 before the server lets go, every document stored or failed job-interrupted, no SEVERE record or FFDC
#                 report from the stop, its lease released (not left to expire); the interrupted ones sent again
#                 through HAProxy are stored; server 1 restarts;
#   8. bulk ingest `corpora ingest` of 300 files through HAProxy while server 1 is SIGKILLed ends with every file
#                 stored (exit 0): files whose job the dead server ran, or whose answer it took, are sent again.
# Prints the counts; exits non-zero on the first failed check. Leaves the cluster down unless CORPORA_CLUSTER_KEEP=1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLUSTER="$ROOT/scripts/cluster.sh"
export CORPORA_CLUSTER_LEASE_TTL="${CORPORA_CLUSTER_LEASE_TTL:-9}"
BASE="${CORPORA_CLUSTER_BASE_PORT:-19500}"
NODE1="http://127.0.0.1:$((BASE + 10))"
NODE2="http://127.0.0.1:$((BASE + 11))"

CLUSTER_DIR="${CORPORA_CLUSTER_DIR:-$ROOT/.corpora/cluster}"
# The steps change the cluster's data (step 6 moves the demo tenant to a dedicated table), so a run on a cluster that
# already exists would fail half-way; say so before anything starts.
if [ -d "$CLUSTER_DIR/pg-primary" ]; then
  echo "cluster-test: $CLUSTER_DIR already holds a cluster; the test needs a new one (it changes the data: step 6" \
    "relocates the demo tenant). Run 'scripts/cluster.sh down --purge' first, or set CORPORA_CLUSTER_DIR=\$(mktemp -d)" >&2
  exit 2
fi

cleanup() { [ -n "${CORPORA_CLUSTER_KEEP:-}" ] || bash "$CLUSTER" down >/dev/null 2>&1 || true; }
trap cleanup EXIT

t0=$SECONDS
URL="$(bash "$CLUSTER" up --servers 2 | tail -n 1)"
echo "== cluster-test: cluster up in $((SECONDS - t0)) s at $URL"
token() { "$ROOT/bin/corpora" token "$@" 2>/dev/null; }
READER="$(token --tenant demo --roles reader --ttl 120)"
WRITER="$(token --tenant demo --roles writer --ttl 120)"
ADMIN="$(token --admin --ttl 120)"
# A few documents so retrievals return passages.
for doc in "$ROOT"/tenants-config/demo-documents/*.md; do
  curl -sf -o /dev/null -H "Authorization: Bearer $WRITER" -F "file=@$doc;type=text/markdown" "$URL/api/v1/tenants/demo/documents" || true
done

THROUGHPUT_SECONDS="${CORPORA_THROUGHPUT_SECONDS:-15}"
echo "== cluster-test 0: retrieval throughput through HAProxy, 2 servers (load: $(uptime | sed 's/.*load average: //'))"
python3 "$ROOT/scripts/cluster_load.py" throughput --url "$URL" --reader-token "$READER" --seconds "$THROUGHPUT_SECONDS" --threads 4

# Replica lag under the failover test's ingest load, sampled each second on the primary.
lagfile="$(mktemp)"
( while sleep 1; do
    psql -X -tA -h 127.0.0.1 -p "$BASE" -U postgres -d postgres -c \
      "select coalesce(extract(epoch from replay_lag) * 1000, 0)::int, pg_wal_lsn_diff(sent_lsn, replay_lsn) from pg_stat_replication" 2>/dev/null | head -1
  done >"$lagfile" ) &
sampler=$!
echo "== cluster-test 1: failover (SIGKILL server 1 under load)"
python3 "$ROOT/scripts/cluster_load.py" failover --url "$URL" --reader-token "$READER" --writer-token "$WRITER" \
  --before "${CORPORA_FAILOVER_BEFORE:-10}" --after "${CORPORA_FAILOVER_AFTER:-20}" --job-timeout 90 --max-failed-reads 0 \
  --fault-cmd "bash '$CLUSTER' kill-server 1"

kill "$sampler" 2>/dev/null || true
awk -F'|' 'NF==2 {n++; if ($1>ms) ms=$1; if ($2>b) b=$2} END {printf "cluster-test: replica lag under load: max replay_lag %d ms, max %d bytes behind (%d samples)\n", ms, b, n}' "$lagfile"
rm -f "$lagfile"
echo "== cluster-test 1b: retrieval throughput through HAProxy, 1 server (load: $(uptime | sed 's/.*load average: //'))"
python3 "$ROOT/scripts/cluster_load.py" throughput --url "$URL" --reader-token "$READER" --seconds "$THROUGHPUT_SECONDS" --threads 4

echo "== cluster-test 2: rejoin (restart server 1)"
bash "$CLUSTER" start-server 1
sleep 3 # HAProxy's rise 2 x inter 1s
declare -A seen=()
for _ in $(seq 1 10); do
  server="$(curl -s -o /dev/null -D - -H "Authorization: Bearer $READER" -H 'Content-Type: application/json' \
    -d '{"query":"tenant isolation"}' "$URL/api/v1/tenants/demo/retrieve" | awk -F': ' 'tolower($1)=="x-corpora-server" {print $2}' | tr -d '\r')"
  [ -n "$server" ] && seen[$server]=1
done
echo "cluster-test: answering servers after the restart: ${!seen[*]}"
[ "${#seen[@]}" -eq 2 ] || { echo "cluster-test: FAIL: the restarted server is not back in rotation"; exit 1; }

echo "== cluster-test 3: a tenant change through server 1 is in force on server 2"
state() {
  curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $READER" -H 'Content-Type: application/json' \
    -d '{"query":"x"}' "$1/api/v1/tenants/demo/retrieve"
}
set_state() {
  curl -sf -o /dev/null -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
    -d "{\"state\":\"$2\"}" "$1/admin/v1/tenants/demo/state"
}
set_state "$NODE1" INACTIVE
code="$(state "$NODE2")"
echo "cluster-test: demo INACTIVE via server 1 -> server 2 answers $code"
[ "$code" = 409 ] || { echo "cluster-test: FAIL: server 2 still serves an INACTIVE tenant"; exit 1; }
set_state "$NODE1" ACTIVE
code="$(state "$NODE2")"
echo "cluster-test: demo ACTIVE via server 1 -> server 2 answers $code"
[ "$code" = 200 ] || { echo "cluster-test: FAIL: server 2 refuses a re-activated tenant"; exit 1; }

echo "== cluster-test 4: replica stopped under load"
python3 "$ROOT/scripts/cluster_load.py" failover --url "$URL" --reader-token "$READER" --writer-token "$WRITER" \
  --before 5 --after 10 --grace 0 --job-timeout 60 --fault-cmd "bash '$CLUSTER' stop-replica"
bash "$CLUSTER" start-replica

echo "== cluster-test 5: read-your-writes with the consistency token (replica streaming)"
sleep 2 # the restarted replica reconnects to the primary
python3 "$ROOT/scripts/cluster_load.py" readyourwrites --url "$URL" --reader-token "$READER" --writer-token "$WRITER" --count 20

echo "== cluster-test 6: store relocation to a dedicated table (started on server 1, used through server 2)"
PG="jdbc:postgresql://127.0.0.1:$BASE/corpora?user=postgres"
REPLICA="jdbc:postgresql://127.0.0.1:$((BASE + 1))/corpora?user=postgres"
python3 "$ROOT/scripts/cluster_load.py" relocate --url "$NODE2" --admin-url "$NODE1" --admin-token "$ADMIN" \
  --reader-token "$READER" --writer-token "$WRITER" --job-timeout 180 \
  --store-json "{\"provider\": \"pgvector\", \"config\": {\"jdbcUrl\": \"$PG\", \"replicaJdbcUrls\": \"$REPLICA\",
    \"maxReplicaLagMillis\": \"5000\", \"poolSize\": \"8\", \"table\": \"corpora_chunks_demo\", \"ensureSchema\": \"true\"}}"
left="$(psql -X -tA -h 127.0.0.1 -p "$BASE" -U postgres -d corpora -c "select count(*) from corpora_chunks where tenant = 'demo'")"
echo "cluster-test: chunks of demo left in the shared table: $left"
[ "$left" = 0 ] || { echo "cluster-test: FAIL: the source copy was not deleted"; exit 1; }

echo "== cluster-test 7: clean stop of server 1 while a batch job runs on it, then restart"
node1_live_leases="psql -X -tA -h 127.0.0.1 -p $BASE -U postgres -d corpora_control -c \"select count(*) from server_leases
  where server_id like 'corpora-node1@%' and expires_ms > extract(epoch from now()) * 1000\""
python3 "$ROOT/scripts/cluster_load.py" cleanstop --url "$URL" --node-url "$NODE1" --reader-token "$READER" --writer-token "$WRITER" \
  --count 200 --job-timeout 300 --stop-cmd "bash '$CLUSTER' stop-server 1" --leases-cmd "$node1_live_leases" \
  --log-dir "$CLUSTER_DIR/wlp-usr/servers/corpora-node1/logs"
bash "$CLUSTER" start-server 1

echo "== cluster-test 8: corpora ingest through HAProxy while server 1 is SIGKILLed (files that failed for a passing reason are sent again)"
files="$(mktemp -d)"
python3 - "$files" <<'PY'
import random, sys
random.seed(19)
words = "lantern harbour ferry keeper wick oil tide beacon fog signal shift log rope anchor gull pier".split()
for i in range(300):
    with open("%s/kill-note-%04d.md" % (sys.argv[1], i), "w") as f:
        f.write("# Kill note %d\n\n%s entry %d.\n" % (i, " ".join(random.choice(words) for _ in range(120)), i))
PY
documents() {
  curl -s -H "Authorization: Bearer $READER" "$URL/api/v1/tenants/demo/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["documents"])'
}
before="$(documents)"
# The kill lands once the upload is under way (30 files stored); jobs of 10 files keep both servers busy meanwhile.
( for _ in $(seq 1 120); do [ "$(documents)" -ge $((before + 30)) ] && break; sleep 0.5; done; bash "$CLUSTER" kill-server 1 ) &
killer=$!
set +e
"$ROOT/bin/corpora" ingest "$files" --tenant demo --server "$URL" --token "$WRITER" --batch 10 --state "$files.state" 2>&1 \
  | tr '\r' '\n' | grep -v ' documents \| incubator modules'
code=${PIPESTATUS[0]}
set -e
wait "$killer" || true
rm -rf "$files" "$files.state"
[ "$code" = 0 ] || { echo "cluster-test: FAIL: corpora ingest ended with exit code $code across the kill"; exit 1; }
after="$(documents)"
echo "cluster-test: demo holds $((after - before)) more documents"
[ "$((after - before))" = 300 ] || { echo "cluster-test: FAIL: 300 files ingested, $((after - before)) more documents"; exit 1; }
bash "$CLUSTER" status
echo "== cluster-test: all passed in $((SECONDS - t0)) s"
