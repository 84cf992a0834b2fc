#!/usr/bin/env bash
# The 60-minute household soak after a 10-minute warm-up (release build of 864d8d9), under SCHED_RR.
#   BUILD  a release build directory with workout-bench and workoutd (default: .build/release)
chrt -r 10 ${BUILD:-.build/release}/workout-bench --scenario household --soak 60 --rate 200 --connections 32 --users 32 \
  --warmup 600 --json soak-60min.json > soak-60min.log 2>&1
