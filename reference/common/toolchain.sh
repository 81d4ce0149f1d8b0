# Sourced by every compile.sh: picks the compiler and provides the build
# steps. Variables: PTO_CC (compiler to use), PTO_TOOLCHAIN (bisheng|ptocc),
# PTO_LIB_PATH (PTO-ISA headers), PTO_REF_OUT (output directory),
# PTO_REF_SKIP_PYBIND=1 (skip the pybind module).
#
# What is stale is decided by the ptolab build, not here: its
# reference_kernels target (reference/CMakeLists.txt) runs compile.sh for one
# output at a time, PTO_REF_ONLY=<file name>, with the compiler's dependency
# file at PTO_REF_DEPFILE=<path>, and ninja rebuilds only what changed. Run by
# hand in a checkout that has a configured build, compile.sh asks that build
# for its directory's outputs. With the compiler or output directory chosen by
# hand (PTO_CC, PTOCC, a PTO_TOOLCHAIN other than the automatic choice,
# PTO_REF_OUT, PTO_REF_SKIP_PYBIND) or without such a build, it builds every
# output; ptocc's result cache makes repeated simulator compiles cheap.
ref_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ref_root/common/tools.sh"

if [[ -n "$(find_bisheng)" ]]; then automatic=bisheng; else automatic=ptocc; fi
if [[ -z "${PTO_REF_ONLY:-}${PTO_CC:-}${PTOCC:-}${PTO_REF_OUT:-}" && "${PTO_REF_SKIP_PYBIND:-0}" != 1 &&
      "${PTO_TOOLCHAIN:-auto}" =~ ^(auto|$automatic)$ ]] && cmake="$(pto_build_cmake)"; then
    target="reference_$(realpath --relative-to="$ref_root" "$here" | tr / _)"
    echo "+ cmake --build $(pto_build_dir) --target $target"
    exec "$cmake" --build "$(pto_build_dir)" --target "$target"
fi

out="${PTO_REF_OUT:-$here/build}"
mkdir -p "$out"

case "${PTO_TOOLCHAIN:-auto}" in
    bisheng) CC="${PTO_CC:-$(find_bisheng)}"; WORLD=bisheng ;;
    ptocc)   CC="${PTO_CC:-$(find_ptocc)}"; WORLD=sim ;;
    auto)
        if [[ -n "${PTO_CC:-}" ]]; then CC="$PTO_CC"; [[ "$CC" == *bisheng* ]] && WORLD=bisheng || WORLD=sim
        elif [[ -n "$(find_bisheng)" ]]; then CC="$(find_bisheng)"; WORLD=bisheng
        else CC="$(find_ptocc)"; WORLD=sim; fi ;;
    *) echo "compile.sh: PTO_TOOLCHAIN=${PTO_TOOLCHAIN} is not bisheng, ptocc or auto" >&2; exit 2 ;;
esac
if [[ -z "$CC" ]]; then
    echo "compile.sh: no compiler: install CANN (bisheng) or build ptocc (ninja -C build ptocc), or set PTO_CC" >&2
    exit 2
fi
# ptocc keeps its own headers first and moves a PTO_LIB_PATH holding pto/ behind them.
INC=()
if [[ -n "${PTO_LIB_PATH:-}" ]]; then
    if [[ -f "$PTO_LIB_PATH/include/pto/pto-inst.hpp" ]]; then INC=("-I$PTO_LIB_PATH/include"); else INC=("-I$PTO_LIB_PATH"); fi
fi

# wanted TARGET: whether to build TARGET now: always, or with PTO_REF_ONLY only that one.
wanted() {
    [[ -z "${PTO_REF_ONLY:-}" || "$(basename "$1")" == "$PTO_REF_ONLY" ]]
}
# Compiler flags writing the dependency file of TARGET, when one is asked for.
depflags() {
    DEP=()
    if [[ -n "${PTO_REF_DEPFILE:-}" ]]; then DEP=(-MD -MF "$PTO_REF_DEPFILE" -MT "$1"); fi
}
run() { echo "+ $*"; "$@"; }

# kernel NAME ARCH MEMMACRO [extra sources...]: NAME.cpp -> build/libNAME.so
kernel() {
    local name="$1" arch="$2" mem="$3"
    wanted "$out/lib$name.so" || return 0
    depflags "$out/lib$name.so"
    run "$CC" -fPIC -shared -xcce --cce-aicore-arch="$arch" "$mem" -O2 -std=c++17 "${INC[@]}" "${DEP[@]}" \
        "$here/$name.cpp" -o "$out/lib$name.so"
}

# host_main SRC OUT LIB...: an ACL host program linked against the kernel libraries.
host_main() {
    local src="$1" exe="$2"; shift 2
    local links=() l
    for l in "$@"; do links+=("-l$l"); done
    wanted "$out/$exe" || return 0
    depflags "$out/$exe"
    if [[ "$WORLD" == bisheng ]]; then
        run "${CXX:-g++}" -O2 -std=c++17 -I"$ASCEND_HOME_PATH/include" "${DEP[@]}" "$here/$src" -L"$out" "${links[@]}" \
            -L"$ASCEND_HOME_PATH/lib64" -lascendcl -lruntime -Wl,-rpath,"$out" -o "$out/$exe"
    else
        run "$CC" -O2 "${DEP[@]}" "$here/$src" -L"$out" "${links[@]}" -Wl,-rpath,"$out" -o "$out/$exe"
    fi
}

# pybind_module SRC MODULE LIB...: a Python extension calling the libraries' entry points.
pybind_module() {
    [[ "${PTO_REF_SKIP_PYBIND:-0}" == 1 ]] && return 0
    local src="$1" mod="$2"; shift 2
    local py="${PTO_PYTHON:-/usr/bin/python3}"
    local suffix; suffix="$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
    local links=() l
    for l in "$@"; do links+=("-l$l"); done
    wanted "$out/$mod$suffix" || return 0
    depflags "$out/$mod$suffix"
    local pyinc; pyinc="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
    # -O1: the module only forwards pointers; optimisation buys nothing but compile time.
    run "${CXX:-c++}" -O1 -std=c++17 -shared -fPIC -I"$pyinc" "${DEP[@]}" "$here/$src" -L"$out" "${links[@]}" \
        -Wl,-rpath,'$ORIGIN' -o "$out/$mod$suffix"
}
