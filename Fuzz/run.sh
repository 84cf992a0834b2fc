#!/usr/bin/env bash
# Builds a fuzz target with libFuzzer and AddressSanitizer and runs it for a bounded time.
#
#   Fuzz/run.sh [frames|requests] [seconds]      default: frames, 60 s
#
# frames:   workout-fuzz-frames, the frame decoder (Fuzz/FrameDecoder).
# requests: workout-fuzz-requests, any body to any method through the router and a real store
#           (Fuzz/Requests).
# The build goes to .build-fuzz (git-ignored). The fuzzer starts from the committed seed
# corpus in Fuzz/corpus/<target> and keeps what it learns in .build-fuzz/corpus/<target>;
# crashes, leaks and timeouts are written to .build-fuzz/artifacts/<target>/.
set -euo pipefail

target=frames
if [[ "${1:-}" == frames || "${1:-}" == requests ]]; then target="$1"; shift; fi
seconds="${1:-60}"
cd "$(dirname "$0")/.."

product="workout-fuzz-$target"
flags=(-c release --scratch-path .build-fuzz --product "$product"
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld)
swift build "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/$product"

case "$target" in
  frames) extra=(-max_len=70000) ;;
  # Bodies up to the 64 KiB a call without a session may send; LeakSanitizer off: the Swift
  # runtime's metadata caches and the household kept for the whole run are not leaks.
  requests) extra=(-max_len=65538 -detect_leaks=0) ;;
esac

mkdir -p ".build-fuzz/corpus/$target" ".build-fuzz/artifacts/$target"
"$binary" \
    -max_total_time="$seconds" \
    -timeout=10 \
    -rss_limit_mb=2048 \
    "${extra[@]}" \
    -print_final_stats=1 \
    -artifact_prefix=".build-fuzz/artifacts/$target/" \
    ".build-fuzz/corpus/$target" "Fuzz/corpus/$target"
