#!/usr/bin/env bash
# http-ab.sh — meals-day and log-weight over the HTTP face (Connect's JSON, driven by Debian's
# wrk with Benchmarks/http/*.lua), and meals-day by Connect's GET revalidated by its ETag (every
# answer a 304), beside the binary protocol (workout-bench), against one
# workoutd over plain TCP on loopback, in interleaved rounds of one run; then PostgreSQL
# (pg_yardstick.sh) when its script and postgresql-15 are there. Prints a markdown table.
#   OUT          directory for the raw results (default: a new temporary directory, printed)
#   DUR          seconds per measurement (default 5)
#   ROUNDS       rounds of the four measurements (default 3)
#   CONNECTIONS  load connections (default 64)
#   PG_YARDSTICK the path of pg_yardstick.sh (default: none, PostgreSQL is skipped)
#   SERVER_CPU   pin workoutd to this CPU and the load (wrk, workout-bench) to the others, e.g. 0
#                for the one-core table: a household box's budget (default: no pinning)
# Needs release builds of workoutd and workout-bench in $BIN (default .build/release), wrk
# (apt-get install wrk), curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${DUR:-5}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
BIN=${BIN:-.build/release}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
echo "results in $OUT" >&2
for tool in "$BIN/workoutd" "$BIN/workout-bench"; do
  [ -x "$tool" ] || { echo "build first: scripts/build-release workoutd workout-bench" >&2; exit 1; }
done
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

data="$OUT/data"
rm -rf "$data"
"$BIN/workout-bench" --data-dir "$data" --preload-only --quiet >"$OUT/preload.txt" 2>&1
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()')
server_pin=() load_pin=()
if [ -n "${SERVER_CPU:-}" ]; then
  others=$(python3 -c 'import os,sys;print(",".join(str(c) for c in sorted(os.sched_getaffinity(0)) if c != int(sys.argv[1])))' "$SERVER_CPU")
  [ -n "$others" ] || { echo "SERVER_CPU=$SERVER_CPU leaves no CPU for the load" >&2; exit 1; }
  server_pin=(taskset -c "$SERVER_CPU") load_pin=(taskset -c "$others")
  echo "workoutd on CPU $SERVER_CPU, the load on $others" >&2
fi
"${server_pin[@]}" "$BIN/workoutd" serve --data-dir "$data" --port "$port" --transport plain --log-level warning >"$OUT/workoutd.txt" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done

token=$(curl -s -H 'Content-Type: application/json' \
  -d '{"email": "member0@bench.example", "password": "workout-bench password", "deviceName": "http-ab"}' \
  "http://127.0.0.1:$port/workout.v1.AuthService/Login" | python3 -c 'import json,sys;print(json.load(sys.stdin)["sessionToken"])')
export WORKOUT_TOKEN=$token
export WORKOUT_DAY=$(python3 -c 'import datetime;print(datetime.date.today()-datetime.timedelta(days=1))')
export WORKOUT_NOW_MS=$(python3 -c 'import time;print(int(time.time()*1000)-3600000)')
query=$(python3 -c 'import os,urllib.parse;y,m,d=map(int,os.environ["WORKOUT_DAY"].split("-"));print(urllib.parse.quote("{\"day\":{\"year\":%d,\"month\":%d,\"day\":%d}}"%(y,m,d),safe=""))')
# The day's current ETag; fetched before each GET run, as the log-weight runs bump the member's
# revision (and so renew the tag) in between.
current_etag() {
  curl -s -D - -o /dev/null -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$port/workout.v1.QueriesService/MealsOfDay?connect=v1&encoding=json&message=$query" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p'
}

