#!/usr/bin/env bash
# Stopping a sweep or a study (issue 45): `fhn sweep` stopped by SIGTERM, SIGUSR1 or SIGINT ends
# with exit code 130 and says which members finished and how to continue; sweep.csv and
# finished.csv hold the finished members, summary.json says "interrupted", and no member that did
# not finish leaves a file. The printed command, run as printed, continues the sweep to the
# sweep.csv and members' files of a sweep never stopped. `fhn converge` stopped by SIGTERM keeps
# its finished runs (runs/), and its printed command continues to the uninterrupted study's CSV.
# Robust on a slow machine: a signal goes only once some members or runs have finished, and the
# members are long enough (several seconds in all) that some are still to run.
# Usage: sweep_interrupt.sh <fhn binary> <source dir>   (CTest: script_sweep_interrupt)
set -u
fhn=$1
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
show=("$work/err")

# The issue's small sheet, a spiral in each of 8 members run one at a time; members 0..7 write
# their tips.csv.
cat > "$work/sheet.yaml" <<'EOF'
name: sheet
model: {a: 0.01, epsilon: 0.01, gamma: 2.0}
domain: {length: [20, 20], dx: 0.5}
initial: {v: {type: spiral}, w: {type: spiral}}
time: {end: 80, dt: 0.05}
output: {every: 0.5, vtk: false, spacetime: false}
EOF
cat > "$work/sweep.yaml" <<'EOF'
base: sheet.yaml
axes: [{key: model.epsilon, values: [0.01, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016, 0.017]}]
output: {members: [0, 1, 2, 3, 4, 5, 6, 7]}
batch: 1
EOF
"$fhn" sweep "$work/sweep.yaml" --quiet --output "$work/whole" 2> "$work/err" ||
  fail "the uninterrupted sweep failed"

# Members finished in folder $1 (finished.csv's lines after its header).
finished() { echo $(( $( { wc -l < "$1/finished.csv"; } 2>/dev/null || echo 1) - 1 )); }

# Starts the sweep into $work/$1 ($pid) and waits until two members have finished.
start() {
  "$fhn" sweep "$work/sweep.yaml" --quiet --output "$work/$1" > "$work/out" 2> "$work/err" &
  pid=$!
  background=$pid
  for _ in $(seq 1 1200); do
    [ "$(finished "$work/$1")" -ge 2 ] && return
    kill -0 "$pid" 2>/dev/null || fail "$1: the sweep ended before two members finished"
    sleep 0.05
  done
  fail "$1: no two members finished in 60 s"
}

# Signals the sweep into $work/$1 with SIG$1 and checks the clean stop.
stop() {
  start "$1"
  kill -"$1" "$pid"
  wait "$pid"
  code=$?
  background=
  dir=$work/$1
  [ "$code" = 130 ] || fail "SIG$1: exit code $code, expected 130"
  grep -q "^fhn: interrupted: [0-9]* of 8 members finished" "$work/err" ||
    fail "SIG$1: no interruption message"
  grep -q "continue with: fhn sweep " "$work/err" || fail "SIG$1: no command to continue"
  grep -q '"status": "interrupted"' "$dir/summary.json" || fail "SIG$1: summary.json not interrupted"
  grep -q "^stopped: interrupted: " "$dir/run.log" || fail "SIG$1: run.log does not say it stopped"
  done=$(finished "$dir")
  [ "$done" -lt 8 ] || fail "SIG$1: the sweep finished before the signal; nothing was tested"
  [ "$(( $(wc -l < "$dir/sweep.csv") - 1 ))" = "$done" ] ||
    fail "SIG$1: sweep.csv's rows are not finished.csv's $done members"
  grep -q "\"finished\": $done," "$dir/summary.json" || fail "SIG$1: summary.json's finished is not $done"
  for m in 0 1 2 3 4 5 6 7; do
    if grep -q "^$m," "$dir/finished.csv"; then
      cmp -s "$work/whole/members/$m/tips.csv" "$dir/members/$m/tips.csv" ||
        fail "SIG$1: member $m finished, its tips.csv differs from the uninterrupted sweep's"
    else
      [ -z "$(ls -A "$dir/members/$m")" ] || fail "SIG$1: member $m did not finish but left files"
    fi
  done
}

stop TERM
# The command printed, run as printed, continues the sweep to the uninterrupted one's files.
command=$(sed -n 's/^  continue with: fhn //p' "$work/err")
[ -n "$command" ] || fail "no command to continue"
eval "\"$fhn\" $command --quiet" 2> "$work/err" || fail "the continued sweep failed"
cmp -s "$work/whole/sweep.csv" "$work/TERM/sweep.csv" || fail "the continued sweep.csv differs"
for m in 0 1 2 3 4 5 6 7; do
  cmp -s "$work/whole/members/$m/tips.csv" "$work/TERM/members/$m/tips.csv" ||
    fail "the continued member $m's tips.csv differs"
done
grep -q "taken over: [0-9]* members" "$work/TERM/run.log" || fail "run.log does not say what was taken over"
stop USR1
stop INT

# A study: six levels of a convergence study in dt, the finest slow enough to be stopped.
cat > "$work/cable.yaml" <<'EOF'
name: cable
domain: {length: 50, dx: 0.05}
initial: {v: {type: gaussian, center: 8, width2: 4}}
time: {end: 40, dt: 0.001}
output: {every: 1}
EOF
cat > "$work/study.yaml" <<'EOF'
study: convergence
base: cable.yaml
refine: {key: time.dt, start: 0.001, ratio: 2, levels: 6}
EOF
"$fhn" converge "$work/study.yaml" --output "$work/study_whole" > /dev/null 2> "$work/err" ||
  fail "the uninterrupted study failed"
"$fhn" converge "$work/study.yaml" --output "$work/study" > /dev/null 2> "$work/err" &
pid=$!
background=$pid
for _ in $(seq 1 1200); do
  ls "$work"/study/runs/*.run > /dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || fail "the study ended before a run finished"
  sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
code=$?
background=
[ "$code" = 130 ] || fail "study, SIGTERM: exit code $code, expected 130"
[ ! -e "$work/study/convergence.csv" ] || fail "the study finished before the signal; nothing was tested"
grep -q "^fhn: interrupted: [1-9][0-9]* runs finished and kept in " "$work/err" ||
  fail "study: no interruption message naming the kept runs"
grep -q "^stopped: interrupted: " "$work/study/run.log" || fail "study: run.log does not say it stopped"
command=$(sed -n 's/^  continue with: fhn //p' "$work/err")
eval "\"$fhn\" $command" > /dev/null 2> "$work/err" || fail "the continued study failed"
cmp -s "$work/study_whole/convergence.csv" "$work/study/convergence.csv" ||
  fail "the continued study's convergence.csv differs from the uninterrupted one's"
grep -q "taken over" "$work/study/run.log" || fail "the continued study took nothing over"
echo "ok: SIGTERM, SIGUSR1 and SIGINT stop a sweep with 130, keeping its finished members; the printed commands continue a sweep and a study to the uninterrupted files"
