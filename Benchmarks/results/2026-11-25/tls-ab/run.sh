#!/usr/bin/env bash
# TLS against plain TCP, meals-day 64×1 with connections held open, interleaved rounds under SCHED_RR:
# Benchmarks/tls-ab.sh (which this folder's run first was), its reports kept here.
#   BUILD, DATA, ROUNDS as Benchmarks/tls-ab.sh says; OUT defaults to this folder.
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$here} SCENARIO=meals-day exec bash "$here/../../../tls-ab.sh"
