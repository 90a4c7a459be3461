#!/usr/bin/env bash
# Two `fhn run` processes into one output folder (issue 24): the second must stop at once with
# exit code 4, naming the folder and the first process, and the first's outputs must stay whole
# (its .pvd lists exactly the files in frames/, probes.csv holds its rows only, in order).
#
# Usage: two_runs_one_folder.sh <fhn executable> <source dir>
#
# Robust on a slow machine: nothing depends on how fast a run steps. The first run is long; the
# second starts only once the first holds the lock (its pid in .fhn.lock), and the first is
# stopped, once it writes frames, with SIGINT, which ends it cleanly (exit 130) with every file
# consistent.
set -u
fhn=$1
source_dir=$2
. "$(dirname "$0")/common.sh"
show=("$work/first.err" "$work/second.err")

out=$work/same
vtk=0
"$fhn" info | grep -q "VTK output: on" && vtk=1
settings=(--set time.end=1000000 --set output.spacetime=false)
[ "$vtk" = 1 ] || settings+=(--set output.vtk=false)

"$fhn" run "$source_dir/configs/pulse_split.yaml" "${settings[@]}" --quiet --output "$out" \
  > "$work/first.out" 2> "$work/first.err" &
first=$!
background=$first

wait_for_lock "$first" "$out"

# The second: refused before it touches anything, within seconds (it loads a config, no more).
start=$(date +%s)
"$fhn" run "$source_dir/configs/pulse_split.yaml" "${settings[@]}" --quiet --output "$out" \
  > "$work/second.out" 2> "$work/second.err"
code=$?
took=$(( $(date +%s) - start ))
[ "$code" = 4 ] || fail "the second run exited $code, expected 4"
[ "$took" -le 10 ] || fail "the second run took $took s to stop"
grep -q "fhn: error: $out: the output folder is in use by another fhn process (pid $first on host" \
  "$work/second.err" || fail "the second run's message does not name the folder and the first's pid"
grep -q "started as: .*run .*pulse_split.yaml" "$work/second.err" \
  || fail "the second run's message does not give the first's command"
kill -0 "$first" 2>/dev/null || fail "the first run ended before the second was refused"

# Once the first is in its time loop (frames written: its SIGINT handler is installed; before,
# SIGINT would be ignored, as in any background job of a script), stop it cleanly.
for _ in $(seq 1 1200); do
  [ "$({ wc -l < "$out/probes.csv"; } 2>/dev/null || echo 0)" -ge 3 ] && break
  sleep 0.05
done
kill -INT "$first"
wait "$first"
code=$?
background=
[ "$code" = 130 ] || fail "the first run exited $code after SIGINT, expected 130"

# probes.csv: no NUL bytes, one header, times strictly increasing (the first run's rows only).
probes=$out/probes.csv
[ "$(tr -d '\000' < "$probes" | wc -c)" = "$(wc -c < "$probes")" ] || fail "NUL bytes in probes.csv"
[ "$(grep -c '^t,' "$probes")" = 1 ] || fail "probes.csv has more than one header"
awk -F, 'NR > 2 && $1 + 0 <= prev { bad = 1 } NR > 1 { prev = $1 + 0 } END { exit bad }' "$probes" \
  || fail "the times in probes.csv do not increase"
rows=$(( $(wc -l < "$probes") - 1 ))
[ "$rows" -ge 2 ] || fail "probes.csv has $rows rows"

if [ "$vtk" = 1 ]; then
  listed=$(grep -c '<DataSet' "$out/pulse_split.pvd")
  files=$(ls "$out/frames" | wc -l)
  [ "$listed" = "$files" ] || fail "the .pvd lists $listed frames, frames/ holds $files files"
  [ "$listed" = "$rows" ] || fail "the .pvd lists $listed frames, probes.csv has $rows rows"
  for f in $(sed -n 's/.*file="\([^"]*\)".*/\1/p' "$out/pulse_split.pvd"); do
    [ -s "$out/$f" ] || fail "the .pvd lists $f, which is missing or empty"
  done
fi
grep -q '"status": "interrupted"' "$out/summary.json" || fail "summary.json does not say interrupted"
echo "ok: the second run stopped with exit code 4 in $took s; the first's $rows frames are whole"
