# Shared by the tools (run, test, sanitize, fuzz): install the Debian packages fhnsim needs,
# then configure and build a Release build in build/. Source it; it defines functions and sets
# no options.
#
# Environment:
#   FHN_WITH_VTK=OFF    build without VTK (no libvtk9-dev needed; .pvd/.vtu/.vti output off)
#   FHN_BUILD_DIR=DIR   build folder (default: build/ in the repository)
#   FHN_CMAKE_ARGS=...  extra arguments for cmake's configure step

fhn_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fhn_build_dir=${FHN_BUILD_DIR:-$fhn_root/build}

fhn_say() { printf '%s\n' "$*" >&2; }

# Packages a tool needs beyond the build's, e.g. clang and libFuzzer for tools/fuzz; a tool sets
# it after sourcing this file and before fhn_install_dependencies.
fhn_extra_packages=()

fhn_packages() {
  local packages=(cmake ninja-build g++ pkg-config libyaml-cpp-dev libeigen3-dev doctest-dev
                  libcli11-dev zlib1g-dev liblapack-dev libopenmpi-dev openmpi-bin
                  python3-numpy python3-matplotlib)
  [ "${FHN_WITH_VTK:-ON}" = OFF ] || packages+=(libvtk9-dev)
  packages+=("${fhn_extra_packages[@]}")
  printf '%s\n' "${packages[@]}"
}

# Installs the packages that are missing, never removing any (apt-get --no-remove).
fhn_install_dependencies() {
  local missing=() p
  while read -r p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done < <(fhn_packages)
  [ ${#missing[@]} -eq 0 ] && return 0

  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
      fhn_say "fhnsim needs these Debian packages: ${missing[*]}"
      fhn_say "Install them as root: apt-get install --no-remove ${missing[*]}"
      return 1
    fi
    sudo=(sudo)
  fi
  fhn_say "Installing missing packages: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq || fhn_say "warning: apt-get update failed; trying the install anyway"
  local log
  log=$(mktemp)
  if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-remove "${missing[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    if grep -qiE 'python3-paraview|paraview' "$log" || dpkg-query -W python3-paraview >/dev/null 2>&1; then
      fhn_say ""
      fhn_say "The install is blocked: libvtk9-dev pulls in python3-vtk9, which conflicts with"
      fhn_say "ParaView's python3-paraview, installed here. Nothing was removed. Either"
      fhn_say "  - build without the VTK writers:   FHN_WITH_VTK=OFF tools/run (or tools/test)"
      fhn_say "    (runs then write probes.csv and summary.json but no .pvd/.vtu/.vti), or"
      fhn_say "  - remove python3-paraview yourself (ParaView keeps working without its Python"
      fhn_say "    module's Debian package only if you do not use pvpython) and run this again."
    else
      fhn_say ""
      fhn_say "apt-get could not install: ${missing[*]} (see above). Nothing was removed."
      fhn_say "Packages it would have to remove are kept (--no-remove); resolve the conflict and rerun."
    fi
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# Configures (once) and builds the Release build.
fhn_build() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  if [ ! -f "$fhn_build_dir/CMakeCache.txt" ]; then
    # shellcheck disable=SC2086
    cmake -S "$fhn_root" -B "$fhn_build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
          -DFHN_WITH_VTK="${FHN_WITH_VTK:-ON}" ${FHN_CMAKE_ARGS:-} >&2 || return 1
  fi
  cmake --build "$fhn_build_dir" --parallel "$(nproc)" >&2
}
