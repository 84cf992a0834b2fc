#!/usr/bin/env bash
# Bytes the server makes the kernel write per durable write: the workoutd child's write_bytes
# (/proc/PID/io: page-cache pages it dirtied, what ext4 then writes) and wchar (bytes handed to
# write calls: LMDB's pwrite of its dirty pages and meta page, and the socket sends), sampled
# 4 s apart inside the measured window, divided by the calls made in between.
#   BUILD  a release build directory with workout-bench and workoutd (default: .build/release)
#   DATA   a data directory preloaded with `workout-bench --preload-only --users 100 --preload 3650`
#          (it is copied: the writes do not change it)
#   OUT    where the reports go (default: this folder)
set -u
B=${BUILD:-.build/release}/workout-bench
D=${DATA:?preloaded data directory}
OUT=${OUT:-$(dirname "$0")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for shape in "log-weight 64" "log-weight 1" "log-workout 64"; do
  set -- $shape; scen=$1; conns=$2; name=$scen-${conns}x1
  rm -rf "$work/data"; cp -r "$D" "$work/data"
  chrt -r 10 $B --scenario $scen --connections $conns --pipeline 1 --duration 12 --warmup 2 --data-dir "$work/data" \
     --json "$OUT/$name.json" > "$OUT/$name.log" 2>&1 &
  bench=$!
  pid=""; for i in $(seq 1 100); do pid=$(pgrep -P $bench -f "workoutd serve"); [ -n "$pid" ] && break; sleep 0.2; done
  # Wait until the measured window runs (the bench logs its first measuring second).
  for i in $(seq 1 600); do grep -q "measure\|run " "$OUT/$name.log" 2>/dev/null && break; sleep 0.1; done
  sleep 3
  read_io() { awk '/^wchar|^write_bytes/ {printf "%s ", $2}' /proc/$pid/io; awk '{print $14+$15}' /proc/$pid/stat; }

  first=($(read_io)); t0=$(date +%s.%N)
  sleep 4
  second=($(read_io)); t1=$(date +%s.%N)
  wait $bench
  python3 - "$OUT/$name.json" "${first[*]}" "${second[*]}" "$t0" "$t1" "$name" >> "$OUT/summary.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = [float(x) for x in sys.argv[2].split()]; b = [float(x) for x in sys.argv[3].split()]
dt = float(sys.argv[5]) - float(sys.argv[4])
calls = r["ops_per_s"] * dt
print(f"{sys.argv[6]}: {r['ops_per_s']:,.0f} writes/s, {r.get('ops_per_commit', 0):.1f} writes/commit, "
      f"wchar {(b[0]-a[0])/calls/1024:.1f} KiB/write, write_bytes {(b[1]-a[1])/calls/1024:.1f} KiB/write, "
      f"server CPU {r['server_cpu_us_per_op']:.0f} µs/write")
PY
done
cat "$OUT/summary.txt"
