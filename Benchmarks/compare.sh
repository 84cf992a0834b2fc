#!/usr/bin/env bash
# compare.sh BEFORE AFTER — A/B of two release builds of the project on the same machine, in one
# window: the yardstick first, then meals-day 64×1 and log-weight 64×1 for each build in turn,
# ROUNDS times (alternating, so drift on a shared machine hits both sides alike), then a table of
# medians and ratios on stdout. BEFORE and AFTER are checkouts (e.g. `git worktree add`) in which
# `scripts/build-release workoutd workout-bench` has run.
#   OUT     directory for the JSON files (default: a new temporary directory)
#   DUR     seconds per measurement (default 8)
#   ROUNDS  rounds (default 3)
#   ANCHORS the yardstick's directory, holding yardstick.sh (required; not in this repository)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_CHECKOUT AFTER_CHECKOUT" >&2; exit 64; }
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
DUR=${DUR:-8}; ROUNDS=${ROUNDS:-3}
OUT=${OUT:-$(mktemp -d)}; mkdir -p "$OUT"
[ -n "${ANCHORS:-}" ] && [ -x "$ANCHORS/yardstick.sh" ] || {
  echo "$(basename "$0"): set ANCHORS to the yardstick's directory: it holds yardstick.sh, the C echo server" >&2
  echo "and Redis baseline every figure is a ratio to, and is not part of this repository" >&2
  exit 64
}
for side in "$before" "$after"; do
  [ -x "$side/.build/release/workout-bench" ] && [ -x "$side/.build/release/workoutd" ] || { echo "build $side first" >&2; exit 1; }
done
echo "results in $OUT" >&2
DUR=$DUR "$ANCHORS/yardstick.sh" > "$OUT/yardstick.json"
for round in $(seq 1 "$ROUNDS"); do
  for name in before after; do
    dir=$before; [ $name = after ] && dir=$after
    for scenario in meals-day log-weight; do
      (cd "$dir" && .build/release/workout-bench --scenario $scenario --connections 64 --pipeline 1 --duration "$DUR" \
         --warmup 1 --quiet --json "$OUT/$name-$scenario-$round.json" > /dev/null 2>&1) || echo "   ($name $scenario round $round failed)" >&2
    done
  done
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import json, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
y = json.load(open(os.path.join(out, "yardstick.json")))
print("| scenario 64×1 | build | calls/s per round | median | × yardstick | server µs/call (median) |")
print("|---|---|---|---|---|---|")
for scenario, ref in (("meals-day", "redis_zrange_c64_d1"), ("log-weight", "redis_zadd_aof_c64_d1")):
    medians = {}
    for name in ("before", "after"):
        runs = [json.load(open(p)) for r in range(1, rounds + 1)
                if os.path.exists(p := os.path.join(out, f"{name}-{scenario}-{r}.json"))]
        ops = [r["ops_per_s"] for r in runs]
        if not ops: continue
        medians[name] = statistics.median(ops)
        cpu = statistics.median(r["server_cpu_us_per_op"] for r in runs)
        print(f"| {scenario} | {name} | {', '.join(f'{o:,.0f}' for o in ops)} | {medians[name]:,.0f} | "
              f"{medians[name] / y[ref]['ops_per_s']:.2f}× {ref} | {cpu:.1f} |")
    if len(medians) == 2:
        print(f"| {scenario} | after ÷ before | | {medians['after'] / medians['before']:.2f}× | | |")
PY
