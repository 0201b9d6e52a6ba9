#!/usr/bin/env bash
# Fuzzes every decoder of HeartworkFormats with libFuzzer (issue 13):
#
#     bash scripts/fuzz.sh [SECONDS per target] [target ...]
#
# Builds one instrumented binary (swiftc -sanitize=fuzzer,address: the Core and Formats
# modules, then Fuzz/FuzzTargets.swift) into .build-fuzz/, then runs each target for SECONDS
# (default 30) on its seed corpus in Fuzz/corpus/TARGET (new finds go to .build-fuzz/corpus/).
# A crash stops with its input saved as .build-fuzz/crash-TARGET-*; turn each into a
# regression test. Prints executions and coverage per target.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(fit tcx gpx hrm rr csv json jsonkeys streams gateway lifting delimited health label zip dbus photo); fi
out=.build-fuzz
mkdir -p "$out/corpus"
if [ ! -x "$out/heartwork-fuzz" ] || [ -n "$(find Sources/HeartworkCore Sources/HeartworkFormats Fuzz -name '*.swift' -newer "$out/heartwork-fuzz" | head -1)" ]; then
  echo "== building the fuzz binary (log: $out/build.log)"
  exec 3>&1 1>"$out/build.log" 2>&1
  # zlib for the ZIP reader, through the package's own module map (Sources/HeartworkZlib).
  flags=(-sanitize=fuzzer,address -O -parse-as-library -wmo -I "$out/modules" -I Sources/HeartworkZlib)
  mkdir -p "$out/modules"
  for module in HeartworkCore HeartworkFormats; do
    swiftc "${flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
      -c $(find "Sources/$module" -name '*.swift' | sort) -o "$out/$module.o"
  done
  swiftc "${flags[@]}" -module-name HeartworkFuzz Fuzz/FuzzTargets.swift "$out/HeartworkCore.o" "$out/HeartworkFormats.o" -lz -o "$out/heartwork-fuzz"
  exec 1>&3 2>&1 3>&-
fi
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"  # the toolchain's own leaks (see the file)
export SWIFT_BACKTRACE=enable=no  # libFuzzer reports the trap itself (the Swift handler reads freed memory under ASan)
total=0
for target in "${targets[@]}"; do
  mkdir -p "$out/corpus/$target"
  seeds="Fuzz/corpus/$target"
  [ -d "$seeds" ] || seeds=""
  echo "== $target for ${seconds}s"
  log="$out/$target.log"
  HEARTWORK_FUZZ_TARGET="$target" "$out/heartwork-fuzz" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$out/crash-$target-" -print_final_stats=1 "$out/corpus/$target" $seeds > "$log" 2>&1 || { tail -40 "$log"; echo "fuzz target $target failed"; exit 1; }
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  echo "$target: $runs executions, coverage $cov edges"
  total=$((total + runs))
done
echo "all targets: $total executions"
