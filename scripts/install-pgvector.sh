#!/usr/bin/env bash
# Makes pgvector >= 0.8 available to the local PostgreSQL 15 cluster and prepares a test database,
# so the store-pgvector tests run against a real database (CORPORA_TEST_PG_URL).
#
# Idempotent; run as root. Debian 12 ships no pgvector package, so this builds pgvector from Debian
# trixie's *source* package against postgresql-server-dev-15. /etc/apt is never modified: the trixie
# deb-src line lives in a private sources list with private package lists (under $WORK_DIR).
#
# Steps (each skipped when already done):
#   1. start cluster 15/main if it is stopped;
#   2. build + install pgvector if pg_available_extensions lacks vector >= 0.8;
#   3. put `trust` for 127.0.0.1/32 and ::1/128 at the top of pg_hba.conf and reload
#      (loopback only, for a CI/dev machine; set CORPORA_PG_TRUST_LOOPBACK=0 to skip);
#   4. create database $CORPORA_TEST_DB (default corpora_test) with CREATE EXTENSION vector.
# Prints the JDBC URL to export as CORPORA_TEST_PG_URL on its last line.
set -euo pipefail

PG_MAJOR=15
PG_CLUSTER=main
PG_CONFIG=/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config
MIN_VERSION=0.8.0
TEST_DB=${CORPORA_TEST_DB:-corpora_test}
TRUST_LOOPBACK=${CORPORA_PG_TRUST_LOOPBACK:-1}
WORK_DIR=${CORPORA_PGVECTOR_WORK_DIR:-/var/tmp/corpora-pgvector}
HBA_MARKER="# corpora: trust loopback for tests (scripts/install-pgvector.sh)"

log() { echo "[install-pgvector] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || die "must run as root (installs packages and writes the PostgreSQL extension directory)"
[[ "$TEST_DB" =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || die "CORPORA_TEST_DB must be a plain lower-case identifier, got '$TEST_DB'"
command -v pg_lsclusters >/dev/null || die "PostgreSQL is not installed (no pg_lsclusters); install postgresql-${PG_MAJOR} first"

psql_admin() { PGOPTIONS="-c client_min_messages=warning" runuser -u postgres -- psql -X -v ON_ERROR_STOP=1 -p "$PG_PORT" "$@"; }

version_at_least() { # $1 >= $2 ?
    [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" == "$2" ]]
}

# --- 1. the cluster is running -------------------------------------------------------------------------
cluster_line=$(pg_lsclusters --no-header | awk -v v="$PG_MAJOR" -v c="$PG_CLUSTER" '$1==v && $2==c')
[[ -n "$cluster_line" ]] || die "no PostgreSQL cluster ${PG_MAJOR}/${PG_CLUSTER} (see pg_lsclusters)"
PG_PORT=$(awk '{print $3}' <<<"$cluster_line")
if [[ $(awk '{print $4}' <<<"$cluster_line") != online* ]]; then
    log "starting cluster ${PG_MAJOR}/${PG_CLUSTER}"
    pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$PG_CLUSTER" start
fi
deadline=$((SECONDS + 30))
until runuser -u postgres -- pg_isready -q -p "$PG_PORT"; do
    (( SECONDS < deadline )) || die "cluster ${PG_MAJOR}/${PG_CLUSTER} not accepting connections on port $PG_PORT after 30 s"
    sleep 0.5
done

# --- 2. pgvector >= MIN_VERSION is available ---------------------------------------------------------
available_version() {
    psql_admin -d postgres -Atc "SELECT coalesce(max(version), '') FROM pg_available_extension_versions WHERE name = 'vector'"
}
have=$(available_version)
if [[ -n "$have" ]] && version_at_least "$have" "$MIN_VERSION"; then
    log "pgvector $have already available; build skipped"
else
    log "pgvector ${have:-absent} < $MIN_VERSION: building from Debian trixie sources"
    export DEBIAN_FRONTEND=noninteractive
    missing=()
    for pkg in postgresql-server-dev-${PG_MAJOR} build-essential dpkg-dev; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    if (( ${#missing[@]} )); then
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi

    mkdir -p "$WORK_DIR/lists/partial" "$WORK_DIR/src"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
        > "$WORK_DIR/trixie-src.list"
    # Private sources list, private package lists, no binary caches: /etc/apt and /var/lib/apt stay untouched.
    private_apt=(-o "Dir::Etc::SourceList=$WORK_DIR/trixie-src.list" -o Dir::Etc::SourceParts=/dev/null
                 -o "Dir::State::Lists=$WORK_DIR/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
    apt-get "${private_apt[@]}" update -qq
    rm -rf "$WORK_DIR/src" && mkdir -p "$WORK_DIR/src"
    (cd "$WORK_DIR/src" && apt-get "${private_apt[@]}" -o APT::Sandbox::User=root source -qq pgvector/trixie >/dev/null)
    src_dir=$(find "$WORK_DIR/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
    [[ -n "$src_dir" ]] || die "apt-get source pgvector/trixie produced no source directory in $WORK_DIR/src"
    # OPTFLAGS= : portable code (no -march=native), as Debian builds it.
    make -s -C "$src_dir" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" -j"$(nproc)" >/dev/null
    make -s -C "$src_dir" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install >/dev/null
    have=$(available_version)
    [[ -n "$have" ]] && version_at_least "$have" "$MIN_VERSION" \
        || die "after building $src_dir, pgvector available version is '${have:-none}', need >= $MIN_VERSION"
    log "pgvector $have installed from $(basename "$src_dir")"
fi

# --- 3. loopback TCP logins work without a password -----------------------------------------------
if [[ "$TRUST_LOOPBACK" == 1 ]]; then
    hba=$(psql_admin -d postgres -Atc "SHOW hba_file")
    if ! grep -qF "$HBA_MARKER" "$hba"; then
        log "adding loopback trust to the top of $hba"
        tmp=$(mktemp)
        { echo "$HBA_MARKER"
          echo "host all all 127.0.0.1/32 trust"
          echo "host all all ::1/128 trust"
          cat "$hba"; } > "$tmp"
        cat "$tmp" > "$hba" && rm -f "$tmp"   # cat keeps the file's owner and mode
        psql_admin -d postgres -qAtc "SELECT pg_reload_conf()" >/dev/null
    fi
fi

# --- 4. test database with the extension -----------------------------------------------------------
if [[ -z $(psql_admin -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$TEST_DB'") ]]; then
    log "creating database $TEST_DB"
    runuser -u postgres -- createdb -p "$PG_PORT" "$TEST_DB"
fi
psql_admin -d "$TEST_DB" -qc "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
installed=$(psql_admin -d "$TEST_DB" -Atc "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
if ! version_at_least "$installed" "$MIN_VERSION"; then
    log "updating extension vector $installed in $TEST_DB"
    psql_admin -d "$TEST_DB" -qc "ALTER EXTENSION vector UPDATE" >/dev/null
    installed=$(psql_admin -d "$TEST_DB" -Atc "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
fi
version_at_least "$installed" "$MIN_VERSION" || die "extension vector in $TEST_DB is $installed, need >= $MIN_VERSION"
log "database $TEST_DB has vector $installed"
echo "CORPORA_TEST_PG_URL=jdbc:postgresql://127.0.0.1:${PG_PORT}/${TEST_DB}?user=postgres"
