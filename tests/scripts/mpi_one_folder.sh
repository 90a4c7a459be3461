#!/usr/bin/env bash
# A distributed run or sweep into an output folder in use (issue 24): rank 0, the one that
# writes, finds the folder locked and stops every rank; mpirun exits 4 and the message names the
# process that holds the folder.
#
# Usage: mpi_one_folder.sh <fhn executable> <source dir> <mpirun>
set -u
fhn=$1
source_dir=$2
mpirun=$3
. "$(dirname "$0")/common.sh"
show=("$work/holder.err" "$work/err")
out=$work/same

"$fhn" run "$source_dir/configs/planar_2d.yaml" --set time.end=1000000 --set output.vtk=false \
  --quiet --output "$out" > /dev/null 2> "$work/holder.err" &
background=$!
wait_for_lock "$background" "$out"

for command in "run $source_dir/configs/planar_2d.yaml --set output.vtk=false" \
               "sweep $source_dir/configs/sweeps/restitution.yaml"; do
  # shellcheck disable=SC2086  # the command's words
  "$mpirun" -np 2 --oversubscribe "$fhn" $command --quiet --output "$out" > /dev/null 2> "$work/err"
  code=$?
  [ "$code" = 4 ] || fail "mpirun fhn $command: exit code $code, expected 4"
  grep -q "$out: the output folder is in use by another fhn process (pid $background on host" \
    "$work/err" || fail "mpirun fhn $command: the message does not name the holder"
done
kill -0 "$background" 2>/dev/null || fail "the holder ended"
echo "ok: a distributed run and sweep into a folder in use stopped with exit code 4"
