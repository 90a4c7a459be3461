#!/usr/bin/env bash
# A FIFO (named pipe) or a device given where fhn reads a file (issue 45): opening a FIFO waits for
# a writer that never comes, so `fhn validate c.yaml` blocked forever. Every file read by name (a
# config, a sweep or study file, the base config they name) must be refused at once, exit 2,
# saying what the path is.
#
# Usage: fifo_inputs.sh <fhn executable> <source dir>
set -u
fhn=$1
. "$(dirname "$0")/common.sh"
show=("$work/err")

mkfifo "$work/c.yaml" || exit 77
printf 'study: newton\nbase: c.yaml\n' > "$work/study.yaml"
printf 'base: c.yaml\naxes:\n  - {key: model.a, values: [0.1, 0.2]}\n' > "$work/sweep.yaml"

# expect_refusal WHAT ARGS...: `fhn ARGS` ends within 10 s with exit 2 and names the FIFO.
expect_refusal() {
  local what=$1
  shift
  timeout 10 "$fhn" "$@" > /dev/null 2> "$work/err"
  local code=$?
  [ "$code" = 124 ] && fail "fhn $* ($what) still waits on the FIFO after 10 s"
  [ "$code" = 2 ] || fail "fhn $* ($what) exited $code, expected 2"
  grep -q "c.yaml: cannot open $what (a FIFO (named pipe), not a regular file)" "$work/err" \
    || fail "fhn $* does not say that c.yaml is a FIFO"
}
expect_refusal "config file" validate "$work/c.yaml"
expect_refusal "config file" run "$work/c.yaml" --output "$work/out"
expect_refusal "study file" converge "$work/c.yaml"
expect_refusal "sweep file" sweep "$work/c.yaml"
expect_refusal "config file" converge "$work/study.yaml"  # the study's base config
expect_refusal "config file" sweep "$work/sweep.yaml"     # the sweep's base config
[ -e "$work/out" ] && fail "the refused run created its output folder"
echo "ok: a FIFO as config, study, sweep or base file is refused at once with exit 2"
