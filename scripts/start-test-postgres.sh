#!/usr/bin/env bash
# Starts the Debian PostgreSQL cluster and makes a role the tests can create databases with.
# Prints the URL to export as HEARTWORK_TEST_POSTGRES_URL. Idempotent.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
# The test suite runs many suites at once, each on a fresh database with its own pool (and
# the cross-instance tests two): Debian's default of 100 connections runs out.
config="/etc/postgresql/$version/main/postgresql.conf"
if ! grep -q "^max_connections = 500" "$config"; then
  echo "max_connections = 500" >> "$config"
  if pg_lsclusters -h | grep -q "^$version main .* online"; then pg_ctlcluster "$version" main restart; fi
fi
if ! pg_lsclusters -h | grep -q "^$version main .* online"; then
  pg_ctlcluster "$version" main start
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 && break
  sleep 1
done
runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'heartwork') THEN
    CREATE ROLE heartwork LOGIN PASSWORD 'heartwork' CREATEDB;
  END IF;
END $$;
SELECT 'CREATE DATABASE heartwork OWNER heartwork' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'heartwork')\gexec
SQL
echo "postgres://heartwork:heartwork@127.0.0.1:5432/heartwork"
