#!/usr/bin/env bash
# log-workout 64x1, three interleaved rounds: release builds of 3f57294 (before) and 99dd299 (after),
# on one preloaded store (100 members x 3,650 records), under SCHED_RR.
for r in 1 2 3; do for b in before after; do
  if [ $b = before ]; then D=/work/wt-soak/.build/release; else D=/work/wt-import/.build/release; fi
  chrt -r 10 $D/workout-bench --scenario log-workout --connections 64 --pipeline 1 --duration 8 --warmup 1 \
    --data-dir /tmp/tls-bench-data --json lwo-$b-$r.json > lwo-$b-$r.log 2>&1
done; done
