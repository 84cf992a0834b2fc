#!/usr/bin/env bash
# Builds the frame decoder's fuzz target with libFuzzer and runs it for a bounded time.
#
#   Fuzz/run.sh [seconds]      default 60
#
# The build goes to .build-fuzz (git-ignored). The fuzzer starts from the committed seed
# corpus in Fuzz/corpus/frames and keeps what it learns in .build-fuzz/corpus/frames;
# crashes, leaks and timeouts are written to .build-fuzz/artifacts/.
set -euo pipefail

seconds="${1:-60}"
cd "$(dirname "$0")/.."

flags=(-c release --scratch-path .build-fuzz --product workout-fuzz-frames
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld)
swift build "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/workout-fuzz-frames"

mkdir -p .build-fuzz/corpus/frames .build-fuzz/artifacts
"$binary" \
    -max_total_time="$seconds" \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -max_len=70000 \
    -print_final_stats=1 \
    -artifact_prefix=.build-fuzz/artifacts/ \
    .build-fuzz/corpus/frames Fuzz/corpus/frames
