# Sourced by .ci/run: a throwaway PostgreSQL cluster on a Unix socket in a temporary folder,
# for the bot's PostgreSQL backend tests. initdb and pg_ctl refuse to run as root, so as root
# the cluster belongs to the machine's `postgres` user. Exports LEVERGUARD_TEST_DATABASE_URL
# and stops the cluster when the sourcing shell exits.
lg_pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$lg_pg_bin" ] && command -v pg_ctl >/dev/null; then lg_pg_bin=$(dirname "$(command -v pg_ctl)"); fi
if [ -z "$lg_pg_bin" ]; then
    echo "postgres.sh: no PostgreSQL binaries (initdb, pg_ctl) found" >&2
    return 1
fi
lg_pg_dir=$(mktemp -d /tmp/leverguard-pg.XXXXXX)
lg_pg_as() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$(id -u)" = 0 ]; then chown postgres: "$lg_pg_dir"; fi
lg_pg_as "$lg_pg_bin/initdb" -D "$lg_pg_dir/data" -U postgres -A trust --no-sync -E UTF8 >"$lg_pg_dir/initdb.log" 2>&1 \
    || { cat "$lg_pg_dir/initdb.log" >&2; return 1; }
# fsync off: a throwaway cluster; max_connections covers 20 concurrent senders plus workers.
lg_pg_as "$lg_pg_bin/pg_ctl" -D "$lg_pg_dir/data" -l "$lg_pg_dir/server.log" -w -s \
    -o "-c listen_addresses='' -c unix_socket_directories=$lg_pg_dir -c fsync=off -c max_connections=300" start \
    || { cat "$lg_pg_dir/server.log" >&2; return 1; }
lg_pg_stop() {
    lg_pg_as "$lg_pg_bin/pg_ctl" -D "$lg_pg_dir/data" -m immediate -s stop >/dev/null 2>&1 || true
    rm -rf "$lg_pg_dir"
}
trap lg_pg_stop EXIT
export LEVERGUARD_TEST_DATABASE_URL="postgresql://postgres@/postgres?host=$lg_pg_dir"
# pg_ctl, for the test that restarts the server mid-run (as the cluster's owner).
export LEVERGUARD_TEST_PG_CTL="$lg_pg_bin/pg_ctl"
export LEVERGUARD_TEST_PG_DATA="$lg_pg_dir/data"
