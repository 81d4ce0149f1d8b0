"""The simulator underneath the simulated torch_npu: libptosim through ctypes.

Device memory comes from ptosim's aclrtMalloc, so every npu tensor is a
registered, 512-byte aligned, bounds-checked block, exactly what a host
program written against ACL gets. Streams are ptosim's aclrtStream handles.
"""
import ctypes
import json
import os
import threading
from pathlib import Path

_SYNC_TIMEOUT_CODE = 507046
_STREAM_CAPTURED_CODE = 107027  # ACL_ERROR_RT_STREAM_CAPTURED
_lock = threading.Lock()
_lib = None
_device_set = set()


def _find_library():
    """$PTOSIM_LIBRARY, else the libptosim of the ptolab build on the path, else the loader's search."""
    env = os.environ.get("PTOSIM_LIBRARY")
    if env:
        return env
    try:
        import ptolab

        paths = Path(ptolab.__file__).with_name("_build_paths.json")
        if paths.exists():
            candidate = json.loads(paths.read_text()).get("libptosim", "")
            if candidate and os.path.exists(candidate):
                return candidate
        bundled = Path(ptolab.__file__).with_name("libptosim.so")
        if bundled.exists():
            return str(bundled)
    except ImportError:
        pass
    return "libptosim.so"


def lib():
    global _lib
    with _lock:
        if _lib is None:
            name = _find_library()
            try:
                # RTLD_GLOBAL: kernel libraries and torch extensions loaded later
                # resolve to this one simulator (one device, one set of streams).
                handle = ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
            except OSError as e:
                raise ImportError(f"torch_npu (ptosim): cannot load the simulator library {name}: {e}; build ptolab "
                                  f"(cmake --build build --target ptosim ptolab_python) and put build/python on "
                                  f"PYTHONPATH, or set PTOSIM_LIBRARY") from e
            _declare(handle)
            _lib = handle
            _init(handle)
        return _lib


def _declare(h):
    vp, i, u64, d, s = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_double, ctypes.c_char_p
    for name, res, args in [
        ("aclInit", i, [s]),
        ("aclrtSetDevice", i, [ctypes.c_int32]),
        ("aclrtGetDeviceCount", i, [ctypes.POINTER(ctypes.c_uint32)]),
        ("aclrtMalloc", i, [ctypes.POINTER(vp), ctypes.c_size_t, i]),
        ("aclrtFree", i, [vp]),
        ("ptosim_is_device_memory", i, [vp, u64]),
        ("ptosim_host_wrote", None, [vp, u64]),
        ("ptosim_soc_name", s, []),
        ("ptosim_target_name", s, []),
        ("ptosim_cube_core_count", i, []),
        ("ptosim_vector_core_count", i, []),
        ("ptosim_default_stream", vp, []),
        ("ptosim_set_current_stream", None, [vp]),
        ("ptosim_enable_timing", i, [i]),
        ("ptosim_simulated_time_us", d, []),
        ("ptosim_create_stream", vp, []),
        ("ptosim_destroy_stream", i, [vp]),
        ("ptosim_synchronize", i, [vp, d]),
        ("ptosim_synchronize_all", i, [d]),
        ("ptosim_default_sync_timeout_s", d, []),
        ("ptosim_last_error", s, []),
        ("aclmdlRICaptureBegin", i, [vp, i]),
        ("aclmdlRICaptureEnd", i, [vp, ctypes.POINTER(vp)]),
        ("aclmdlRICaptureGetInfo", i, [vp, ctypes.POINTER(i), ctypes.POINTER(vp)]),
        ("aclmdlRIExecuteAsync", i, [vp, vp]),
        ("aclmdlRIDestroy", i, [vp]),
        ("aclmdlRIDebugPrint", i, [vp]),
    ]:
        fn = getattr(h, name)
        fn.restype, fn.argtypes = res, args


def last_error():
    return (lib().ptosim_last_error() or b"").decode(errors="replace")


def _check(code, what):
    if code != 0:
        raise RuntimeError(f"{what} failed with ACL error {code}: {last_error()}")


def _init(h):
    code = h.aclInit(None)
    # 100002: already initialised by the program (an ACL host path in the same process).
    if code not in (0, 100002):
        raise RuntimeError(f"torch_npu (ptosim): aclInit failed with ACL error {code}: {last_error()}")
    set_device(0, h)


def set_device(index, h=None):
    h = h or lib()
    _check(h.aclrtSetDevice(int(index)), f"aclrtSetDevice({index})")
    _device_set.add(int(index))


def device_count():
    n = ctypes.c_uint32(0)
    _check(lib().aclrtGetDeviceCount(ctypes.byref(n)), "aclrtGetDeviceCount")
    return int(n.value)


def malloc(nbytes):
    p = ctypes.c_void_p()
    _check(lib().aclrtMalloc(ctypes.byref(p), int(nbytes), 0), f"aclrtMalloc({nbytes})")
    return int(p.value)


def free(ptr):
    if _lib is not None:
        _lib.aclrtFree(ctypes.c_void_p(ptr))


