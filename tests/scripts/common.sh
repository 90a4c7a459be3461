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
