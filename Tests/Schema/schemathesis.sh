#!/usr/bin/env bash
# Property-based API testing with schemathesis (PyPI) against a live server: every operation
# of /openapi.json, unauthenticated and with a signed-in user's token, with a bounded number
# of examples per operation. Fails on a server error (5xx), an answer outside the documented
# statuses, content types or schemas, or an invalid request the server accepted.
#
# Every check runs except positive_data_acceptance: a schema cannot say that a time zone must
# exist, a username must be free or a date of birth lie in the past, so a schema-valid request
# may rightly be refused — with a documented 400/409/422 naming the field, which the other
# checks hold to the schema.
#
#     bash Tests/Schema/schemathesis.sh [path/to/heartwork] [examples per operation]
#
# Needs: pip install schemathesis
set -euo pipefail
binary="${1:-.build/debug/heartwork}"
examples="${2:-${SCHEMATHESIS_EXAMPLES:-30}}"
data="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
HEARTWORK_BCRYPT_COST=4 HEARTWORK_LOG_LEVEL=error "$binary" serve --port "$port" --data-dir "$data" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
  curl -fsS "$base/healthz" > /dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "$base/healthz" > /dev/null

# A user with a complete profile and a workout, so that signed-in operations reach real data.
curl -fsS -X POST "$base/api/auth/register" -H 'Content-Type: application/json' \
  -d '{"username":"schemathesis","fullName":"Schema Thesis","email":"st@example.org","password":"correct horse 1"}' > /dev/null
token="$(curl -fsS -X POST "$base/api/auth/login" -H 'Content-Type: application/json' \
  -d '{"username":"schemathesis","password":"correct horse 1"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
curl -fsS -X PATCH "$base/api/me" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"dateOfBirth":"1990-05-01","sex":"female"}' > /dev/null

status=0
run() {
  echo "== schemathesis: $1 ($examples examples per operation)"
  shift
  schemathesis run "$base/openapi.json" --url "$base" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$examples" --generation-deterministic --request-timeout 20 \
    --suppress-health-check all "$@" || status=1
}
run "unauthenticated"
# Signed in: everything but signing out (which would revoke the token for the rest of the run;
# the Swift tests cover it).
run "signed in" -H "Authorization: Bearer $token" --exclude-operation-id logout --exclude-operation-id logoutEverywhere --exclude-operation-id logoutForm
curl -fsS "$base/healthz" > /dev/null || { echo "the server stopped answering"; status=1; }
exit "$status"
