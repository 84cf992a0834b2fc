#!/usr/bin/env bash
# targets.sh — measures every performance target of workout-bench against the yardsticks in one
# run, on this machine, and prints the table of ratios (markdown) on stdout.
#   OUT  directory for the JSON files (default: a new temporary directory, printed)
#   DUR  seconds per measurement (default 5)
#   BIN  the release build's directory, with workoutd and workout-bench (default .build/release)
#   ANCHORS  the yardstick's directory, holding yardstick.sh (required; not in this repository),
#        and pg_yardstick.sh, which runs when PostgreSQL 15 is installed (its ratios join the table)
# Needs a release build of workoutd and workout-bench, and what yardstick.sh needs
# (gcc, redis-server, redis-tools). Takes about 6 minutes (the 1,000-member preload is most).
# A first shape after a cold start read 33k where the same shape warm read 75k: a warm-up run,
# not measured, goes first.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${DUR:-5}
OUT=${OUT:-$(mktemp -d)}
BIN=${BIN:-.build/release}
[ -n "${ANCHORS:-}" ] && [ -x "$ANCHORS/yardstick.sh" ] || {
  echo "$(basename "$0"): set ANCHORS to the yardstick's directory: it holds yardstick.sh, the C echo server" >&2
  echo "and Redis baseline every figure is a ratio to, and is not part of this repository" >&2
  exit 64
}
B=$BIN/workout-bench
[ -x "$B" ] && [ -x "$BIN/workoutd" ] || { echo "build first: scripts/build-release workoutd workout-bench" >&2; exit 1; }
mkdir -p "$OUT"
echo "results in $OUT" >&2

bench() { # name args...
  local name=$1; shift
  echo "== $name" >&2
  "$B" --duration "$DUR" --warmup 1 --quiet --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err" || echo "   (exit $?: see $OUT/$name.err)" >&2
}

DUR=$DUR "$ANCHORS/yardstick.sh" >"$OUT/yardstick.json"
if [ -x /usr/lib/postgresql/15/bin/postgres ] && [ -x "$ANCHORS/pg_yardstick.sh" ]; then
  DUR=$DUR "$ANCHORS/pg_yardstick.sh" >"$OUT/pg_yardstick.json" || echo "   (pg_yardstick.sh failed: its ratios are left out)" >&2
else
  echo "== PostgreSQL 15 or pg_yardstick.sh missing: its ratios are left out" >&2
fi
echo "== warm-up (not measured)" >&2
"$B" --duration 3 --warmup 1 --quiet --scenario meals-day --connections 64 --pipeline 1 >/dev/null 2>&1 || true
bench md_c64_d1 --scenario meals-day --connections 64 --pipeline 1
bench md_c64_d16 --scenario meals-day --connections 64 --pipeline 16
bench md_c1_d1 --scenario meals-day --connections 1 --pipeline 1
bench lw_c64_d1 --scenario log-weight --connections 64 --pipeline 1
bench lw_c1_d1 --scenario log-weight --connections 1 --pipeline 1
bench lwo_c64_d1 --scenario log-workout --connections 64 --pipeline 1
bench md_c64_d1_users1000 --scenario meals-day --connections 64 --pipeline 1 --users 1000
bench md_c64_d1_again --scenario meals-day --connections 64 --pipeline 1
bench md_c64_d1_idle1000 --scenario meals-day --connections 64 --pipeline 1 --idle-connections 1000

python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
y = json.load(open(os.path.join(out, "yardstick.json")))
def b(name):
    try: return json.load(open(os.path.join(out, name + ".json")))
    except Exception: return None
def ops(r): return r["ops_per_s"] if r else float("nan")
rows = []
def row(what, shape, target, ratio, ok, detail):
    rows.append(f"| {what} | {shape} | {target} | {ratio} | {'met' if ok else 'missed'} | {detail} |")
