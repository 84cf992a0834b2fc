#!/usr/bin/env bash
# 60-minute household soak after a 10-minute warm-up, release build of 864d8d9 (workoutd caps glibc's
# arenas at two), under SCHED_RR.
B=/tmp/soak60/bin/workout-bench
chrt -r 10 $B --scenario household --soak 60 --rate 200 --connections 32 --users 32 --warmup 600 \
  --json /tmp/soak60/soak-60min.json > /tmp/soak60/soak-60min.log 2>&1
echo "exit $?" >> /tmp/soak60/soak-60min.log
