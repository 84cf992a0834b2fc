#!/usr/bin/env bash
# glibc arena cap A/B: MALLOC_ARENA_MAX unset vs 2, interleaved, under SCHED_RR.
#   BUILD  a release build directory with workout-bench and workoutd (default: .build/release)
#   DATA   a data directory preloaded with `workout-bench --preload-only --users 100 --preload 3650`
#   OUT    where the JSON reports go (default: this folder)
set -u
B=${BUILD:-.build/release}/workout-bench
D=${DATA:?preloaded data directory}
OUT=${OUT:-$(dirname "$0")}
for round in 1 2 3; do
  for scen in meals-day log-weight; do
    for a in default 2; do
      if [ $a = default ]; then envs="env -u MALLOC_ARENA_MAX"; else envs="env MALLOC_ARENA_MAX=2"; fi
      $envs chrt -r 10 $B --scenario $scen --connections 64 --pipeline 1 --duration 8 --warmup 2 --data-dir $D \
         --json $OUT/$scen-arena-$a-$round.json > $OUT/$scen-arena-$a-$round.log 2>&1
    done
  done
done
