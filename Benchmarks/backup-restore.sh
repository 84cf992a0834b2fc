#!/usr/bin/env bash
# Times `workoutd backup --archive` and `workoutd restore` of that archive on a store holding
# ten years of one household: 4 members (and the owner), each with 4 meals a day (two food
# items each) and a workout a day for 3,650 days — 73,000 records, preloaded in bulk by
# workout-bench (WorkoutCore's importRecordsLocally, no RPC).
#
#   Benchmarks/backup-restore.sh [BIN_DIR] [RUNS]
#
# BIN_DIR holds workoutd and workout-bench (default: `swift build --show-bin-path`, the debug
# build; `swift build -c release` and pass .build/release for release figures). RUNS: 3.
# Prints one line per run and the sizes; the scratch directory is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$(swift build --show-bin-path)}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { date +%s%N; }
elapsed() { local ms=$(( ($2 - $1) / 1000000 )); printf '%d.%02d' $((ms / 1000)) $(((ms % 1000) / 10)); }

start=$(seconds)
"$bin/workout-bench" --preload-only --data-dir "$work/data" --users 4 --preload 14600 --per-day 4 >/dev/null
echo "preload: 73,000 records in $(elapsed "$start" "$(seconds)") s; store $(du -k "$work/data/data.mdb" | cut -f1) KiB on disk"

for run in $(seq "$runs"); do
  start=$(seconds)
  "$bin/workoutd" backup --data-dir "$work/data" --archive "$work/archive-$run.tar.gz" >/dev/null
  backup=$(elapsed "$start" "$(seconds)")
  start=$(seconds)
  "$bin/workoutd" restore --data-dir "$work/restored-$run" "$work/archive-$run.tar.gz" >/dev/null
  restore=$(elapsed "$start" "$(seconds)")
  echo "run $run: backup $backup s, restore $restore s"
done
"$bin/workoutd" restore --data-dir "$work/check" "$work/archive-1.tar.gz" | tail -n 1
echo "archive: $(stat -c %s "$work/archive-1.tar.gz") bytes"
