"""Device selection, device tensors, streams and synchronisation.

The simulator (ptosim) is the default device. When torch_npu is importable and
reports an NPU, the NPU is used instead, through torch-npu's own API, unless
PTOLAB_DEVICE=sim asks for the simulator. Either way the calls below look the
same to a runner, so the seed's ctypes pattern

    lib.call_add(block_dim, stream_ptr(), tensor_ptr(y), tensor_ptr(x1), ...)

works unchanged on both.
"""
import ctypes
import os
import threading
import weakref

import numpy as np

from . import _core, _env

# Dtypes NumPy cannot hold natively travel as raw bits of this NumPy dtype.
_STORAGE = {"bfloat16": np.uint16}


_device = None
_device_lock = threading.Lock()


def _torch_npu():
    """torch and torch_npu when both import and an NPU is visible, else None."""
    try:
        import torch
        import torch_npu  # noqa: F401  (registers torch.npu)
    except Exception:
        return None
    if getattr(torch_npu, "__ptolab_simulated__", False):
        # ptolab's simulated torch_npu runs on ptosim, which this package drives directly.
        return None
    try:
        if not torch.npu.is_available():
            return None
    except Exception:
        return None
    return torch


def _choose_backend(environ, find_torch_npu):
    """The backend the environment asks for, set up: PTOLAB_DEVICE=sim always
    gives the simulator; PTOLAB_DEVICE=npu needs torch_npu with a visible NPU;
    unset, the NPU when find_torch_npu() returns torch, else the simulator.
    On an NPU, NPU_DEVICE (npu:N or N, default npu:0) picks the device."""
    choice = environ.get("PTOLAB_DEVICE", "").strip().lower()
    if choice not in ("", "sim", "npu"):
        raise ValueError(f"PTOLAB_DEVICE={choice!r} is not 'sim' or 'npu'; unset it to choose automatically")
    torch = None if choice == "sim" else find_torch_npu()
    if torch is None:
        if choice == "npu":
            raise RuntimeError("PTOLAB_DEVICE=npu but torch_npu is not importable or reports no NPU; "
                               "source CANN's setenv script and install torch_npu, or unset PTOLAB_DEVICE")
        return _Simulator()
    spec = environ.get("NPU_DEVICE", "npu:0")
    try:
        index = int(spec.split(":", 1)[1]) if ":" in spec else int(spec)
    except ValueError:
        raise ValueError(f"NPU_DEVICE={spec!r} is not npu:N or N; pick an idle device from npu-smi info") from None
    torch.npu.set_device(index)
    return _Npu(torch, index)


def get_device():
    """The device runners use: the simulator unless an NPU is available (NPU_DEVICE picks which).
    Chosen once; one object per backend (_Simulator, _Npu) answers every device-dependent call below."""
    global _device
    with _device_lock:
        if _device is None:
            _device = _choose_backend(os.environ, _torch_npu)
        return _device


def _reset_device_for_tests():
    global _device
    with _device_lock:
        _device = None


def is_simulator_mode():
    """True under the simulator, or when PTO_SIMULATOR=1 says a CA model runs the kernels."""
    return get_device().is_simulated()


def soc_name():
    return get_device().soc_name()


def soc_profile():
    """The simulated SoC's figures (name, cores, clock_ghz, gm_gbps, cube_fp16_tflops, vector_gbps) from ptosim's
    profile and cost model (docs/soc-profiles.md); None on an NPU, whose figures ptolab does not know."""
    return get_device().soc_profile()


def cube_core_count():
    return get_device().cube_core_count()


def vector_core_count():
    return get_device().vector_core_count()


def device_repeats():
    """PTO_DEVICE_REPEATS, else 1 in the simulator (deterministic, slow) and 5 on a device."""
    n = _env.positive_int("PTO_DEVICE_REPEATS")
    return n if n is not None else get_device().default_repeats()


def run_repeated(fn, repeats=None, sync=True, timeout=None):
    """Calls fn() `repeats` times (device_repeats() by default), synchronising after
    each call so a sync bug surfaces in the repeat that caused it; returns the last result."""
    n = device_repeats() if repeats is None else int(repeats)
    if n < 1:
        raise ValueError(f"repeats={repeats!r} must be at least 1")
    result = None
    for _ in range(n):
        result = fn()
        if sync:
            synchronize(timeout)
    return result


# --- tensors ----------------------------------------------------------------

def _dtype_name(dtype):
    if isinstance(dtype, str):
        name = _core.canonical_dtype(dtype)
        if name is None:
            raise ValueError(f"unknown dtype {dtype!r}; use float16, bfloat16, float32, float64 or an integer type")
        return name
    mod = type(dtype).__module__
    if mod.startswith("torch"):
        return _dtype_name(str(dtype))
    return _dtype_name(np.dtype(dtype).name)


