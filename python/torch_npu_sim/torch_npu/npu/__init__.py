"""torch.npu for the simulated torch_npu: devices, streams, events and
settings, backed by ptosim (see docs/torch_npu.md for what is simulated)."""
import contextlib
import ctypes
import sys
import threading
import time
import types
import weakref

from .. import _runtime, _tensor

_SETTINGS = {"jit_compile": None}


class _Config:
    """torch.npu.config: accepted and remembered; ptosim has no internal (private) formats."""

    allow_internal_format = False


config = _Config()


def set_compile_mode(jit_compile=False):
    """Recorded only: ptosim runs the kernels it is given, there is no op compiler to switch."""
    _SETTINGS["jit_compile"] = bool(jit_compile)


def is_available():
    return True


def is_initialized():
    return True


def init():
    _runtime.lib()


def device_count():
    return _runtime.device_count()


def _index(device):
    if device is None:
        return _tensor._current_index[0]
    if isinstance(device, int):
        return device
    idx = _tensor.parse_device(device)
    if idx is None:
        raise ValueError(f"{device!r} is not an npu device; use 'npu', 'npu:N' or an index")
    return idx


def set_device(device):
    idx = _index(device)
    n = device_count()
    if not 0 <= idx < n:
        raise RuntimeError(f"torch.npu.set_device({device!r}): invalid device index {idx}; the simulator has {n} "
                           f"device(s) (PTO_SIM_DEVICE_COUNT)")
    _runtime.set_device(idx)
    _tensor._current_index[0] = idx


def current_device():
    return _tensor._current_index[0]


class _DeviceProperties:
    def __init__(self, index):
        self.name = _runtime.soc_name()
        self.cube_core_num = _runtime.cube_core_count()
        self.vector_core_num = _runtime.vector_core_count()
        self.index = index
        self.simulated = True

    def __repr__(self):
        return (f"_NPUDeviceProperties(name='{self.name}', cube_core_num={self.cube_core_num}, "
                f"vector_core_num={self.vector_core_num}, simulated=True)")


def get_device_properties(device=None):
    idx = _index(device)
    n = device_count()
    if not 0 <= idx < n:
        raise AssertionError(f"Invalid device id {idx}; the simulator has {n} device(s)")
    return _DeviceProperties(idx)


def get_device_name(device=None):
    return get_device_properties(device).name


def get_soc_version():
    return _runtime.soc_name()


# --- streams -------------------------------------------------------------------

_streams = weakref.WeakSet()


class Stream:
    """A ptosim stream. ``npu_stream`` is the aclrtStream handle as an int and
    ``_as_parameter_`` the same handle for ctypes calls."""

    def __init__(self, device=None, priority=0, _handle=None, **kwargs):
        self.device_index = _index(device)
        self.priority = priority
        self._owned = _handle is None
        self.npu_stream = _runtime.create_stream() if _handle is None else _handle
        if self._owned:
            _streams.add(self)

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self.npu_stream)

    @property
    def device(self):
        return _tensor.NpuDevice(self.device_index)

    def synchronize(self):
        _runtime.synchronize(self.npu_stream, "torch.npu.Stream.synchronize()")

    def query(self):
        # ptosim's synchronize is the only completion query; it also reports failures.
        self.synchronize()
        return True

    def wait_stream(self, stream):
        stream.synchronize()

    def wait_event(self, event):
        event.synchronize()

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def __eq__(self, other):
        return isinstance(other, Stream) and other.npu_stream == self.npu_stream

    def __hash__(self):
        return hash(self.npu_stream)

    def __repr__(self):
        return f"<torch_npu.npu.Stream device=npu:{self.device_index} npu_stream={self.npu_stream:#x}>"

    def __del__(self):
        if getattr(self, "_owned", False):
            try:
                _runtime.destroy_stream(self.npu_stream)
            except Exception:
                pass


_local = threading.local()
_default = {}


def default_stream(device=None):
    idx = _index(device)
    if idx not in _default:
        _default[idx] = Stream(idx, _handle=_runtime.default_stream())
    return _default[idx]


def current_stream(device=None):
    s = getattr(_local, "stream", None)
    return s if s is not None else default_stream(device)


def _select(s):
    # Kept in libptosim too, per thread, so C++ extensions see the same stream.
    _local.stream = s
    _runtime.set_current_stream(s.npu_stream if s is not None else None)


def set_stream(stream):
    _select(stream)


@contextlib.contextmanager
def stream(s):
    prev = getattr(_local, "stream", None)
    _select(s)
    try:
        yield s
    finally:
        _select(prev)


def synchronize(device=None):
    """Waits for every stream of the simulated device (torch.npu streams and
    streams the program made through ACL); raises TimeoutError ("possible sync
    deadlock") after PTO_SYNC_TIMEOUT_S (60 s) per stream and RuntimeError
    with ptosim's report when a kernel failed."""
    _runtime.synchronize_all("torch.npu.synchronize()")


def _host_operator_wait(name):
    # Stream order of host operators on npu tensors (docs/torch_npu.md, "Stream order").
    # Inside a graph capture the capturing stream runs nothing; the capture's
    # own rules (_tensor._capture_check, _run_host) then decide the operator.
    _runtime.synchronize_all(f"torch_npu: '{name}' on an npu tensor waited for the kernels queued before it",
                             capturing_ok=True)


_tensor._wait_hook[0] = _host_operator_wait


# --- events --------------------------------------------------------------------

