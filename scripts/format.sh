#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format and the repository's
# .swift-format (Hummingbird's configuration, lines up to 180); `--check` only reports, as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks Plugins Fuzz Package.swift)
if [ "${1:-}" = "--check" ]; then
    swift format lint --strict --recursive --parallel "${paths[@]}"
else
    swift format format --in-place --recursive --parallel "${paths[@]}"
fi
