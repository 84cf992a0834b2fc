#!/usr/bin/env bash
# A full TLS connect + Auth.Resume, one connection at a time, by build of the load generator,
# interleaved rounds under SCHED_RR (each round rotates the order, so a drift favours none).
# Every build's workout-bench starts the workoutd beside it; all serve the same data directory.
#   BUILDS  space-separated NAME=DIR pairs, DIR holding workout-bench and workoutd
#   DATA    a data directory made by `workout-bench --preload-only --data-dir DATA --users 4 --preload 10`
#   OUT     where the JSON reports go (default: this folder)
#   ROUNDS  interleaved rounds (default 6)
#   PLAIN   a NAME from BUILDS whose connect is also measured over plain TCP, for reference
set -u
D=${DATA:?data directory}
OUT=${OUT:-$(dirname "$0")}
read -r -a builds <<< "${BUILDS:?NAME=DIR pairs}"
runs=()
for pair in "${builds[@]}"; do runs+=("${pair%%=*}:tls"); done
[ -n "${PLAIN:-}" ] && runs+=("$PLAIN:plain")
for round in $(seq 1 "${ROUNDS:-6}"); do
  count=${#runs[@]}
  for i in $(seq 0 $((count - 1))); do
    run=${runs[$(((i + round) % count))]}
    name=${run%%:*} mode=${run##*:}
    dir=""; for pair in "${builds[@]}"; do [ "${pair%%=*}" = "$name" ] && dir=${pair#*=}; done
    flag=""; [ "$mode" = tls ] && flag="--tls"
    chrt -r 10 "$dir/workout-bench" --scenario connect --connect-auth resume --connections 1 --duration 8 --warmup 2 \
      --data-dir "$D" $flag --json "$OUT/connect-$name-$mode-$round.json" > "$OUT/connect-$name-$mode-$round.log" 2>&1
  done
done
python3 - "$OUT" <<'PY'
import json, glob, os, statistics, sys
out = sys.argv[1]
runs = {}
for f in sorted(glob.glob(os.path.join(out, "connect-*-*-*.json"))):
    name, mode, rnd = os.path.basename(f)[len("connect-"):-5].rsplit("-", 2)
    r = json.load(open(f)); runs.setdefault((name, mode), []).append(r)
print("| build | transport | rounds | p50 ms (median of rounds) | p50 range | connects/s (median) | server CPU ms/connect | client CPU ms/connect |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for (name, mode), rs in sorted(runs.items()):
    p50 = [r["p50_us"] / 1000 for r in rs]
    med = lambda k: statistics.median(r[k] for r in rs)
    print(f"| {name} | {mode} | {len(rs)} | {statistics.median(p50):.2f} | {min(p50):.2f}–{max(p50):.2f} | {med('ops_per_s'):,.0f} | {med('server_cpu_us_per_op')/1000:.2f} | {med('client_cpu_us_per_op')/1000:.2f} |")
PY
