#!/usr/bin/env bash
# CPU per call by library on both sides of meals-day 64×1, plain TCP and TLS: `perf record -a` for
# 6 s inside a 14-s run (every thread, Dispatch's later ones included), the samples of the workoutd
# child and of workout-bench (the load generator) each divided by the calls of the run.
#   BUILD, DATA, OUT as in run-pinned.sh. Needs perf and root (or perf_event_paranoid ≤ 0).
set -u
B=${BUILD:-.build/release}/workout-bench
D=${DATA:?preloaded data directory}
OUT=${OUT:-$(dirname "$0")}
for mode in plain tls; do
  flag=""; [ $mode = tls ] && flag="--tls"
  chrt -r 10 "$B" --scenario meals-day --connections 64 --pipeline 1 --duration 14 --warmup 2 --data-dir "$D" $flag \
    --json "$OUT/profile-$mode.json" > "$OUT/profile-$mode.log" 2>&1 &
  bench=$!
  for _ in $(seq 1 100); do server=$(pgrep -P $bench -f "workoutd serve") && break; sleep 0.2; done
  sleep 5
  perf record -a -F 1999 -o "$OUT/profile-$mode.perf" -- sleep 6 > /dev/null 2>&1
  wait $bench
  echo "$bench $server" > "$OUT/profile-$mode.pids"
done
python3 - "$OUT" <<'PY'
import collections, json, os, re, subprocess, sys
out = sys.argv[1]
def per_call(mode, which, key):  # µs per call by key ("dso" or "symbol") for the process `which` (0 bench, 1 server)
    pid = open(os.path.join(out, f"profile-{mode}.pids")).read().split()[which]
    rate = json.load(open(os.path.join(out, f"profile-{mode}.json")))["ops_per_s"]
    script = subprocess.run(["perf", "script", "-i", os.path.join(out, f"profile-{mode}.perf"), "-F", "pid,ip,sym,dso"],
                            capture_output=True, text=True).stdout
    counts = collections.Counter()
    for line in script.splitlines():
        fields = line.split(None, 2)
        if len(fields) < 3 or fields[0] != pid: continue
        m = re.match(r"(.*?)\s*\(([^()]*)\)\s*$", fields[2])
        symbol, dso = (m.group(1) or "?", os.path.basename(m.group(2))) if m else ("?", "?")
        counts[dso if key == "dso" else (dso, re.sub(r"\+0x[0-9a-f]+$", "", symbol))] += 1
    return {k: v / 1999 / (rate * 6) * 1e6 for k, v in counts.items()}
for which, name in ((1, "server (workoutd)"), (0, "load generator (workout-bench)")):
    for key, top in (("dso", 99), ("symbol", 25)):
        a, b = per_call("plain", which, key), per_call("tls", which, key)
        print(f"## {name}, µs per call by {'library' if key == 'dso' else 'symbol (largest differences)'}: plain, TLS, difference")
        if key == "dso": print(f"{sum(a.values()):7.2f} {sum(b.values()):7.2f} {sum(b.values()) - sum(a.values()):+7.2f} all")
        for k in sorted(set(a) | set(b), key=lambda k: -(b.get(k, 0) - a.get(k, 0)) if key == "symbol" else -b.get(k, 0))[:top]:
            label = k if key == "dso" else f"{k[0][:18]:18} {k[1][:100]}"
            print(f"{a.get(k, 0):7.2f} {b.get(k, 0):7.2f} {b.get(k, 0) - a.get(k, 0):+7.2f} {label}")
        print()
PY
# The perf data (some 1.4 MB a run) is not kept unless asked: the tables above are what it says.
[ "${KEEP_PERF:-0}" = 1 ] || rm -f "$OUT/profile-plain.perf" "$OUT/profile-tls.perf"
