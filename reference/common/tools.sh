# Sourced by the cookbook's scripts (toolchain.sh, reproduce.sh): where the
# tools are, decided in one place.
#
#   pto_build_dir   the ptolab build: $PTOLAB_BUILD_DIR, else <repo>/build
#   find_bisheng    CANN's bisheng: $ASCEND_HOME_PATH/compiler/ccec_compiler/bin/bisheng,
#                   else the first on PATH (the rule ptocc and `ptolab doctor` use,
#                   src/common find_bisheng); prints nothing when there is none
#   find_ptocc      $PTOCC, else the build's src/cc/ptocc, else the first on PATH
#   pto_build_cmake the cmake that configured pto_build_dir, when that is a
#                   build of this checkout; fails otherwise
pto_repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

pto_build_dir() { echo "${PTOLAB_BUILD_DIR:-$pto_repo_root/build}"; }

pto_build_cmake() {
    local cache home
    cache="$(pto_build_dir)/CMakeCache.txt"
    [[ -f "$cache" ]] || return 1
    home="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
    [[ -n "$home" && -d "$home" && "$(cd "$home" && pwd -P)" == "$(cd "$pto_repo_root" && pwd -P)" ]] || return 1
    sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$cache"
}

find_bisheng() {
    if [[ -n "${ASCEND_HOME_PATH:-}" && -x "$ASCEND_HOME_PATH/compiler/ccec_compiler/bin/bisheng" \
          && ! -d "$ASCEND_HOME_PATH/compiler/ccec_compiler/bin/bisheng" ]]; then
        echo "$ASCEND_HOME_PATH/compiler/ccec_compiler/bin/bisheng"
    else
        type -P bisheng || true
    fi
}

find_ptocc() {
    local b; b="$(pto_build_dir)/src/cc/ptocc"
    if [[ -n "${PTOCC:-}" ]]; then echo "$PTOCC"; elif [[ -x "$b" ]]; then echo "$b"; else type -P ptocc || true; fi
}
