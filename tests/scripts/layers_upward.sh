#!/usr/bin/env bash
# The layer checks (tools/layers) fail on an upward dependency: a tree of two rooms, `low` under
# `high`, where low includes a header of high and calls a function that high's library defines.
# Both checks must name the offence and exit 1; with the call and the include going downward
# instead, both must pass.
#
# Usage: layers_upward.sh <python3> <source dir> <C++ compiler> <ar> <nm>
set -u
python=$1
source_dir=$2
cxx=$3
ar=$4
nm=$5
. "$(dirname "$0")/common.sh"
layers=("$python" "$source_dir/tools/layers")

# tree DIRECTION: the two rooms' files, low calling high ("up") or high calling low ("down"),
# their libraries, and the rooms table.
tree() {
  rm -rf "$work/tree" && mkdir -p "$work/tree/src/low" "$work/tree/src/high" "$work/tree/lib"
  local t=$work/tree
  echo 'int low_value();' > "$t/src/low/low.hpp"
  echo 'int high_value();' > "$t/src/high/high.hpp"
  if [ "$1" = up ]; then
    printf '#include "high/high.hpp"\nint low_value() { return high_value(); }\n' > "$t/src/low/low.cpp"
    printf '#include "high/high.hpp"\nint high_value() { return 1; }\n' > "$t/src/high/high.cpp"
  else
    printf '#include "low/low.hpp"\nint low_value() { return 1; }\n' > "$t/src/low/low.cpp"
    printf '#include "high/high.hpp"\n#include "low/low.hpp"\nint high_value() { return low_value(); }\n' \
      > "$t/src/high/high.cpp"
  fi
  for room in low high; do
    "$cxx" -c -I "$t/src" "$t/src/$room/$room.cpp" -o "$t/lib/$room.o" || fail "cannot compile $room"
    "$ar" rcs "$t/lib/lib$room.a" "$t/lib/$room.o" || fail "cannot archive $room"
  done
  printf 'low|src/low||%s\nhigh|src/high|low|%s\n' "$t/lib/liblow.a" "$t/lib/libhigh.a" \
    > "$t/rooms.txt"
}

tree up
out=$("${layers[@]}" includes "$work/tree/rooms.txt" --source "$work/tree")
[ $? = 1 ] || fail "the include check passed an upward include: $out"
echo "$out" | grep -q 'src/low/low.cpp:1: room low includes "high/high.hpp" of room high' ||
  fail "the include check did not name the upward include: $out"
out=$("${layers[@]}" links "$work/tree/rooms.txt" --nm "$nm")
[ $? = 1 ] || fail "the link check passed an upward call: $out"
echo "$out" | grep -q 'room low takes .*high_value.* from high, which is not below it' ||
  fail "the link check did not name the upward call: $out"

tree down
"${layers[@]}" includes "$work/tree/rooms.txt" --source "$work/tree" ||
  fail "the include check refused a downward include"
"${layers[@]}" links "$work/tree/rooms.txt" --nm "$nm" || fail "the link check refused a downward call"
echo "layers: both checks refuse the upward dependency and pass the downward one"