_warned = []


class Event:
    """Timing events on ptosim's simulated device clock. Creating a timing
    event turns ptosim's cost model on (docs/cost-model.md); record() waits for
    the stream and reads the simulated clock (the latest end of the process's
    timed work so far, docs/semantics.md "Simulated time of streams"), so
    elapsed_time() is **simulated** NPU time in
    ms: the model's estimate, not a measurement (``time_source ==
    "simulated"``)."""

    time_source = "simulated"

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.enable_timing = enable_timing
        self._time = None
        if enable_timing:
            _runtime.enable_timing()

    def record(self, stream=None):
        (stream or current_stream()).synchronize()
        self._time = _runtime.simulated_time_us()

    def synchronize(self):
        pass  # record() already waited

    def query(self):
        return self._time is not None

    def wait(self, stream=None):
        pass

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        if not _warned:
            _warned.append(True)
            print("torch_npu (ptosim): Event.elapsed_time() is simulated NPU time from ptosim's cost model "
                  "(docs/cost-model.md), an estimate, not a measurement on an NPU", file=sys.stderr)
        return (end_event._time - self._time) / 1e3


# --- memory and random -----------------------------------------------------------

def memory_allocated(device=None):
    return _tensor.memory_allocated()


def empty_cache():
    pass


def manual_seed(seed):
    import torch
    torch.manual_seed(seed)


manual_seed_all = manual_seed


# --- graphs ----------------------------------------------------------------------

class NPUGraph:
    """A captured sequence of kernel launches, replayed with one call: ACL's
    aclmdlRICaptureBegin/End and aclmdlRIExecuteAsync on ptosim (docs/acl.md,
    "ACL graphs"; docs/torch_npu.md, "Graphs"). Kernels launched on the
    capturing stream (ctypes or pybind, on torch.npu.current_stream()) are
    recorded, not run; replay() runs them again, in order, on the current
    stream. npu tensors allocated during the capture live as long as the graph
    (torch's private graph pool). Torch operators on npu tensors are computed
    on the host by this simulation, so a capture refuses them."""

    def __init__(self):
        self._model = None
        self._stream = None
        self._keep = []

    def capture_begin(self, pool=None, capture_error_mode="global"):
        if capture_error_mode not in _runtime.CAPTURE_MODES:
            raise ValueError(f"capture_error_mode={capture_error_mode!r}: use 'global', 'thread_local' or 'relaxed'")
        if self._model is not None:
            raise RuntimeError("NPUGraph.capture_begin: this graph already holds a capture; call reset() first")
        if _tensor._capturing[0] is not None:
            raise RuntimeError("NPUGraph.capture_begin: another NPUGraph is capturing; end it first")
        stream = current_stream()
        if stream.npu_stream == _runtime.default_stream():
            raise RuntimeError("NPUGraph.capture_begin: the current stream is the default stream, which cannot be "
                               "captured (ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT); capture on a torch.npu.Stream(), as "
                               "torch.npu.graph(...) does")
        _runtime.capture_begin(stream.npu_stream, capture_error_mode)
        self._stream = stream
        _tensor._capturing[0] = self

    def capture_end(self):
        if self._stream is None:
            raise RuntimeError("NPUGraph.capture_end: capture_begin was not called")
        stream, self._stream = self._stream, None
        _tensor._capturing[0] = None
        self._model = _runtime.capture_end(stream.npu_stream)

    def replay(self):
        if self._model is None:
            raise RuntimeError("NPUGraph.replay: nothing captured (capture with torch.npu.graph(g) first, or the "
                               "graph was reset)")
        _runtime.model_execute(self._model, current_stream().npu_stream)

    def reset(self):
        if self._model is not None:
            _runtime.model_destroy(self._model)
            self._model = None
        self._keep = []

    def pool(self):
        return (id(self),)

    def debug_dump(self, path=None):
        """Prints the captured tasks (aclmdlRIDebugPrint) on stdout."""
        if self._model is None:
            raise RuntimeError("NPUGraph.debug_dump: nothing captured")
        sys.stdout.flush()
        _runtime.model_debug_print(self._model)

    def __del__(self):
        try:
            if self._model is not None:
                synchronize()
                self.reset()
        except Exception:
            pass


def graph_pool_handle():
    return (0,)


def is_current_stream_capturing():
    return _runtime.capture_status(current_stream().npu_stream) != 0


class graph:
    """``with torch.npu.graph(g):`` captures the block's kernel launches into
    g on a side stream (the default stream cannot be captured), after waiting
    for the device, as torch.cuda.graph does."""

    default_capture_stream = None

    def __init__(self, npu_graph, pool=None, stream=None, capture_error_mode="global"):
        if stream is None:
            if graph.default_capture_stream is None:
                graph.default_capture_stream = Stream()
            stream = graph.default_capture_stream
        self.npu_graph = npu_graph
        self.pool = pool
        self.capture_stream = stream
        self.capture_error_mode = capture_error_mode
        self._ctx = None

    def __enter__(self):
        synchronize()
        self._ctx = stream(self.capture_stream)
        self._ctx.__enter__()
        try:
            self.npu_graph.capture_begin(self.pool, capture_error_mode=self.capture_error_mode)
        except BaseException:
            self._ctx.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            self.npu_graph.capture_end()
        except RuntimeError:
            if exc_type is None:
                raise
            # The block's own exception says more than the capture it cut short.
        finally:
            self._ctx.__exit__(None, None, None)
        return False
