#!/usr/bin/env bash
# A Corpora cluster on one machine, shaped like a multi-host deployment (only hosts and ports differ):
#   PostgreSQL 15 primary  — the control plane (tenants, registry, jobs, leases, rate limits) and the pgvector store
#   PostgreSQL 15 replica  — streaming replica of the primary (pg_basebackup, physical replication slot, hot standby)
#   N Corpora servers      — Open Liberty, each with its own server name, HTTP port and data directory
#   HAProxy                — round robin over the servers, health-checked on /health/ready
#
#   scripts/cluster.sh up [--servers N]   build if needed, start everything, print the URL (idempotent)
#   scripts/cluster.sh status             every process: pid, port, state; replication lag; HAProxy's view
#   scripts/cluster.sh down [--purge]     stop everything (--purge also deletes the cluster's data)
#   scripts/cluster.sh kill-server I      SIGKILL server I's JVM (failover tests)
#   scripts/cluster.sh start-server I     (re)start server I and wait until it is ready
#   scripts/cluster.sh stop-replica|start-replica
#
# Ports (CORPORA_CLUSTER_BASE_PORT, default 19500): primary +0, replica +1, HAProxy +20, HAProxy stats +21,
# server I (1-based) +10+I-1. Data under CORPORA_CLUSTER_DIR (default .corpora/cluster). Runs as root (it starts
# PostgreSQL as user postgres) or as the user owning the PostgreSQL binaries' data.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${CORPORA_CLUSTER_DIR:-$ROOT/.corpora/cluster}"
BASE="${CORPORA_CLUSTER_BASE_PORT:-19500}"
PG_BIN="${CORPORA_PG_BIN:-/usr/lib/postgresql/15/bin}"
HOST=127.0.0.1
PRIMARY_PORT=$((BASE + 0))
REPLICA_PORT=$((BASE + 1))
LB_PORT=$((BASE + 20))
STATS_PORT=$((BASE + 21))
DB=corpora                 # the pgvector store
CONTROL_DB=corpora_control # the control plane (its own Flyway history; in production often its own cluster)
WLP="$ROOT/platform-server/target/liberty/wlp"
TEMPLATE_SERVER="${CORPORA_TEMPLATE_SERVER:-}"
WAR="$ROOT/platform-server/target/corpora.war"
PLUGINS="$ROOT/platform-server/target/plugins"
SERVERS_FILE="$DIR/servers"

log() { echo "cluster: $*" >&2; }
die() { log "$*"; exit 1; }
server_port() { echo $((BASE + 10 + $1 - 1)); }
server_name() { echo "corpora-node$1"; }
server_count() { [ -f "$SERVERS_FILE" ] && cat "$SERVERS_FILE" || echo 2; }

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

psql_primary() { psql -X -q -v ON_ERROR_STOP=1 -h "$HOST" -p "$PRIMARY_PORT" -U postgres "$@"; }

# ---------------------------------------------------------------- PostgreSQL
pg_running() { as_pg "$PG_BIN/pg_ctl" -D "$1" status >/dev/null 2>&1; }

start_primary() {
  local data="$DIR/pg-primary"
  if [ ! -f "$data/PG_VERSION" ]; then
    log "initdb primary in $data (port $PRIMARY_PORT)"
    mkdir -p "$data" && chown postgres:postgres "$data" 2>/dev/null || true
    chmod 700 "$data"
    as_pg "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$data/postgresql.conf" <<CONF
# --- Corpora cluster (scripts/cluster.sh)
listen_addresses = '$HOST'
port = $PRIMARY_PORT
unix_socket_directories = '$data'
max_connections = 200
shared_buffers = 256MB
wal_level = replica
max_wal_senders = 5
max_replication_slots = 5
hot_standby = on
synchronous_commit = on
CONF
    echo "host replication postgres $HOST/32 trust" >>"$data/pg_hba.conf"
  fi
  if ! pg_running "$data"; then
    as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$data/server.log" -w start >/dev/null
    log "PostgreSQL primary up on $HOST:$PRIMARY_PORT"
  fi
  for db in "$DB" "$CONTROL_DB"; do
    if ! psql_primary -d postgres -tAc "select 1 from pg_database where datname='$db'" | grep -q 1; then
      psql_primary -d postgres -c "create database $db"
    fi
  done
  # The pgvector store's schema, as production runs it (the Flyway migrations of plugins/store-pgvector, in order).
  psql_primary -d "$DB" -c "create extension if not exists vector" >/dev/null
  local migration
  for migration in $(ls "$ROOT"/migrations/store-pgvector/V*__*.sql | sort -V); do
    PGOPTIONS='-c client_min_messages=warning' psql_primary -d "$DB" -f "$migration" >/dev/null \
      || die "the pgvector schema could not be brought up to date: $migration failed (see migrations/store-pgvector)"
  done
  if ! psql_primary -d postgres -tAc "select 1 from pg_replication_slots where slot_name='corpora_replica1'" | grep -q 1; then
    psql_primary -d postgres -tAc "select pg_create_physical_replication_slot('corpora_replica1')" >/dev/null
  fi
}

