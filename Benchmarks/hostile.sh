#!/usr/bin/env bash
# What hostile devices cost a running workoutd (issue 15): for each kind of attack, 1,000
# connections held (reconnecting when dropped) while a member makes calls; the server's
# anonymous memory and the member's latency, before and during. Loopback only.
#
#   Benchmarks/hostile.sh [OUT.json] [COUNT]     default: Benchmarks/results/<today>/hostile.json, 1000
#   WORKOUTD=path/to/workoutd Benchmarks/hostile.sh …   (a release build made elsewhere)
#
# Builds workoutd in release, makes an owner in a temporary data directory, starts the server
# with its default settings but in plain TCP (`--transport plain`: the devices speak the
# protocol in the clear), runs Benchmarks/hostile-devices.py once per kind.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Benchmarks/results/$(date -u +%F)/hostile.json}"
count="${2:-1000}"
mkdir -p "$(dirname "$out")"
ulimit -n 8192
if [ -z "${WORKOUTD:-}" ]; then
  WORKOUTD="$(scripts/build-release workoutd | tail -n 1)/workoutd"
fi
workoutd="$WORKOUTD"
data="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$data"' EXIT
password="hostile devices bench"
echo "$password" | "$workoutd" create-owner --data-dir "$data/store" --email owner@bench.example \
    --first-name Owner --time-zone UTC --password-stdin >/dev/null
"$workoutd" serve --data-dir "$data/store" --port 0 --transport plain --log-level error >"$data/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q 'serving on' "$data/serve.log" 2>/dev/null && break; sleep 0.1; done
port="$(head -1 "$data/serve.log" | sed 's/.*://')"
{
  echo "["
  first=1
  for kind in announce-4mib partial-frames idle-slots slow-sender; do
    [ $first -eq 1 ] || echo ","
    first=0
    python3 Benchmarks/hostile-devices.py --port "$port" --pid "$server" --email owner@bench.example \
        --password "$password" --kind "$kind" --count "$count" --seconds 20
    sleep 16  # the devices of one kind are gone (idle limit without a session) before the next
  done
  echo "]"
} >"$out"
cat "$out"