threads=2
for round in $(seq "$ROUNDS"); do
  echo "== round $round" >&2
  "${load_pin[@]}" "$BIN/workout-bench" --server "127.0.0.1:$port" --scenario meals-day --connections "$CONNECTIONS" --pipeline 1 \
    --duration "$DUR" --warmup 1 --quiet --no-server-stats --json "$OUT/binary_md_$round.json" >/dev/null 2>"$OUT/binary_md_$round.err"
  "${load_pin[@]}" wrk -t$threads -c"$CONNECTIONS" -d"${DUR}s" -s Benchmarks/http/meals-day.lua "http://127.0.0.1:$port" \
    | tail -1 >"$OUT/http_md_$round.json"
  WORKOUT_ETAG=$(current_etag)
  [ -n "$WORKOUT_ETAG" ] || { echo "the GET answered no ETag" >&2; exit 1; }
  export WORKOUT_ETAG
  "${load_pin[@]}" wrk -t$threads -c"$CONNECTIONS" -d"${DUR}s" -s Benchmarks/http/meals-day-get.lua "http://127.0.0.1:$port" \
    | tail -1 >"$OUT/http_mdget_$round.json"
  "${load_pin[@]}" "$BIN/workout-bench" --server "127.0.0.1:$port" --scenario log-weight --connections "$CONNECTIONS" --pipeline 1 \
    --duration "$DUR" --warmup 1 --quiet --no-server-stats --json "$OUT/binary_lw_$round.json" >/dev/null 2>"$OUT/binary_lw_$round.err"
  "${load_pin[@]}" wrk -t$threads -c"$CONNECTIONS" -d"${DUR}s" -s Benchmarks/http/log-weight.lua "http://127.0.0.1:$port" \
    | tail -1 >"$OUT/http_lw_$round.json"
done
kill $server; wait $server 2>/dev/null || true
trap - EXIT

if [ -n "${PG_YARDSTICK:-}" ] && [ -x /usr/lib/postgresql/15/bin/postgres ]; then
  echo "== PostgreSQL" >&2
  DUR=$DUR "$PG_YARDSTICK" >"$OUT/pg.json" 2>"$OUT/pg.err" || true
fi

python3 - "$OUT" "$ROUNDS" <<'PY'
import json, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    try: return json.load(open(os.path.join(out, name)))
    except Exception: return None
def med(kind):
    runs = [load(f"{kind}_{r}.json") for r in range(1, rounds + 1)]
    runs = [r for r in runs if r]
    if not runs: return None
    return {k: statistics.median(r[k] for r in runs) for k in ("ops_per_s", "p50_us")}, runs
pg = load("pg.json")
print("| shape | binary (workout-bench) | HTTP/JSON (wrk) | HTTP ÷ binary | PostgreSQL | HTTP ÷ PostgreSQL |")
print("|---|---|---|---|---|---|")
names = {"md": "meals-day", "mdget": "meals-day GET, 304", "lw": "log-weight"}
for shape, binary, pgkey in (("md", "md", "pg_meals_day_c64"), ("mdget", "md", "pg_meals_day_c64"), ("lw", "lw", "pg_log_weight_c64")):
    b, h = med(f"binary_{binary}"), med(f"http_{shape}")
    if not b or not h: continue
    ratio = h[0]["ops_per_s"] / b[0]["ops_per_s"]
    p = pg.get(pgkey) if pg else None
    pgtext = f"{p['ops_per_s']:,.0f}/s" if p else "not run"
    pgratio = f"{h[0]['ops_per_s'] / p['ops_per_s']:.1f}×" if p else "—"
    errors = sum(r.get("non_2xx", 0) + r.get("errors", 0) for r in h[1])
    print(f"| {names[shape]} 64×1 | {b[0]['ops_per_s']:,.0f}/s p50 {b[0]['p50_us']:.0f} µs "
          f"| {h[0]['ops_per_s']:,.0f}/s p50 {h[0]['p50_us']:.0f} µs ({errors} failed) | {ratio:.2f}× | {pgtext} | {pgratio} |")
print(f"\nmedians of {rounds} interleaved rounds of {os.environ.get('DUR', '5')} s; raw results in {out}")
PY
