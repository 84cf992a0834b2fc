#!/usr/bin/env bash
# The server's anonymous memory over ten rounds of 1,000 silent TLS connections (issue 31), with
# the allocator trimmed after a burst drains (the default) and without (WORKOUTD_MEMORY_TRIM=off).
#
#   Benchmarks/memory-after-bursts.sh [OUT_DIR] [COUNT] [ROUNDS]
#       default: Benchmarks/results/<today>/memory-after-bursts, 1000, 10
#   WORKOUTD=path/to/workoutd Benchmarks/memory-after-bursts.sh …   (a build made elsewhere)
#
# For each mode: a fresh data directory, `workoutd serve --transport tls` on a free port, then
# Benchmarks/memory-after-bursts.py. Loopback only. Writes off.json and on.json, and prints both.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Benchmarks/results/$(date -u +%F)/memory-after-bursts}"
count="${2:-1000}"
rounds="${3:-10}"
mkdir -p "$out"
ulimit -n 8192
if [ -z "${WORKOUTD:-}" ]; then
  WORKOUTD="$(scripts/build-release workoutd | tail -n 1)/workoutd"
fi
data="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$data"' EXIT
for mode in off on; do
  rm -rf "$data/store" "$data/serve.log"
  mkdir -p "$data/store"
  trim="on"
  [ "$mode" = "off" ] && trim="off"
  WORKOUTD_MEMORY_TRIM="$trim" "$WORKOUTD" serve --data-dir "$data/store" --port 0 --transport tls \
      --log-level error >"$data/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do grep -q 'serving on' "$data/serve.log" 2>/dev/null && break; sleep 0.1; done
  port="$(head -1 "$data/serve.log" | sed 's/.*://')"
  sleep 2
  python3 Benchmarks/memory-after-bursts.py --port "$port" --pid "$server" --count "$count" \
      --rounds "$rounds" >"$out/$mode.json"
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=""
  echo "$mode: $(cat "$out/$mode.json")"
done
