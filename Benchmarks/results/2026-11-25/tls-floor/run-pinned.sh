#!/usr/bin/env bash
# TLS against plain TCP, meals-day 64×1, with the server on a core of its own: the bench (the load
# generator, which does its own TLS) pinned to CPU 1 and its embedded workoutd to CPU 0, as a load
# generator on another machine would leave it. Interleaved rounds (plain, TLS, TLS, plain) under SCHED_RR.
#   BUILD   a release build directory with workout-bench and workoutd (default: .build/release)
#   DATA    a data directory preloaded with `workout-bench --preload-only --users 100 --preload 3650`
#   OUT     where the JSON reports go (default: this folder)
#   ROUNDS  rounds (default 6)
set -u
B=${BUILD:-.build/release}/workout-bench
D=${DATA:?preloaded data directory}
OUT=${OUT:-$(dirname "$0")}
run() {  # run NAME [--tls]
  chrt -r 10 taskset -c 1 "$B" --scenario meals-day --connections 64 --pipeline 1 --duration 12 --warmup 3 \
    --data-dir "$D" --json "$OUT/$1.json" "${@:2}" > "$OUT/$1.log" 2>&1 &
  local bench=$! server=""
  for _ in $(seq 1 100); do server=$(pgrep -P $bench -f "workoutd serve") && break; sleep 0.1; done
  # Every thread of the server, then again after the warm-up for Dispatch's later ones.
  taskset -a -p -c 0 "$server" > /dev/null; sleep 2; taskset -a -p -c 0 "$server" > /dev/null
  wait $bench
}
for round in $(seq 1 "${ROUNDS:-6}"); do
  run "plain-$round-a"; run "tls-$round-a" --tls; run "tls-$round-b" --tls; run "plain-$round-b"
done
python3 - "$OUT" <<'PY'
import json, glob, os, statistics, sys
out = sys.argv[1]
def load(mode, rnd): return [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out, f"{mode}-{rnd}-*.json")))]
rounds = sorted({int(os.path.basename(f).split("-")[1]) for f in glob.glob(os.path.join(out, "plain-*-*.json"))})
print("| round | plain calls/s | TLS calls/s | ratio | server CPU µs/call plain / TLS | server CPU ratio | bench CPU µs/call plain / TLS |")
print("| --- | --- | --- | --- | --- | --- | --- |")
ratios, cpu = [], []
for rnd in rounds:
    p, t = load("plain", rnd), load("tls", rnd)
    if not p or not t: continue
    mean = lambda rs, k: sum(r[k] for r in rs) / len(rs)
    ratio = mean(t, "ops_per_s") / mean(p, "ops_per_s"); ratios.append(ratio)
    c = mean(p, "server_cpu_us_per_op") / mean(t, "server_cpu_us_per_op"); cpu.append(c)
    print(f"| {rnd} | {mean(p,'ops_per_s'):,.0f} | {mean(t,'ops_per_s'):,.0f} | {ratio:.2f} | "
          f"{mean(p,'server_cpu_us_per_op'):.1f} / {mean(t,'server_cpu_us_per_op'):.1f} | {c:.2f} | "
          f"{mean(p,'client_cpu_us_per_op'):.1f} / {mean(t,'client_cpu_us_per_op'):.1f} |")
if ratios: print(f"\nmedian ratio {statistics.median(ratios):.2f} (throughput), {statistics.median(cpu):.2f} (server CPU per call) over {len(ratios)} rounds")
PY