md1, md16, mdc1 = b("md_c64_d1"), b("md_c64_d16"), b("md_c1_d1")
lw64, lw1, lwo = b("lw_c64_d1"), b("lw_c1_d1"), b("lwo_c64_d1")
big, again, idle = b("md_c64_d1_users1000"), b("md_c64_d1_again"), b("md_c64_d1_idle1000")
z1, z16, e1, ec1 = y["redis_zrange_c64_d1"], y["redis_zrange_c64_d16"], y["echo_c64_d1"], y["echo_c1_d1"]
a64, a1 = y["redis_zadd_aof_c64_d1"], y["redis_zadd_aof_c1_d1"]
r = ops(md1) / z1["ops_per_s"]; r2 = ops(md1) / e1["ops_per_s"]
row("meals-day", "64×1", "≥ 1.0× redis_zrange_c64_d1, ≥ 0.6× echo_c64_d1", f"{r:.2f}× / {r2:.2f}×", r >= 1 and r2 >= 0.6, f"{ops(md1):,.0f} vs {z1['ops_per_s']:,.0f} / {e1['ops_per_s']:,.0f} ops/s")
r = ops(md16) / z16["ops_per_s"]
row("meals-day", "64×16", "≥ 1.0× redis_zrange_c64_d16", f"{r:.2f}×", r >= 1, f"{ops(md16):,.0f} vs {z16['ops_per_s']:,.0f} ops/s")
r = mdc1["p50_us"] / ec1["p50_us"] if mdc1 else float("nan")
row("meals-day", "1×1", "p50 ≤ 2× echo_c1_d1 p50", f"{r:.1f}×", r <= 2, f"p50 {mdc1['p50_us'] if mdc1 else '?'} vs {ec1['p50_us']} µs")
r = ops(lw64) / a64["ops_per_s"]
row("log-weight", "64×1 durable", "≥ 1.0× redis_zadd_aof_c64_d1", f"{r:.2f}×", r >= 1, f"{ops(lw64):,.0f} vs {a64['ops_per_s']:,.0f} ops/s, {lw64['ops_per_commit'] if lw64 else '?'} writes/commit")
r = lw1["p50_us"] / a1["p50_us"] if lw1 else float("nan")
row("log-weight", "1×1 durable", "p50 ≤ 2× redis_zadd_aof_c1_d1 p50", f"{r:.1f}×", r <= 2, f"p50 {lw1['p50_us'] if lw1 else '?'} vs {a1['p50_us']} µs")
r = ops(lwo) / a64["ops_per_s"]
row("log-workout", "64×1 durable", "≥ 0.5× redis_zadd_aof_c64_d1", f"{r:.2f}×", r >= 0.5, f"{ops(lwo):,.0f} vs {a64['ops_per_s']:,.0f} ops/s")
base = (ops(md1) + ops(again)) / 2
r = ops(big) / base
row("meals-day", "1,000 members", "≥ 0.8× the 100-member run", f"{r:.2f}×", r >= 0.8, f"{ops(big):,.0f} vs {base:,.0f} ops/s")
rss = idle["rss_anon_bytes"] / 2**20 if idle else float("nan"); r = ops(idle) / base
row("any", "1,000 idle connections", "RSS anon ≤ 64 MiB, throughput within 10 %", f"{rss:.1f} MiB, {r:.2f}×", rss <= 64 and r >= 0.9, f"{ops(idle):,.0f} vs {base:,.0f} ops/s")
try: pg = json.load(open(os.path.join(out, "pg_yardstick.json")))
except Exception: pg = None
# Issue 29: durable writes against PostgreSQL doing the same transaction, and Redis AOF.
r = lw1["p50_us"] / a1["p50_us"] if lw1 else float("nan")
row("log-weight", "1×1 durable", "p50 ≤ 2× redis_zadd_aof_c1_d1 p50 (issue 29)", f"{r:.2f}×", r <= 2, f"p50 {lw1['p50_us'] if lw1 else '?'} vs {a1['p50_us']} µs")
r = ops(lw64) / a64["ops_per_s"]
row("log-weight", "64×1 durable", "≥ 0.5× redis_zadd_aof_c64_d1 (issue 29)", f"{r:.2f}×", r >= 0.5, f"{ops(lw64):,.0f} vs {a64['ops_per_s']:,.0f} ops/s")
r = ops(lwo) / a64["ops_per_s"]
row("log-workout", "64×1 durable", "≥ 0.35× redis_zadd_aof_c64_d1 (issue 29)", f"{r:.2f}×", r >= 0.35, f"{ops(lwo):,.0f} vs {a64['ops_per_s']:,.0f} ops/s")
if pg:
    p1, p64, pr = pg["pg_log_weight_c1"], pg["pg_log_weight_c64"], pg["pg_meals_day_c64"]
    r = lw1["p50_us"] / p1["p50_us"] if lw1 else float("nan")
    row("log-weight", "1×1 durable", "p50 ≤ PostgreSQL's p50", f"{r:.2f}×", r <= 1, f"p50 {lw1['p50_us'] if lw1 else '?'} vs {p1['p50_us']} µs")
    r = ops(lw64) / p64["ops_per_s"]
    row("log-weight", "64×1 durable", "≥ 3× PostgreSQL", f"{r:.2f}×", r >= 3, f"{ops(lw64):,.0f} vs {p64['ops_per_s']:,.0f} ops/s")
    r = ops(md1) / pr["ops_per_s"]
    row("meals-day", "64×1", "ahead of PostgreSQL", f"{r:.2f}×", r >= 1, f"{ops(md1):,.0f} vs {pr['ops_per_s']:,.0f} ops/s")
print("| scenario | shape | target | measured | | figures |")
print("|---|---|---|---|---|---|")
print("\n".join(rows))
PY
