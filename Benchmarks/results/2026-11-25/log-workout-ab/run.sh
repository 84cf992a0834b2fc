#!/usr/bin/env bash
# log-workout 64x1, three interleaved rounds of two release builds (here 3f57294 and 99dd299) on one
# preloaded store (`workout-bench --preload-only --users 100 --preload 3650`), under SCHED_RR.
#   BEFORE, AFTER  release build directories holding workout-bench and workoutd
#   DATA           the preloaded data directory
set -u
for r in 1 2 3; do for b in before after; do
  if [ $b = before ]; then D=${BEFORE:?}; else D=${AFTER:?}; fi
  chrt -r 10 $D/workout-bench --scenario log-workout --connections 64 --pipeline 1 --duration 8 --warmup 1 \
    --data-dir ${DATA:?} --json lwo-$b-$r.json > lwo-$b-$r.log 2>&1
done; done
