#!/usr/bin/env bash
# slow-disk.sh — durable writes on a disk whose flush costs what a household box's does (an SD
# card or a cheap SSD: FLUSH_US per sync), for workoutd, Redis with appendfsync always, and
# PostgreSQL doing the same transaction, in one run. Two models of that disk (MODEL):
#   slowsync (default) the ordinary disk, with Benchmarks/SlowSync's LD_PRELOAD library in every
#          process of the run (workoutd's, Redis's and PostgreSQL's): each fsync and fdatasync
#          call, and each write to an O_DSYNC descriptor, waits FLUSH_US after it returns;
#          other writes go to the page cache as usual. Syncs
#          that overlap wait side by side, where a real disk would queue their flushes (a
#          checkpoint's sync beside the log's). The script checks that the library loads and
#          slows a sync, as root and as PostgreSQL's user, before anything is measured.
#   fuse   Tests/PowerCutFS's FUSE file system over a directory of this run's: every
#          fsync, fdatasync and O_DSYNC write waits FLUSH_US, and a directory sync waits the
#          same; reads come from the page cache as usual, but every write() is a round trip to
#          the file system's process (tens of µs: a store that writes many pages a commit pays
#          it many times, where a real disk's page cache would take them in a microsecond).
#   A flush that takes longer the more it writes is in neither model.
#   MODEL    slowsync (default) or fuse, as above
#   ANCHORS  the yardstick's directory (yardstick.sh, pg_yardstick.sh; not in this repository)
#   BIN      a release build's directory with workoutd and workout-bench (default .build/release)
#   FLUSH_US microseconds a sync costs (default 2000)
#   DUR      seconds per measurement (default 5)
#   OUT      directory for the JSON files (default: a new temporary directory, printed)
# Needs root (PostgreSQL runs as its own user; with fuse, FUSE's allow_other too), fuse3 and
# libfuse3-dev (fuse), clang or cc, and what the yardsticks need (redis-server, redis-tools,
# postgresql-15).
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${DUR:-5}
FLUSH_US=${FLUSH_US:-2000}
MODEL=${MODEL:-slowsync}
case "$MODEL" in fuse|slowsync) ;; *) echo "$(basename "$0"): MODEL must be slowsync or fuse, not $MODEL" >&2; exit 64 ;; esac
BIN=${BIN:-.build/release}
OUT=${OUT:-$(mktemp -d)}
[ -n "${ANCHORS:-}" ] && [ -x "$ANCHORS/yardstick.sh" ] && [ -x "$ANCHORS/pg_yardstick.sh" ] || {
  echo "$(basename "$0"): set ANCHORS to the yardstick's directory (yardstick.sh, pg_yardstick.sh)" >&2; exit 64; }
[ -x "$BIN/workout-bench" ] && [ -x "$BIN/workoutd" ] || { echo "no release build in $BIN" >&2; exit 1; }
mkdir -p "$OUT"
echo "results in $OUT" >&2
work=$(mktemp -d)
# PostgreSQL runs as its own user: it must reach the mount point inside this directory.
chmod 755 "$work"
mnt=$work/mnt
cc=$(command -v clang || command -v cc)
mkdir -p "$work/backing" "$mnt" "$work/preload"
cleanup() { [ "$MODEL" = fuse ] && { fusermount3 -u "$mnt" 2>/dev/null || true; }; rm -rf "$work"; }
trap cleanup EXIT
slow=()
if [ "$MODEL" = fuse ]; then
  "$cc" -O2 -Wall -Werror -I/usr/include/fuse3 -o "$work/powercutfs" Tests/PowerCutFS/powercutfs.c -lfuse3 -lpthread
  "$work/powercutfs" "$work/backing" "$mnt" -f -o allow_other --flush-delay-us "$FLUSH_US" 2>/dev/null &
  for _ in $(seq 1 100); do [ -e "$mnt/.powercut" ] && break; sleep 0.1; done
else
  "$cc" -O2 -Wall -Werror -shared -fPIC -o "$work/slowsync.so" Benchmarks/SlowSync/slowsync.c -ldl
  chmod 755 "$work/slowsync.so"
  slow=(env LD_PRELOAD="$work/slowsync.so" SLOWSYNC_US="$FLUSH_US")
  # ld.so only warns when it cannot load a preloaded library, and the run would then compare
  # slowed processes with unslowed ones: check that a sync, and a write to an O_DSYNC
  # descriptor (workoutd's log appends so), are slowed, as root and as postgres.
  probe='import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)
