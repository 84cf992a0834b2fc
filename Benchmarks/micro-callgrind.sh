#!/usr/bin/env bash
# Instructions, mallocs, retains and releases per operation of workout-microbench's hot paths,
# counted by valgrind's callgrind: repeatable whatever else the machine does, and the only
# instruction count where the CPU's counters cannot be read (`perf stat -e instructions true`
# says "not supported" on this machine). Each operation runs N1 and then N2 times in a profile
# run (no benchmark runner: see Benchmarks/MicroBenchmarks/ProfileRun.swift); the difference
# divided by N2 - N1 is one operation's cost, setup and exit cancelled out. A run's setup
# (a fresh store, random ids) is not byte-for-byte the same each time, which moves the total
# by up to some million instructions: the larger N2 - N1, the smaller that share.
#
#   Benchmarks/micro-callgrind.sh                 # read query write write32
#   Benchmarks/micro-callgrind.sh read            # one operation
#   TOP=20 Benchmarks/micro-callgrind.sh read     # and where the instructions and mallocs go
#   BIN=DIR Benchmarks/micro-callgrind.sh write   # the workout-microbench built in DIR (an A/B)
#
# Operations and their default counts (N1/N2): read and query 1000/3000, tls 2000/10000, handshake 100/500, write 200/1000,
# write32 (32 LogWeight calls together) 20/100. OUT=DIR keeps the callgrind.out files.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "micro-callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
operations=("$@")
[ ${#operations[@]} -gt 0 ] || operations=(read query write write32 tls)
for operation in "${operations[@]}"; do
  case "$operation" in read|query|write|write32|tls|handshake) ;; *) echo "micro-callgrind.sh: unknown operation '$operation' (read, query, write, write32, tls, handshake)" >&2; exit 64 ;; esac
done
bin="${BIN:-$(scripts/build-release workout-microbench | tail -n 1)}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
# valgrind 3.19 cannot read the DWARF 5 debug information the Swift toolchain writes: profile
# copies without it (the symbol tables stay, so functions keep their names).
objcopy --strip-debug "$bin/workout-microbench" "$out/workout-microbench"
objcopy --strip-debug "$bin/libMallocInterposerSwift.so" "$out/libMallocInterposerSwift.so"
for operation in "${operations[@]}"; do
  case "$operation" in
    read|query) n1=1000 n2=3000 ;;
    tls) n1=2000 n2=10000 ;;
    handshake) n1=100 n2=500 ;;
    write) n1=200 n2=1000 ;;
    write32) n1=20 n2=100 ;;
  esac
  for n in "$n1" "$n2"; do
    WORKOUT_MICROBENCH_PROFILE="$operation:$n" valgrind --tool=callgrind \
      --callgrind-out-file="$out/$operation-$n.callgrind.out" "$out/workout-microbench" 2>"$out/$operation-$n.log" \
      || { echo "micro-callgrind.sh: the $operation:$n run failed; see $out/$operation-$n.log" >&2; exit 1; }
  done
  echo "== $operation ($n1 and $n2 operations)"
  python3 Benchmarks/callgrind-counts.py "$n1" "$out/$operation-$n1.callgrind.out" "$n2" "$out/$operation-$n2.callgrind.out" ${TOP:+--top "$TOP"}
done
[ -n "${OUT:-}" ] || rm -rf "$out"
