#!/usr/bin/env bash
# Stopping a distributed run (issue 24): `mpirun -np 2 fhn run ...` stopped by a signal writes its
# checkpoint, and ends with exit code 130 where mpirun lets the ranks' code through.
#
# Usage: mpi_interrupt.sh <fhn executable> <source dir> <mpirun>
#
# Open MPI's mpirun handles the two signals differently (README.md, "On several ranks"):
# - SIGUSR1 is forwarded to the ranks as it is; they stop cleanly and mpirun exits with their 130;
# - SIGINT (Ctrl-C) makes mpirun send SIGTERM to the ranks and exit 1 whatever they return
#   (its own choice); the ranks still stop cleanly and write their checkpoint.
# Robust on a slow machine: the signal goes only once the run has written frames (both ranks
# are then in the time loop, their handlers installed), and nothing depends on the stepping speed.
set -u
fhn=$1
source_dir=$2
mpirun=$3
. "$(dirname "$0")/common.sh"
show=("$work/err")

# Starts the run into $work/$1 in the background ($background: mpirun's pid) and waits for two
# frames.
start() {
  "$mpirun" -np 2 --oversubscribe "$fhn" run "$source_dir/configs/planar_2d.yaml" \
    --set time.end=1000000 --set output.vtk=false --quiet --output "$work/$1" \
    > "$work/out" 2> "$work/err" &
  background=$!
  for _ in $(seq 1 1200); do
    [ "$({ wc -l < "$work/$1/probes.csv"; } 2>/dev/null || echo 0)" -ge 3 ] && return
    kill -0 "$background" 2>/dev/null || fail "the run ended early"
    sleep 0.05
  done
  fail "the run wrote no frames in 60 s"
}

# Whether mpirun ($background) ends within 60 s.
ends() {
  for _ in $(seq 1 1200); do
    kill -0 "$background" 2>/dev/null || return 0
    sleep 0.05
  done
  return 1
}

# Waits for mpirun ($code: its exit code) and checks that the ranks stopped cleanly.
stopped() {
  ends || fail "$2: mpirun still runs 60 s after the signal"
  wait "$background"
  code=$?
  background=
  ls "$work/$1/checkpoints/"planar_2d_*.chk > /dev/null 2>&1 || fail "$2: no checkpoint written"
  grep -q '"status": "interrupted"' "$work/$1/summary.json" || fail "$2: summary.json not interrupted"
  grep -q "fhn: interrupted at t = " "$work/err" || fail "$2: no interruption message"
}

start int
kill -INT "$background"
stopped int "SIGINT"
[ "$code" = 1 ] || [ "$code" = 130 ] || fail "SIGINT to mpirun: exit code $code, expected 1 or 130"
sigint=$code

# Forwarding SIGUSR1 is Open MPI's (4.1 on Debian 12 does); an mpirun that keeps it to itself
# leaves the ranks running: nothing of fhn's to test there.
start usr1
kill -USR1 "$background"
if ! ends; then
  echo "skipped: $("$mpirun" --version 2>&1 | head -n 1) did not pass SIGUSR1 on to the ranks" \
       "within 60 s (SIGINT: exit $sigint, a checkpoint written)"
  exit 77
fi
stopped usr1 "SIGUSR1"
[ "$code" = 130 ] || fail "SIGUSR1 to mpirun: exit code $code, expected 130"
echo "ok: SIGUSR1 to mpirun gives exit code 130, SIGINT $sigint (Open MPI's); both wrote a checkpoint"