class Tensor:
    """A C-contiguous array in host memory registered with ptosim as device
    memory, so kernels are bounds-checked against it. Pass it anywhere a
    pointer is expected: it has ctypes' _as_parameter_."""

    _ALIGN = 512  # what aclrtMalloc guarantees and kernels may assume

    def __init__(self, array, dtype_name, owner=None):
        self._array = array
        self.dtype = dtype_name
        self._owner = owner  # keeps a wrapped torch tensor alive
        _core.register_memory(array)
        self._finalizer = weakref.finalize(self, _core.unregister_memory, array)

    @classmethod
    def _allocate(cls, shape, dtype):
        name = _dtype_name(dtype)
        storage = np.dtype(_STORAGE.get(name, name))
        shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        nbytes = max(count * storage.itemsize, 1)
        raw = np.empty(nbytes + cls._ALIGN, dtype=np.uint8)
        offset = (-raw.ctypes.data) % cls._ALIGN
        array = raw[offset:offset + count * storage.itemsize].view(storage).reshape(shape)
        if count == 0:
            # A zero-size tensor still needs a registrable byte.
            t = cls.__new__(cls)
            t._array, t.dtype, t._owner = array, name, None
            t._finalizer = None
            return t
        return cls(array, name)

    @property
    def shape(self):
        return self._array.shape

    @property
    def nbytes(self):
        return self._array.nbytes

    def numel(self):
        return self._array.size

    def data_ptr(self):
        return self._array.ctypes.data

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self.data_ptr())

    def numpy(self):
        """The tensor's memory as a NumPy array (a view, not a copy); bfloat16 as uint16 bits."""
        return self._array

    def float32(self):
        """A float32 copy of the values (decodes bfloat16)."""
        if self.dtype == "bfloat16":
            return _core.bf16_to_float32(self._array)
        return self._array.astype(np.float32)

    def copy_(self, src):
        src = np.asarray(src)
        if src.shape != self.shape:
            raise ValueError(f"copy_: source shape {src.shape} differs from the tensor's {self.shape}")
        self._array[...] = _encode(src, self.dtype)
        return self

    def __repr__(self):
        return f"ptolab.Tensor(shape={self.shape}, dtype={self.dtype}, device=sim)"


def _encode(values, name):
    if name == "bfloat16" and values.dtype != np.uint16:
        return _core.bf16_from_float32(np.asarray(values, dtype=np.float32))
    return values


def empty(shape, dtype="float32"):
    return get_device().empty(shape, dtype)


def zeros(shape, dtype="float32"):
    return get_device().zeros(shape, dtype)


def from_numpy(array, dtype=None):
    """A device tensor holding a copy of `array`. dtype='bfloat16' converts
    float values to bfloat16 (round to nearest even) or takes uint16 as bits."""
    array = np.asarray(array)
    name = _dtype_name(dtype if dtype is not None else array.dtype)
    return get_device().from_numpy(array, name)


def _torch_dtype(dtype):
    import torch
    return getattr(torch, _dtype_name(dtype))


def _is_torch(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "data_ptr")


def from_torch(tensor):
    """A device tensor sharing a torch CPU tensor's memory (registered with ptosim)."""
    if tensor.device.type != "cpu":
        raise ValueError(f"from_torch: tensor is on {tensor.device}; the simulator needs tensor.cpu()")
    if not tensor.is_contiguous():
        raise ValueError("from_torch: tensor is not contiguous; pass tensor.contiguous()")
    return Tensor(_torch_array(tensor), _dtype_name(str(tensor.dtype)), owner=tensor)


def _torch_array(tensor):
    """A torch CPU tensor's memory as a NumPy array (bfloat16 as uint16 bits)."""
    if _dtype_name(str(tensor.dtype)) == "bfloat16":
        import torch
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


# Host buffers tensor_ptr handed out, registered with ptosim while they live:
# a kernel's access to memory in no registered block is a fault, as host
# memory is on the device (docs/semantics.md, "Faults and reports").
_registered_hosts = set()


def _release_host(address):
    _registered_hosts.discard(address)
    _core.unregister_memory(np.frombuffer((ctypes.c_uint8 * 1).from_address(address), np.uint8))


def _keep_registered(owner, array):
    address = array.ctypes.data
    if array.nbytes == 0 or address in _registered_hosts:
        return
    try:
        _core.register_memory(array)
    except Exception:
        return  # it overlaps registered memory: a view of a ptolab tensor, reachable already
    _registered_hosts.add(address)
    weakref.finalize(owner, _release_host, address)


