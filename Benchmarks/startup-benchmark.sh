#!/usr/bin/env bash
# Start-up cost of the heartwork binary against the floor: a Swift "hello world" that imports
# Foundation, linked the same way (static Swift runtime, position-independent). Needs
# hyperfine (Debian: apt-get install hyperfine). Prints hyperfine's figures and the
# difference of each command's mean to the floor's. Asserts nothing.
#
#   bash Benchmarks/startup-benchmark.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product heartwork > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
binary=.build/release/heartwork
cat > "$work/hello.swift" <<'SWIFT'
import Foundation
print("hello \(Date().timeIntervalSince1970 > 0)")
SWIFT
swiftc -O -static-stdlib "$work/hello.swift" -o "$work/hello"
"$binary" simulate --minutes 60 --seed 3 > "$work/one-hour.txt"

hyperfine -N --warmup 10 --runs 100 --export-json "$work/startup.json" \
  -n floor "$work/hello" \
  -n zones "$binary zones --age 24 --resting-hr 65" \
  -n "hrm decode" "$binary hrm decode 16480004" \
  -n "hrv 1 h" "$binary hrv $work/one-hour.txt"

python3 - "$work/startup.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
floor = results[0]["mean"] * 1000
print(f"\nfloor (Foundation hello world, static): {floor:.2f} ms")
for result in results[1:]:
    mean = result["mean"] * 1000
    print(f"{result['command']:<12} {mean:6.2f} ms   {mean - floor:+6.2f} ms over the floor")
PY