start = time.monotonic(); os.fdatasync(fd); synced = time.monotonic() - start
direct = os.open(sys.argv[1] + ".dsync", os.O_WRONLY | os.O_CREAT | os.O_DSYNC, 0o600)
start = time.monotonic(); os.write(direct, b"x"); written = time.monotonic() - start
print(int(min(synced, written) * 1e6))'
  mkdir -p "$work/probe"
  users=(root)
  if id postgres >/dev/null 2>&1; then users+=(postgres); chown postgres "$work/probe"; fi
  for who in "${users[@]}"; do
    as=(); [ "$who" = postgres ] && as=(runuser -u postgres --)
    took=$("${as[@]}" "${slow[@]}" python3 -c "$probe" "$work/probe/$who" 2>&1) || true
    case "$took" in
      ''|*[!0-9]*) echo "$(basename "$0"): the slow-sync library did not load as $who: $took" >&2; exit 1 ;;
    esac
    [ "$took" -ge "$FLUSH_US" ] || { echo "$(basename "$0"): a sync or an O_DSYNC write as $who took $took µs, under FLUSH_US ($FLUSH_US)" >&2; exit 1; }
  done
fi
chmod 755 "$mnt"

# The household the writes go to, preloaded on the ordinary disk and copied onto the slow one
# for each shape (the preload is not what is measured).
echo "== preload" >&2
"$BIN/workout-bench" --data-dir "$work/preload/data" --preload-only --users 100 --preload 365 >/dev/null 2>&1
bench() { # name args...
  local name=$1; shift
  echo "== $name (flush $FLUSH_US µs)" >&2
  rm -rf "$mnt/data"; cp -r "$work/preload/data" "$mnt/data"
  "${slow[@]}" "$BIN/workout-bench" --duration "$DUR" --warmup 1 --quiet --data-dir "$mnt/data" --users 100 --preload 365 \
    --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err" || echo "   (exit $?: see $OUT/$name.err)" >&2
  if [ "$MODEL" = fuse ]; then cat "$mnt/.powercut" > "$OUT/$name.disk"; fi
}
bench lw_c1_d1 --scenario log-weight --connections 1 --pipeline 1
# A lone durable write waits for at least one flush: a p50 below FLUSH_US says the model did
# not slow workoutd's way of syncing (the probe above tried python's).
python3 - "$OUT/lw_c1_d1.json" "$FLUSH_US" <<'PY' || exit 1
import json, sys
p50 = json.load(open(sys.argv[1]))["p50_us"]
if p50 < int(sys.argv[2]):
    sys.exit(f"slow-disk.sh: workoutd's lone write took {p50} µs at p50, under FLUSH_US ({sys.argv[2]}): its syncs were not slowed")
PY
bench lw_c64_d1 --scenario log-weight --connections 64 --pipeline 1
bench lwo_c64_d1 --scenario log-workout --connections 64 --pipeline 1
rm -rf "$mnt/data"
echo "== yardsticks on the slow disk" >&2
TMPDIR=$mnt DUR=$DUR "${slow[@]}" "$ANCHORS/yardstick.sh" >"$OUT/yardstick.json"
TMPDIR=$mnt DUR=$DUR "${slow[@]}" "$ANCHORS/pg_yardstick.sh" >"$OUT/pg_yardstick.json" || echo "   (pg_yardstick.sh failed)" >&2

python3 - "$OUT" "$FLUSH_US" "$MODEL" <<'PY'
import json, os, sys
out, flush, model = sys.argv[1], sys.argv[2], sys.argv[3]
def load(name):
    try: return json.load(open(os.path.join(out, name + ".json")))
    except Exception: return None
y, pg = load("yardstick") or {}, load("pg_yardstick") or {}
lw1, lw64, lwo = load("lw_c1_d1"), load("lw_c64_d1"), load("lwo_c64_d1")
a1, a64 = y.get("redis_zadd_aof_c1_d1"), y.get("redis_zadd_aof_c64_d1")
p1, p64 = pg.get("pg_log_weight_c1"), pg.get("pg_log_weight_c64")
def ratio(a, b): return f"{a / b:.2f}×" if a and b else "?"
print(f"Durable writes on a disk whose sync costs {flush} µs (model: {model})\n")
print("| shape | workoutd | Redis AOF always | PostgreSQL | vs Redis | vs PostgreSQL |")
print("|---|---|---|---|---|---|")
def p50(r): return r["p50_us"] if r else None
def tput(r): return r["ops_per_s"] if r else None
print(f"| log-weight 1×1 p50 | {p50(lw1)} µs | {p50(a1)} µs | {p50(p1)} µs | {ratio(p50(lw1), p50(a1))} | {ratio(p50(lw1), p50(p1))} |")
print(f"| log-weight 64×1 | {tput(lw64) or 0:,.0f}/s | {tput(a64) or 0:,.0f}/s | {tput(p64) or 0:,.0f}/s | {ratio(tput(lw64), tput(a64))} | {ratio(tput(lw64), tput(p64))} |")
print(f"| log-workout 64×1 | {tput(lwo) or 0:,.0f}/s | {tput(a64) or 0:,.0f}/s | — | {ratio(tput(lwo), tput(a64))} | — |")
for name, r in (("log-weight 64×1", lw64), ("log-workout 64×1", lwo)):
    if r: print(f"\n{name}: {r.get('ops_per_commit', 0):.1f} writes a commit")
PY