def tensor_ptr(x):
    """ctypes pointer to a tensor's data: ptolab tensors, NumPy arrays, torch tensors (CPU or NPU).
    A NumPy array or torch CPU tensor is registered with the simulator for as long as it lives."""
    if isinstance(x, Tensor):
        return x._as_parameter_
    if _is_torch(x):
        if x.device.type == "cpu" and x.is_contiguous():
            _keep_registered(x, _torch_array(x))
        return ctypes.c_void_p(x.data_ptr())
    if isinstance(x, np.ndarray):
        if not x.flags.c_contiguous:
            raise ValueError("tensor_ptr: NumPy array is not C-contiguous; pass numpy.ascontiguousarray(a)")
        _keep_registered(x, x)
        return ctypes.c_void_p(x.ctypes.data)
    raise TypeError(f"tensor_ptr: expected a ptolab tensor, NumPy array or torch tensor, got {type(x).__name__}")


# --- streams ----------------------------------------------------------------

class Stream:
    """A simulator stream. `_as_parameter_` is the aclrtStream handle, so the
    stream (or stream_ptr()) can be passed straight to a ctypes kernel call."""

    def __init__(self, handle):
        self._handle = handle

    @property
    def _as_parameter_(self):
        return self._handle._as_parameter_

    def synchronize(self, timeout=None):
        synchronize(timeout, stream=self)

    def __repr__(self):
        return f"ptolab.Stream({'default' if self._handle.is_default else 'created'})"


def current_stream():
    """The stream launches go to: torch.npu.current_stream() on an NPU, else the simulator's default stream."""
    return get_device().current_stream()


def stream_ptr():
    """current_stream()._as_parameter_. Cache it outside timing loops: querying it has a cost on a device."""
    return current_stream()._as_parameter_


def sync_timeout():
    """PTO_SYNC_TIMEOUT_S, default 60 s."""
    return _env.positive_seconds("PTO_SYNC_TIMEOUT_S", 60)


# --- events -----------------------------------------------------------------

class Event:
    """torch.npu.Event-style timing. On an NPU it wraps torch.npu.Event (device
    time). On the simulator, creating a timing event turns ptosim's cost model
    on (docs/cost-model.md) and record() waits for the stream and reads the
    simulated device clock (the summed simulated time of the process's timed
    launches), so elapsed_time() is **simulated** device time in ms, from the
    model, not a measurement; `time_source` says which clock it is."""

    def __init__(self, enable_timing=False):
        dev = get_device()
        self.enable_timing = enable_timing
        self.time_source = dev.time_source
        self._impl = dev.event(enable_timing)

    def record(self, stream=None):
        self._impl.record(stream)

    def synchronize(self):
        self._impl.synchronize()

    def elapsed_time(self, end_event):
        """Milliseconds from this event to end_event."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        return self._impl.elapsed_time(end_event._impl)


def last_launch_time_us():
    """Simulated time of the last completed timed launch (us), None when none or on an NPU."""
    return get_device().last_launch_time_us()


class KernelError(RuntimeError):
    """A launch failed (fault, deadlock report, bad launch); the message is the simulator's report."""


_SYNC_TIMEOUT_CODE = 507046


def synchronize(timeout=None, stream=None):
    """Waits for queued kernels. Raises TimeoutError ("possible sync deadlock")
    after `timeout` seconds (PTO_SYNC_TIMEOUT_S, default 60) and KernelError
    when a kernel failed."""
    limit = sync_timeout() if timeout is None else float(timeout)
    if not limit > 0:
        raise ValueError(f"synchronize: timeout={timeout!r} must be a positive number of seconds")
    source = "timeout argument" if timeout is not None else "PTO_SYNC_TIMEOUT_S"
    get_device().synchronize(limit, source, stream)


# --- the backends -----------------------------------------------------------
# Both answer the same calls; get_device() picks one and nothing else asks
# which it is.

