# Shared by the script tests (sourced): a scratch folder $work, removed on exit together with the
# background process whose pid is in $background (killed), and fail MESSAGE, which prints the
# message and the files named in the array $show, then exits 1.
work=$(mktemp -d)
background=
show=()
cleanup() {
  [ -n "$background" ] && kill -9 "$background" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "${show[@]}"; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
  exit 1
}

# wait_for_lock PID FOLDER: waits (60 s at most) until the fhn process PID holds FOLDER's lock
# (its pid in .fhn.lock, written just after the lock is taken).
wait_for_lock() {
  for _ in $(seq 1 1200); do
    grep -q "^pid $1 " "$2/.fhn.lock" 2>/dev/null && return
    kill -0 "$1" 2>/dev/null || fail "process $1 ended before it locked $2"
    sleep 0.05
  done
  fail "process $1 never locked $2"
}