start_replica() {
  local data="$DIR/pg-replica1"
  if [ ! -f "$data/PG_VERSION" ]; then
    log "pg_basebackup replica into $data (port $REPLICA_PORT, slot corpora_replica1)"
    mkdir -p "$data" && chown postgres:postgres "$data" 2>/dev/null || true
    chmod 700 "$data"
    # -R writes standby.signal and primary_conninfo; -S streams through the slot, so the primary keeps the WAL it needs;
    # --checkpoint=fast: the default spread checkpoint kept an idle primary waiting about three minutes.
    as_pg "$PG_BIN/pg_basebackup" -h "$HOST" -p "$PRIMARY_PORT" -U postgres -D "$data" -R -S corpora_replica1 -X stream --checkpoint=fast >/dev/null
    cat >>"$data/postgresql.conf" <<CONF
# --- replica overrides
port = $REPLICA_PORT
unix_socket_directories = '$data'
hot_standby = on
hot_standby_feedback = on
CONF
  fi
  if ! pg_running "$data"; then
    as_pg "$PG_BIN/pg_ctl" -D "$data" -l "$data/server.log" -w start >/dev/null
    log "PostgreSQL replica up on $HOST:$REPLICA_PORT (hot standby)"
  fi
}

stop_pg() {
  local data="$1"
  [ -f "$data/PG_VERSION" ] && pg_running "$data" && as_pg "$PG_BIN/pg_ctl" -D "$data" -m fast -w stop >/dev/null && log "stopped $(basename "$data")"
  return 0
}

# ---------------------------------------------------------------- Corpora servers
ensure_built() {
  local template
  template="$(template_dir)"
  if [ ! -f "$WAR" ] || [ ! -d "$PLUGINS" ] || [ ! -f "$template/server.xml" ] || [ -n "${CORPORA_REBUILD:-}" ]; then
    # install runs pre-integration-test, whose liberty:create makes the server this script copies.
    log "building the server, its plugins and its Liberty runtime (mvn -DskipTests install) …"
    (cd "$ROOT" && mvn -B -q -DskipTests install) >&2
  fi
  [ -f "$(template_dir)/server.xml" ] || die "no Liberty server created under $WLP/usr/servers"
}

template_dir() {
  if [ -n "$TEMPLATE_SERVER" ]; then echo "$WLP/usr/servers/$TEMPLATE_SERVER"; return; fi
  # The server liberty-maven-plugin created (its name is liberty.server.name: corpora, or a helper's own).
  local found
  found="$(ls -d "$WLP"/usr/servers/*/ 2>/dev/null | while read -r d; do [ -f "$d/server.xml" ] && [ -d "$d/jdbc" ] && echo "${d%/}"; done | grep -v '/corpora-node' | head -1 || true)"
  echo "${found:-$WLP/usr/servers/corpora}"
}

# Liberty keeps cluster servers out of the build tree: WLP_USER_DIR points at the cluster's own usr directory.
server_dir() { echo "$DIR/wlp-usr/servers/$(server_name "$1")"; }

write_tenants() {
  mkdir -p "$DIR/tenants"
  # The demo tenant on the shared pgvector store (every server sees the same corpus); Lucene keeps a per-server index,
  # which a cluster cannot share.
  cat >"$DIR/tenants/demo.yaml" <<YAML
id: demo
displayName: Demo tenant (cluster)
store:
  provider: pgvector
  config:
    jdbcUrl: "jdbc:postgresql://$HOST:$PRIMARY_PORT/$DB?user=postgres"
    replicaJdbcUrls: "jdbc:postgresql://$HOST:$REPLICA_PORT/$DB?user=postgres"
    maxReplicaLagMillis: "5000"
    poolSize: "8"
embedder:
  provider: onnx
retrieval:
  mode: hybrid
  topK: 5
  maxChars: 6000
quotas:
  maxDocuments: 100000
  requestsPerMinute: ${CORPORA_CLUSTER_RPM:-100000}
  ingestsPerMinute: ${CORPORA_CLUSTER_IPM:-100000}
YAML
}