class _Simulator:
    """ptosim in this process: tensors are registered host memory, streams are ptosim's."""
    kind = "sim"
    index = 0
    # Events read ptosim's simulated device clock (docs/cost-model.md).
    time_source = "simulated"

    def __init__(self):
        self._stream = None

    def __repr__(self):
        return "ptolab device sim:0"

    def is_simulated(self):
        return True

    def default_repeats(self):
        return 1  # deterministic, and slow

    def soc_name(self):
        return _core.soc_name()

    def soc_profile(self):
        return dict(_core.soc_profile())

    def cube_core_count(self):
        return _core.cube_core_count()

    def vector_core_count(self):
        return _core.vector_core_count()

    def last_launch_time_us(self):
        t = _core.last_launch_time_us()
        return t if t >= 0 else None

    def event(self, enable_timing):
        return _SimEvent(enable_timing)

    def empty(self, shape, dtype):
        return Tensor._allocate(shape, dtype)

    def zeros(self, shape, dtype):
        t = Tensor._allocate(shape, dtype)
        t._array[...] = 0
        return t

    def from_numpy(self, array, name):
        t = Tensor._allocate(array.shape, name)
        if name == "bfloat16":
            t._array[...] = _encode(array, name)
        else:
            t._array[...] = array.astype(t._array.dtype, copy=False)
        return t

    def current_stream(self):
        if self._stream is None:
            self._stream = Stream(_core.default_stream())
        return self._stream

    def synchronize(self, limit, source, stream):
        s = stream if stream is not None else self.current_stream()
        code, message = _core.synchronize(s._handle if isinstance(s, Stream) else s, limit)
        if code == _SYNC_TIMEOUT_CODE:
            raise TimeoutError(f"possible sync deadlock: the stream did not finish within {limit:g} s ({source}); "
                               f"check set_flag/wait_flag pairs and pipe_barrier, or raise PTO_SYNC_TIMEOUT_S. {message}")
        if code != 0:
            raise KernelError(message)


class _SimEvent:
    """A timing event on ptosim: creating one turns the cost model on; record()
    waits for the stream and reads the simulated device clock."""

    def __init__(self, enable_timing):
        self._time = None
        if enable_timing:
            _core.enable_timing(True)

    def record(self, stream):
        synchronize(stream=stream)
        self._time = _core.simulated_time_us()

    def synchronize(self):
        pass  # record() already waited

    def elapsed_time(self, end):
        if self._time is None or end._time is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end._time - self._time) / 1e3


class _Npu:
    """An Ascend NPU through torch_npu: tensors are torch NPU tensors, streams torch.npu's."""
    kind = "npu"
    time_source = "device"

    def __init__(self, torch, index):
        self._torch = torch
        self.index = index

    def __repr__(self):
        return f"ptolab device npu:{self.index}"

    def is_simulated(self):
        # torch_npu in front of CANN's CA model rather than a chip.
        return _env.flag("PTO_SIMULATOR")

    def default_repeats(self):
        return 1 if self.is_simulated() else 5

    def _props(self):
        return self._torch.npu.get_device_properties(self._torch.npu.current_device())

    def soc_name(self):
        return self._props().name

    def soc_profile(self):
        return None  # ptolab knows no NPU's peak figures

    def cube_core_count(self):
        return int(self._props().cube_core_num)

    def vector_core_count(self):
        return int(self._props().vector_core_num)

    def last_launch_time_us(self):
        return None

    def event(self, enable_timing):
        return _NpuEvent(self._torch.npu.Event(enable_timing=enable_timing))

    def empty(self, shape, dtype):
        return self._torch.empty(shape, dtype=_torch_dtype(dtype), device=f"npu:{self.index}")

    def zeros(self, shape, dtype):
        return self._torch.zeros(shape, dtype=_torch_dtype(dtype), device=f"npu:{self.index}")

    def from_numpy(self, array, name):
        torch = self._torch
        src = array if name != "bfloat16" else _encode(array, name).view(np.int16)
        t = torch.from_numpy(np.ascontiguousarray(src))
        if name == "bfloat16":
            t = t.view(torch.bfloat16)
        return t.to(f"npu:{self.index}")

    def current_stream(self):
        return self._torch.npu.current_stream()

    def synchronize(self, limit, source, stream):
        done = threading.Event()
        failure = []

        def wait():
            try:
                self._torch.npu.synchronize()
            except BaseException as e:  # re-raised on the caller's thread
                failure.append(e)
            finally:
                done.set()

        # torch.npu.synchronize() cannot be interrupted; the waiter is abandoned on
        # timeout and the whole-process timeout (ptolab run) ends the process.
        threading.Thread(target=wait, name="ptolab-npu-sync", daemon=True).start()
        if not done.wait(limit):
            raise TimeoutError(f"possible sync deadlock: torch.npu.synchronize() did not return within {limit:g} s "
                               f"({source}); treat the NPU as suspect, or raise PTO_SYNC_TIMEOUT_S")
        if failure:
            raise failure[0]


class _NpuEvent:
    """torch.npu.Event: device time."""

    def __init__(self, event):
        self._event = event

    def record(self, stream):
        self._event.record(stream) if stream is not None else self._event.record()

    def synchronize(self):
        self._event.synchronize()

    def elapsed_time(self, end):
        return self._event.elapsed_time(end._event)


def synchronize_device(timeout=None):
    """The seed's pto_demo_utils name for synchronize()."""
    synchronize(timeout)
