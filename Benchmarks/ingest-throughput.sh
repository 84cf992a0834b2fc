#!/usr/bin/env bash
# The phones' ingest timed through a release workoutd (issue 43): a year of one phone's
# minute-level Health Auto Export steps, and 500 FIT files posted to the upload, each twice.
#
#   Benchmarks/ingest-throughput.sh [OUT_DIR] [DAYS] [FIT_FILES]
#       default: Benchmarks/results/<today>/ingest-throughput, 365, 500
#   BIN=dir/with/workoutd-and-workout-bench Benchmarks/ingest-throughput.sh …
#
# A fresh store holds one member (workout-bench's preload, no records), serving plain HTTP on
# loopback with the import pacing raised (limits.import_batches_per_minute 6000, its most), so the
# figure is the server's work and not the pace a household's default (120 batches a minute)
# allows; the default's effect is said in Benchmarks/README.md. Writes results.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-Benchmarks/results/$(date -u +%F)/ingest-throughput}"
days="${2:-365}"
fit_files="${3:-500}"
if [ -z "${BIN:-}" ]; then
  BIN="$(scripts/build-release workoutd workout-bench | tail -n 1)"
fi
mkdir -p "$out"
data="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$data"' EXIT
"$BIN/workout-bench" --data-dir "$data/store" --preload-only --users 1 --preload 1 --per-day 1 --quiet >"$data/preload.txt" 2>&1
cat >"$data/workoutd.json" <<JSON
{"limits": {"import_batches_per_minute": 6000}}
JSON
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()')
"$BIN/workoutd" serve --config "$data/workoutd.json" --data-dir "$data/store" --port "$port" --transport plain \
    --log-level warning >"$data/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
token=$(curl -s -H 'Content-Type: application/json' \
  -d '{"email": "member0@bench.example", "password": "workout-bench password", "deviceName": "ingest"}' \
  "http://127.0.0.1:$port/workout.v1.AuthService/Login" | python3 -c 'import json,sys;print(json.load(sys.stdin)["sessionToken"])')
python3 Benchmarks/ingest-throughput.py --port "$port" --token "$token" --pid "$server" --days "$days" \
    --fit-files "$fit_files" | tee "$out/results.jsonl"