make_server() {
  local i="$1" dir data port
  dir="$(server_dir "$i")"; data="$DIR/data/$(server_name "$i")"; port="$(server_port "$i")"
  mkdir -p "$dir/dropins" "$data"
  cp "$(template_dir)/server.xml" "$dir/server.xml"
  rm -rf "$dir/jdbc"; cp -r "$(template_dir)/jdbc" "$dir/jdbc"
  cp "$WAR" "$dir/dropins/corpora.war"
  # The whole of a node's configuration: a multi-host deployment sets the same keys with its own hosts.
  cat >"$dir/bootstrap.properties" <<PROPS
http.port=$port
corpora.data.dir=$data
corpora.db.url=jdbc:postgresql://$HOST:$PRIMARY_PORT/$CONTROL_DB
corpora.db.user=postgres
corpora.db.password=
PROPS
  # A floor under Liberty's executor: its default core size follows the cores (4 threads here), and a readiness check
  # holds its request thread while it waits for the asynchronous probes queued on that same executor; with every
  # thread holding a check, the probes never run (seen on this 2-core machine under load).
  mkdir -p "$dir/configDropins/overrides"
  cat >"$dir/configDropins/overrides/cluster-node.xml" <<XML
<server>
  <executor coreThreads="${CORPORA_CLUSTER_CORE_THREADS:-24}"/>
</server>
XML
  cat >"$dir/jvm.options" <<OPTS
-Dcorpora.plugins.dir=$PLUGINS
-Dcorpora.data.dir=$data
-Dcorpora.tenants.dir=$DIR/tenants
-Dcorpora.server.name=$(server_name "$i")
-Dcorpora.lease.ttlSeconds=${CORPORA_CLUSTER_LEASE_TTL:-15}
-Dcorpora.dev.mode=true
-Xmx${CORPORA_CLUSTER_XMX:-768m}
OPTS
}

server_pid() {
  local pidfile; pidfile="$DIR/wlp-usr/servers/.pid/$(server_name "$1").pid"
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && cat "$pidfile"
  return 0
}

liberty() { WLP_USER_DIR="$DIR/wlp-usr" JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}" "$WLP/bin/server" "$@"; }

ready() { curl -sf -o /dev/null --max-time 3 "http://$HOST:$1/health/ready"; }

start_server() {
  local i="$1" port; port="$(server_port "$i")"
  if [ -n "$(server_pid "$i")" ] && ready "$port"; then return 0; fi
  make_server "$i" # regenerated each start: the configuration and the WAR are the checkout's
  haproxy_cmd "set server servers/$(server_name "$i") state maint"
  log "starting $(server_name "$i") on $HOST:$port …"
  liberty start "$(server_name "$i")" >/dev/null || die "server $(server_name "$i") did not start (see $(server_dir "$i")/logs)"
  local deadline=$((SECONDS + ${CORPORA_CLUSTER_START_TIMEOUT:-400}))
  until ready "$port"; do
    [ -n "$(server_pid "$i")" ] || die "$(server_name "$i") exited during start-up (see $(server_dir "$i")/logs/messages.log)"
    [ $SECONDS -lt $deadline ] || die "$(server_name "$i") not ready after the start timeout"
    sleep 2
  done
  haproxy_cmd "set server servers/$(server_name "$i") state ready"
  log "$(server_name "$i") ready on http://$HOST:$port"
}

# A command on HAProxy's runtime API, when HAProxy runs (and socat is there); silently nothing otherwise.
haproxy_cmd() {
  [ -S "$DIR/haproxy.sock" ] && [ -n "$(haproxy_pid)" ] && command -v socat >/dev/null && echo "$1" | socat - "UNIX-CONNECT:$DIR/haproxy.sock" >/dev/null 2>&1
  return 0
}

stop_server() {
  local i="$1"
  [ -n "$(server_pid "$i")" ] && liberty stop "$(server_name "$i")" >/dev/null 2>&1 && log "stopped $(server_name "$i")"
  return 0
}

kill_server() {
  local pid; pid="$(server_pid "$1")"
  [ -n "$pid" ] || die "$(server_name "$1") is not running"
  kill -KILL "$pid"
  log "SIGKILLed $(server_name "$1") (pid $pid)"
}