def is_device_memory(ptr, nbytes):
    return bool(lib().ptosim_is_device_memory(ctypes.c_void_p(ptr), max(int(nbytes), 1)))


def host_wrote(ptr, nbytes):
    """Device memory the host computed into (for initcheck, as aclrtMemcpy does)."""
    lib().ptosim_host_wrote(ctypes.c_void_p(ptr), int(nbytes))


def soc_name():
    return lib().ptosim_soc_name().decode()


def target_name():
    return lib().ptosim_target_name().decode()


def cube_core_count():
    return int(lib().ptosim_cube_core_count())


def vector_core_count():
    return int(lib().ptosim_vector_core_count())


def default_stream():
    return int(lib().ptosim_default_stream())


def enable_timing():
    """Turns ptosim's cost model on for the launches from now on (docs/cost-model.md)."""
    lib().ptosim_enable_timing(1)


def simulated_time_us():
    """The simulated device clock in us: the latest end of the timed work so far (read it after synchronising)."""
    return float(lib().ptosim_simulated_time_us())


def set_current_stream(handle):
    """The calling thread's stream for C++ extensions (c10_npu::getCurrentNPUStream); None: the default."""
    lib().ptosim_set_current_stream(handle)


def create_stream():
    return int(lib().ptosim_create_stream())


def destroy_stream(handle):
    if _lib is not None:
        _lib.ptosim_destroy_stream(ctypes.c_void_p(handle))


def sync_timeout():
    """PTO_SYNC_TIMEOUT_S, default 60, checked as ptolab checks it."""
    raw = os.environ.get("PTO_SYNC_TIMEOUT_S", "")
    if raw == "":
        return 60.0
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise ValueError(f"PTO_SYNC_TIMEOUT_S={raw!r} is not a positive number of seconds; set it to e.g. 60 or "
                         f"unset it")
    return value


def synchronize(handle, what):
    limit = sync_timeout()
    code = lib().ptosim_synchronize(ctypes.c_void_p(handle), limit)
    if code == _SYNC_TIMEOUT_CODE:
        raise TimeoutError(f"{what}: possible sync deadlock: the stream did not finish within {limit:g} s "
                           f"(PTO_SYNC_TIMEOUT_S); check set_flag/wait_flag pairs and pipe_barrier. {last_error()}")
    if code == _STREAM_CAPTURED_CODE:
        raise RuntimeError(f"{what}: a stream is capturing (ACL error {code}), so there is nothing to wait for: "
                           f"{last_error()}")
    if code != 0:
        raise RuntimeError(f"{what}: a kernel failed (ACL error {code}): {last_error()}")


# --- ACL graphs (docs/acl.md, "ACL graphs") -------------------------------------

CAPTURE_MODES = {"global": 0, "thread_local": 1, "relaxed": 2}


def capture_begin(stream, mode):
    _check(lib().aclmdlRICaptureBegin(ctypes.c_void_p(stream), CAPTURE_MODES[mode]), "aclmdlRICaptureBegin")


def capture_end(stream):
    m = ctypes.c_void_p()
    _check(lib().aclmdlRICaptureEnd(ctypes.c_void_p(stream), ctypes.byref(m)), "aclmdlRICaptureEnd")
    return int(m.value)


def capture_status(stream):
    """0 none, 1 active, 2 invalidated (aclmdlRICaptureStatus)."""
    st, m = ctypes.c_int(0), ctypes.c_void_p()
    _check(lib().aclmdlRICaptureGetInfo(ctypes.c_void_p(stream), ctypes.byref(st), ctypes.byref(m)),
           "aclmdlRICaptureGetInfo")
    return int(st.value)


def model_execute(model, stream):
    _check(lib().aclmdlRIExecuteAsync(ctypes.c_void_p(model), ctypes.c_void_p(stream)), "aclmdlRIExecuteAsync")


def model_destroy(model):
    _check(lib().aclmdlRIDestroy(ctypes.c_void_p(model)), "aclmdlRIDestroy")


def model_debug_print(model):
    _check(lib().aclmdlRIDebugPrint(ctypes.c_void_p(model)), "aclmdlRIDebugPrint")
def synchronize_all(what, capturing_ok=False):
    """Waits for every stream of the simulated device, ACL streams the program made included.
    A capturing stream has nothing queued to wait for: an error for torch.npu.synchronize(), as
    for one stream, but not for the host-operator wait (capturing_ok), which waited for the others."""
    limit = sync_timeout()
    code = lib().ptosim_synchronize_all(limit)
    if code == _SYNC_TIMEOUT_CODE:
        raise TimeoutError(f"{what}: possible sync deadlock: a stream did not finish within {limit:g} s "
                           f"(PTO_SYNC_TIMEOUT_S); check set_flag/wait_flag pairs and pipe_barrier. {last_error()}")
    if code == _STREAM_CAPTURED_CODE:
        if capturing_ok:
            return
        raise RuntimeError(f"{what}: a stream is capturing (ACL error {code}), so there is nothing to wait for: "
                           f"{last_error()}")
    if code != 0:
        raise RuntimeError(f"{what}: a kernel failed (ACL error {code}): {last_error()}")
