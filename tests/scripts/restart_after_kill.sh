#!/usr/bin/env bash
# A run killed by SIGKILL and restarted from its last checkpoint ends with the same files as the
# run that never stopped (spacetime.vti, probes.csv, newton.csv, the .pvd, the pulse speed and
# the totals of summary.json); a run stopped by SIGINT prints a "continue with" command that,
# run exactly as printed (its --set quoted), continues it to the same files.
# Usage: restart_after_kill.sh <fhn binary> <source dir>   (CTest: script_restart_after_kill)
set -u
fhn=$1
config=$2/configs/pulse_split_cn.yaml
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Slow enough (2001 nodes, 3000 Newton steps) to be stopped after its first checkpoint.
set -- --set domain.dx=0.1 --set time.end=300 --set output.checkpoint_every=20 --quiet
"$fhn" run "$config" "$@" --output "$work/whole" || fail "the reference run failed"

# Waits until $1/checkpoints holds a checkpoint (at most 60 s).
wait_checkpoint() {
  i=0
  while ! ls "$1"/checkpoints/*.chk >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 12000 ] || fail "no checkpoint in $1"; sleep 0.005
  done
}

# 1. SIGKILL after the first checkpoint, then --restart from the latest one.
"$fhn" run "$config" "$@" --output "$work/killed" & pid=$!
background=$pid
wait_checkpoint "$work/killed"
kill -9 $pid; wait $pid 2>/dev/null
[ ! -e "$work/killed/summary.json" ] || fail "the run ended before the kill; nothing was tested"
checkpoint=$(ls "$work"/killed/checkpoints/*.chk | tail -n 1)
"$fhn" run "$config" "$@" --output "$work/killed" --restart "$checkpoint" 2>"$work/err" ||
  fail "the restart failed: $(cat "$work/err")"
[ ! -s "$work/err" ] || fail "the restart said: $(cat "$work/err")"
for file in spacetime.vti probes.csv newton.csv pulse_split_cn.pvd; do
  cmp -s "$work/whole/$file" "$work/killed/$file" || fail "$file differs from the uninterrupted run's"
done
for key in '"steps": 3000' '"frames": 301' "$(grep '"pulse_speed":' "$work/whole/summary.json")"; do
  grep -qF "$key" "$work/killed/summary.json" || fail "summary.json lacks $key"
done

# 2. SIGINT with a --set that needs quoting; the printed command, run as printed.
"$fhn" run "$config" "$@" --set 'output.probes=[50, 150]' --output "$work/stopped" \
  2>"$work/stopped.err" & pid=$!
background=$pid
wait_checkpoint "$work/stopped"
kill -INT $pid; wait $pid; code=$?
[ $code -eq 130 ] || fail "SIGINT: exit $code, expected 130"
command=$(sed -n 's/^ *continue with: fhn //p' "$work/stopped.err")
[ -n "$command" ] || fail "no 'continue with' in: $(cat "$work/stopped.err")"
eval "\"\$fhn\" $command" >/dev/null 2>"$work/err" || fail "the printed command failed: $(cat "$work/err")"
"$fhn" run "$config" "$@" --set 'output.probes=[50, 150]' --output "$work/whole2" ||
  fail "the second reference run failed"
for file in spacetime.vti probes.csv pulse_split_cn.pvd; do
  cmp -s "$work/whole2/$file" "$work/stopped/$file" || fail "$file (SIGINT) differs"
done
echo "ok"