# ---------------------------------------------------------------- HAProxy
write_haproxy() {
  local n="$1" i
  {
    cat <<CFG
# Generated by scripts/cluster.sh. A multi-host deployment lists its servers' host:port the same way.
global
  maxconn 2000
  pidfile $DIR/haproxy.pid
  # Runtime API: a server is put in maintenance while it (re)starts, so no check reaches it before it is ready.
  stats socket $DIR/haproxy.sock mode 600 level admin
defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  # A request that could not connect (a dead server the health check has not yet marked down) goes to another
  # server. One already sent is re-sent to another server only if it reads and its server closed the connection
  # without an answer (killed mid-request): see disable-l7-retry below; a write may have been applied, so it fails.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response junk-response
frontend corpora
  bind $HOST:$LB_PORT
  default_backend servers
backend servers
  balance roundrobin
  option httpchk GET /health/ready
  http-check expect status 200
  timeout check 3s
  default-server inter 2s fall 2 rise 2
  # Reads are safe to send twice: GET and HEAD, the retrieve routes (POST with a query body) and MCP's POSTs (the MCP
  # server is stateless and every method reads) but a call of its ask tool, which, like POST ask, runs the generator
  # again and may answer differently. Nothing else is re-sent once sent, whatever retry-on says.
  # HAProxy keeps a request to re-send only if it had the whole of it when it chose the server: wait for the body.
  option http-buffer-request
  acl retrieve_route path_end /retrieve /retrieve:batch
  acl mcp_route path /mcp
  acl names_ask_tool req.body -m sub '"ask"'
  http-request disable-l7-retry if !METH_GET !retrieve_route !mcp_route
  http-request disable-l7-retry if mcp_route names_ask_tool
  # Which server answered (the failover test counts the survivor's answers).
  http-response set-header X-Corpora-Server %s
CFG
    for i in $(seq 1 "$n"); do echo "  server $(server_name "$i") $HOST:$(server_port "$i") check"; done
    cat <<CFG
listen stats
  bind $HOST:$STATS_PORT
  stats enable
  stats uri /stats
CFG
  } >"$DIR/haproxy.cfg"
}

haproxy_pid() { [ -f "$DIR/haproxy.pid" ] && kill -0 "$(cat "$DIR/haproxy.pid")" 2>/dev/null && cat "$DIR/haproxy.pid"; return 0; }

start_haproxy() {
  command -v haproxy >/dev/null || die "haproxy is not installed (apt-get install -y haproxy)"
  haproxy -c -q -f "$DIR/haproxy.cfg" || die "invalid $DIR/haproxy.cfg"
  local pid; pid="$(haproxy_pid)"
  if [ -n "$pid" ]; then
    haproxy -D -f "$DIR/haproxy.cfg" -sf "$pid"   # reload with the current server list
  else
    haproxy -D -f "$DIR/haproxy.cfg"
  fi
  log "HAProxy on http://$HOST:$LB_PORT (stats http://$HOST:$STATS_PORT/stats)"
}

# ---------------------------------------------------------------- commands
cmd_up() {
  local n=2
  while [ $# -gt 0 ]; do
    case "$1" in
      --servers) n="$2"; shift 2 ;;
      *) die "unknown option $1" ;;
    esac
  done
  [ "$n" -ge 1 ] && [ "$n" -le 9 ] || die "--servers must be 1..9"
  mkdir -p "$DIR"
  chmod 755 "$DIR" # PostgreSQL runs as user postgres and must reach its data directories below
  echo "$n" >"$SERVERS_FILE"
  ensure_built
  start_primary
  start_replica
  write_tenants
  # The first server applies the control-plane migrations and syncs the tenants; the others then start together.
  start_server 1
  if [ "$n" -gt 1 ]; then
    for i in $(seq 2 "$n"); do start_server "$i" & done
    wait
    for i in $(seq 2 "$n"); do ready "$(server_port "$i")" || die "$(server_name "$i") did not become ready"; done
  fi
  # HAProxy last: health checks that reach a server still deploying the application hold its request threads (the
  # readiness probes wait for asynchronous checks that Liberty defers until the application has started).
  write_haproxy "$n"
  start_haproxy
  local deadline=$((SECONDS + 30))
  until curl -sf -o /dev/null "http://$HOST:$LB_PORT/health/ready"; do
    [ $SECONDS -lt $deadline ] || die "HAProxy has no ready server after 30 s"
    sleep 1
  done
  cat <<MSG

 Corpora cluster is up: http://$HOST:$LB_PORT   ($n servers behind HAProxy; DEVELOPMENT MODE tokens)
   status   bin/corpora cluster status
   query    curl -s -H "Authorization: Bearer \$(bin/corpora token --tenant demo --roles reader)" \\
                 -H 'Content-Type: application/json' -d '{"query":"hybrid retrieval"}' http://$HOST:$LB_PORT/api/v1/tenants/demo/retrieve
   stop     bin/corpora cluster down
