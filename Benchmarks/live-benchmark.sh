#!/usr/bin/env bash
# Live-ingest benchmark (issue #9): release build, SQLite, 10,000 sensors at 1 Hz over 100 gateway
# connections with 50 viewers, then the same frames through mosquitto (Debian). Exits non-zero if a
# reading was lost. Options go to the script: --seconds, --sensors, --gateways, --viewers, --warmup,
# --workers, --skip-mosquitto, --json out.json.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import websockets' 2> /dev/null || { echo "the websockets package is missing: pip install websockets"; exit 1; }
if [[ " $* " != *" --skip-mosquitto "* ]]; then
    command -v mosquitto > /dev/null || [ -x /usr/sbin/mosquitto ] || { echo "mosquitto is missing: apt-get install mosquitto"; exit 1; }
fi
swift build -c release --product heartwork
python3 Benchmarks/live_benchmark.py .build/release/heartwork "$@"
