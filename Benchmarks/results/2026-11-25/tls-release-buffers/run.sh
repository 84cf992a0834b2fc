#!/usr/bin/env bash
# Two workoutd builds over TLS, meals-day 64×1, ABBA rounds under SCHED_RR: SSL_MODE_RELEASE_BUFFERS
# on (rb: record buffers freed after every record) against off (norb: kept while busy).
#   BUILD       a release build directory with workout-bench (default: .build/release)
#   WORKOUTD_RB, WORKOUTD_NORB   the two workoutd executables
#   DATA        a data directory preloaded with `workout-bench --preload-only --users 100 --preload 3650`
#   OUT         where the reports go (default: this folder)
set -u
B=${BUILD:-.build/release}/workout-bench
D=${DATA:?preloaded data directory}
OUT=${OUT:-$(dirname "$0")}
for round in 1 2 3 4; do
  order="rb norb"; [ $((round % 2)) = 0 ] && order="norb rb"
  for v in $order; do
    if [ $v = rb ]; then server=${WORKOUTD_RB:?}; else server=${WORKOUTD_NORB:?}; fi
    chrt -r 10 $B --workoutd "$server" --scenario meals-day --connections 64 --pipeline 1 --duration 8 --warmup 2 \
      --data-dir "$D" --tls --json "$OUT/$v-$round.json" > "$OUT/$v-$round.log" 2>&1
    python3 -c "import json,sys;r=json.load(open(sys.argv[1]));print(sys.argv[2], sys.argv[3], round(r['ops_per_s']), r['p50_us'], r['server_cpu_us_per_op'], r['client_cpu_us_per_op'], r['rss_anon_bytes']//1024)" \
      "$OUT/$v-$round.json" $v $round
  done
done