MSG
  echo "http://$HOST:$LB_PORT"
}

cmd_status() {
  local n i pid port state
  n="$(server_count)"
  printf '%-18s %-8s %-22s %s\n' PROCESS PID ADDRESS STATE
  for role in primary replica1; do
    local data="$DIR/pg-$role" p
    [ "$role" = primary ] && p=$PRIMARY_PORT || p=$REPLICA_PORT
    pid="$(head -1 "$data/postmaster.pid" 2>/dev/null || true)"
    if pg_running "$data"; then
      state="running $(psql -X -tAc "select case when pg_is_in_recovery() then 'standby' else 'primary' end" -h $HOST -p "$p" -U postgres -d postgres 2>/dev/null)"
    else state=down; pid=-; fi
    printf '%-18s %-8s %-22s %s\n' "postgres-$role" "$pid" "$HOST:$p" "$state"
  done
  for i in $(seq 1 "$n"); do
    pid="$(server_pid "$i")"; port="$(server_port "$i")"
    if [ -z "$pid" ]; then state=down; pid=-; elif ready "$port"; then state=ready; else state="running, not ready"; fi
    printf '%-18s %-8s %-22s %s\n' "$(server_name "$i")" "$pid" "$HOST:$port" "$state"
  done
  pid="$(haproxy_pid)"
  printf '%-18s %-8s %-22s %s\n' haproxy "${pid:--}" "$HOST:$LB_PORT" "$([ -n "$pid" ] && echo running || echo down)"
  if pg_running "$DIR/pg-primary"; then
    echo
    echo "replication (on the primary):"
    psql -X -h $HOST -p "$PRIMARY_PORT" -U postgres -d postgres -c \
      "select application_name, state, sent_lsn, replay_lsn, pg_wal_lsn_diff(sent_lsn, replay_lsn) as lag_bytes, replay_lag from pg_stat_replication" 2>/dev/null || true
    echo "server leases (control plane):"
    psql -X -h $HOST -p "$PRIMARY_PORT" -U postgres -d "$CONTROL_DB" -c \
      "select server_id, to_timestamp(heartbeat_ms / 1000.0) as heartbeat, to_timestamp(expires_ms / 1000.0) as expires, expires_ms > extract(epoch from now()) * 1000 as alive from server_leases order by server_id" 2>/dev/null || echo "  (none yet)"
  fi
  if [ -n "$(haproxy_pid)" ]; then
    echo "HAProxy backends:"
    curl -s "http://$HOST:$STATS_PORT/stats;csv" | awk -F, '$1=="servers" && $2!="BACKEND" {printf "  %-16s %s\n", $2, $18}'
  fi
}

cmd_down() {
  local purge=0 n i
  [ "${1:-}" = --purge ] && purge=1
  n="$(server_count)"
  for i in $(seq 1 "$n"); do stop_server "$i"; done
  local pid; pid="$(haproxy_pid)"
  if [ -n "$pid" ]; then kill "$pid"; rm -f "$DIR/haproxy.pid"; log "stopped HAProxy"; fi
  stop_pg "$DIR/pg-replica1"
  stop_pg "$DIR/pg-primary"
  if [ "$purge" = 1 ]; then rm -rf "$DIR"; log "deleted $DIR"; fi
}

case "${1:-help}" in
  up) shift; cmd_up "$@" ;;
  status) cmd_status ;;
  down) shift; cmd_down "$@" ;;
  kill-server) kill_server "$2" ;;
  start-server) start_server "$2" ;;
  stop-server) stop_server "$2" ;;
  start-pg) mkdir -p "$DIR" && chmod 755 "$DIR" && start_primary && start_replica ;;
  stop-replica) stop_pg "$DIR/pg-replica1" ;;
  start-replica) start_replica ;;
  url) echo "http://$HOST:$LB_PORT" ;;
  *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
