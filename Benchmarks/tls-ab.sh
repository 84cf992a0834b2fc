#!/usr/bin/env bash
# TLS against plain TCP at 64 connections × 1 call in flight, connections held open, interleaved rounds
# under SCHED_RR, for one scenario (SCENARIO: meals-day or log-weight).
# Also the ratio of CPU per call (server + bench client), the throughput ratio a CPU-bound box would see.
#   SCENARIO  meals-day (default) or log-weight
#   BUILD     a release build directory with workout-bench and workoutd (default: .build/release)
#   DATA      a data directory preloaded with `workout-bench --preload-only --users 100 --preload 3650`
#   OUT       where the JSON reports (SCENARIO-MODE-ROUND.json) and logs go (default: the current folder)
#   ROUNDS    interleaved rounds (default 5)
# It prints a table of the rounds and the median ratios.
set -u
S=${SCENARIO:-meals-day}
B=${BUILD:-.build/release}/workout-bench
D=${DATA:?preloaded data directory}
OUT=${OUT:-.}
for round in $(seq 1 "${ROUNDS:-5}"); do
  # ABBA: odd rounds plain first, even rounds TLS first, so a drift does not favour one.
  order="plain tls"; [ $((round % 2)) = 0 ] && order="tls plain"
  for mode in $order; do
    flag=""; [ $mode = tls ] && flag="--tls"
    chrt -r 10 $B --scenario "$S" --connections 64 --pipeline 1 --duration 8 --warmup 2 --data-dir "$D" $flag \
       --json "$OUT/$S-$mode-$round.json" > "$OUT/$S-$mode-$round.log" 2>&1
  done
done
python3 - "$OUT" "$S" <<'PY'
import json, glob, os, statistics, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, sys.argv[2] + "-*-*.json"))):
    mode, rnd = os.path.basename(f)[len(sys.argv[2]) + 1:-5].split("-")
    r = json.load(open(f)); rows.setdefault(int(rnd), {})[mode] = r
print("| round | plain calls/s | TLS calls/s | ratio | server CPU µs/call plain / TLS | bench CPU µs/call plain / TLS | CPU ratio |")
print("| --- | --- | --- | --- | --- | --- | --- |")
ratios = []; cpu_ratios = []
for rnd in sorted(rows):
    p, t = rows[rnd].get("plain"), rows[rnd].get("tls")
    if not p or not t: continue
    ratio = t["ops_per_s"] / p["ops_per_s"]; ratios.append(ratio)
    def cpu(r, k): return r.get(k, float("nan"))
    cpu_ratio = (cpu(p,'server_cpu_us_per_op') + cpu(p,'client_cpu_us_per_op')) / (cpu(t,'server_cpu_us_per_op') + cpu(t,'client_cpu_us_per_op'))
    cpu_ratios.append(cpu_ratio)
    print(f"| {rnd} | {p['ops_per_s']:,.0f} | {t['ops_per_s']:,.0f} | {ratio:.2f} | {cpu(p,'server_cpu_us_per_op'):.1f} / {cpu(t,'server_cpu_us_per_op'):.1f} | {cpu(p,'client_cpu_us_per_op'):.1f} / {cpu(t,'client_cpu_us_per_op'):.1f} | {cpu_ratio:.2f} |")
if ratios: print(f"\nmedian ratio {statistics.median(ratios):.2f} (throughput), {statistics.median(cpu_ratios):.2f} (CPU per call) over {len(ratios)} rounds")
PY
