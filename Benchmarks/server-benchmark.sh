#!/usr/bin/env bash
# Server benchmarks (issue #4): release build, SQLite, wrk from Debian. Prints figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
swift build -c release --product heartwork
python3 Benchmarks/server_benchmark.py .build/release/heartwork "$@"
