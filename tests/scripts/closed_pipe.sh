#!/usr/bin/env bash
# `fhn run ... 2>&1 | head -c 10` (issue 24): a closed stdout and stderr must not kill the run by
# SIGPIPE; it goes on and writes all its files, and exits 0.
#
# Usage: closed_pipe.sh <fhn executable> <source dir>
#
# Deterministic: the pipe's reader has exited before fhn starts, so every write fhn makes to
# stdout or stderr meets a closed pipe (the first one comes before the first step when VTK output
# is on, the closing message after the last one in any case).
set -u
fhn=$1
source_dir=$2
. "$(dirname "$0")/common.sh"

# A SIGPIPE ignored on entry to this shell would be ignored by fhn too, whatever its code: then
# this test would prove nothing.
ignored=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status)
if [ $(( 0x$ignored >> 12 & 1 )) = 1 ]; then
  echo "SIGPIPE is ignored by the shell that runs this test; it cannot tell a fix from none"
  exit 77
fi

out=$work/out
settings=(--set time.end=50 --set output.spacetime=false)
"$fhn" info | grep -q "VTK output: on" || settings+=(--set output.vtk=false)

exec 3> >(exit 0)
reader=$!
while kill -0 "$reader" 2>/dev/null; do sleep 0.01; done
"$fhn" run "$source_dir/configs/pulse_split.yaml" "${settings[@]}" --output "$out" >&3 2>&3
code=$?
exec 3>&-
[ "$code" = 0 ] || fail "fhn run exited $code with its output pipe closed (141: killed by SIGPIPE)"
grep -q '"status": "ok"' "$out/summary.json" || fail "no summary.json with status ok"
grep -q '^done: 500 steps, 51 frames' "$out/run.log" || fail "run.log does not say the run is done"
[ "$(wc -l < "$out/probes.csv")" = 52 ] || fail "probes.csv does not hold 51 rows"
echo "ok: fhn run with its output pipe closed exited 0 and wrote all its files"
