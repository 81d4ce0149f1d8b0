"""npu tensors on torch releases without a usable custom-device route.

torch 1.13 rejects the device string "npu" and has no
rename_privateuse1_backend. The interception here is the narrowest that
covers what runners do:

- ``NpuTensor``, a ``torch.Tensor`` subclass whose data is a CPU-typed tensor
  over ptosim device memory (an ``aclrtMalloc`` block). ``data_ptr()`` is the
  device address, so ctypes and pybind (``at::Tensor``) launches pass it
  unchanged; ``.device`` reports ``npu:N``.
- ``NpuMode``, a ``TorchFunctionMode`` pushed once on import, that turns
  ``device="npu"``/``"npu:N"`` arguments and ``.to("npu")`` into such
  tensors. Modes are per thread in torch 1.13: threads that ``threading``
  starts after the import get the mode for their run (``patch_threads``);
  others call ``torch_npu.ensure_thread()`` (operators on existing npu
  tensors work on every thread, through the subclass).

Operators on npu tensors run on the host, on the same memory, as references:
fp16/bf16 matmuls and reductions accumulate in float32 and round once to the
result dtype, as the NPU's cube and vector units do. They are never the
kernels under test.
"""
import ctypes
import re
import threading
import weakref

import torch
from torch.overrides import TorchFunctionMode, _pop_mode

from . import _runtime

_LOW = (torch.float16, torch.bfloat16)
_DEVICE_RE = re.compile(r"^npu(?::(\d+))?$")
_current_index = [0]

# Host references that accumulate: computed on float32 copies of fp16/bf16
# inputs and rounded once to the result dtype.
_ACCUMULATING = {
    "matmul", "mm", "bmm", "mv", "dot", "vdot", "inner", "outer", "addmm", "addmv", "addbmm", "baddbmm", "addr",
    "einsum", "tensordot", "linear", "__matmul__", "__rmatmul__", "chain_matmul", "kron",
    "sum", "nansum", "mean", "nanmean", "prod", "cumsum", "cumprod", "softmax", "log_softmax", "logsumexp", "norm",
    "var", "std", "var_mean", "std_mean", "layer_norm", "group_norm", "rms_norm", "conv1d", "conv2d", "conv3d",
    "scaled_dot_product_attention", "cross_entropy", "mse_loss",
}
# What reads only a tensor's metadata, never its elements: no stream wait.
_METADATA = {
    "device", "is_cuda", "is_npu", "data_ptr", "dim", "ndim", "ndimension", "size", "shape", "dtype", "numel",
    "nelement", "element_size", "itemsize", "nbytes", "stride", "storage_offset", "is_contiguous", "requires_grad",
    "requires_grad_", "__len__", "is_floating_point", "is_complex", "is_signed", "layout", "names", "get_device",
    "is_sparse", "is_quantized", "is_meta", "is_mkldnn", "is_leaf", "grad", "grad_fn", "_base", "output_nr",
    "_version", "record_stream", "__hash__", "__reduce_ex__",
}
# Operators whose tensor arguments may sit on different devices (copies).
_CROSS_DEVICE = {"copy_", "__setitem__", "__getitem__", "to", "cpu", "npu", "new_tensor", "set_", "type_as"}


class NpuDevice(str):
    """What ``tensor.device`` returns for an npu tensor: the string "npu:N"
    with ``.type == "npu"`` and ``.index``, printing as torch.device does.

    torch 1.13 cannot construct a ``torch.device`` of type "npu" (and
    ``torch.device`` cannot be subclassed), but its argument parser takes any
    ``str`` where it takes a device and resolves it only after the function
    mode has seen the call. Being a ``str``, an NpuDevice passes wherever torch
    takes a device (``torch.arange(n, device=x.device)``, ``.to(x.device)``,
    ``torch.empty(..., device=x.device)``), and ``NpuMode`` turns it into an npu
    tensor. It compares equal to "npu", "npu:N", ``torch.device("npu:N")`` and
    other NpuDevice objects of the same index."""

    def __new__(cls, index=0):
        self = super().__new__(cls, f"npu:{int(index)}")
        self._index = int(index)
        return self

    @property
    def type(self):
        return "npu"

    @property
    def index(self):
        return self._index

    def __str__(self):
        return f"npu:{self._index}"

    def __repr__(self):
        return f"device(type='npu', index={self._index})"

    def __eq__(self, other):
        if isinstance(other, NpuDevice):
            return other._index == self._index
        if isinstance(other, str):
            try:
                idx = parse_device(other)
            except RuntimeError:
                return False
            return idx is not None and idx == self._index
        if isinstance(other, RealDevice) and other.type == "privateuseone":
            return (_current_index[0] if other.index is None else other.index) == self._index
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("npu", self._index))

    def __reduce__(self):
        return (NpuDevice, (self._index,))


RealDevice = torch.device


class _DeviceMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, (RealDevice, NpuDevice))

    def __subclasscheck__(cls, sub):
        return issubclass(sub, (RealDevice, NpuDevice))


class device(metaclass=_DeviceMeta):
    """``torch.device`` while the simulated torch_npu is loaded: "npu",
    "npu:N", ("npu", N) and an NpuDevice give an NpuDevice; everything else
    is torch's own ``torch.device`` (the same object type as before)."""

    def __new__(cls, *args, **kwargs):
        spec = args[0] if args else kwargs.get("type")
        if isinstance(spec, NpuDevice):
            return spec
        if isinstance(spec, str) and spec.strip().split(":")[0] == "npu":
            idx = parse_device(spec)
            extra = args[1] if len(args) > 1 else kwargs.get("index")
            if extra is not None:
                if ":" in spec:
                    raise RuntimeError(f"type (string) must not include an index because index was passed "
                                       f"explicitly: {spec}")
                idx = int(extra)
            return NpuDevice(idx)
        return RealDevice(*args, **kwargs)


device.__module__ = "torch"
device.__qualname__ = device.__name__ = "device"


def _reduce_real_device(d):
    # pickle finds torch.device by name: it must name this replacement now.
    return (device, (d.type,) if d.index is None else (d.type, d.index))


def patch_device_type():
    """Replaces ``torch.device`` by ``device`` above (docs/torch_npu.md, "npu devices")."""
    import copyreg

    if torch.device is not device:
        copyreg.pickle(RealDevice, _reduce_real_device)
        torch.device = device


def parse_device(device):
    """The npu index a device argument names, or None when it is not an npu device."""
    if isinstance(device, NpuDevice):
        return device.index
    if isinstance(device, str):
        m = _DEVICE_RE.match(device.strip())
        if m:
            return _current_index[0] if m.group(1) is None else int(m.group(1))
        if device.strip().startswith("npu"):
            raise RuntimeError(f"Invalid device string: '{device}'; use 'npu' or 'npu:N'")
        return None
    if isinstance(device, RealDevice) and device.type == "privateuseone":
        return _current_index[0] if device.index is None else device.index
    return None


# --- device memory ------------------------------------------------------------

class _Block:
    """One aclrtMalloc block, freed when the last tensor over it goes away."""

    __slots__ = ("ptr", "nbytes", "__weakref__")


_allocated = [0]

# The NPUGraph capturing now, if any (torch.npu.graph): device memory
# allocated during its capture stays alive with it, as in torch's private
# graph memory pool, and host-computed operators are refused (_capture_check).
_capturing = [None]


def _device_buffer(nbytes):
    ptr = _runtime.malloc(nbytes)
    buf = (ctypes.c_uint8 * nbytes).from_address(ptr)
    _allocated[0] += nbytes
    if _capturing[0] is not None:
        _capturing[0]._keep.append(buf)

    def release(p=ptr, n=nbytes):
        _allocated[0] -= n
        _runtime.free(p)

    # torch.frombuffer keeps `buf` alive for as long as any view of the storage.
    f = weakref.finalize(buf, release)
    f.atexit = False  # the simulator may be gone at interpreter exit
    return buf


def memory_allocated():
    return _allocated[0]


def empty_npu(shape, dtype, index=None):
    """A contiguous npu tensor over a fresh aclrtMalloc block (zero-filled, as ptosim's fresh device memory is)."""
    shape = tuple(int(s) for s in shape)
    numel = 1
    for s in shape:
        numel *= s
    itemsize = torch.empty((), dtype=dtype).element_size()
    nbytes = numel * itemsize
    if nbytes == 0:
        base = torch.empty(shape, dtype=dtype)
    else:
        buf = _device_buffer(nbytes)
        base = torch.frombuffer(buf, dtype=dtype, count=numel).view(shape)
    return _wrap(base, _current_index[0] if index is None else index)


def _wrap(base, index):
    t = torch.Tensor._make_subclass(NpuTensor, base, base.requires_grad)
    t._npu_index = index
    return t


def to_npu(cpu, index=None, dtype=None, allocation=False):
    """A device copy of a CPU tensor (the host-to-device copy of .to("npu")).
    `allocation`: the copy of a fresh factory result (torch.empty), allowed while capturing."""
    if _capturing[0] is not None and not allocation:
        raise _capture_refusal("to('npu')")
    if dtype is not None and cpu.dtype != dtype:
        cpu = cpu.to(dtype)
    out = empty_npu(cpu.shape, cpu.dtype, index)
    if cpu.numel():
        with torch._C.DisableTorchFunction():
            _plain(out).copy_(cpu)
        _host_wrote([out])
    return out


def _host_wrote(tensors):
    """Tells initcheck which device memory a host-side operation may have
    written: the whole storage of each npu tensor it was given or returned
    (in place, out=, or a view), as aclrtMemcpy into it would."""
    seen = set()
    for t in tensors:
        if not is_npu(t):
            continue
        with torch._C.DisableTorchFunction():
            storage = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
            ptr, nbytes = storage.data_ptr(), storage.nbytes()
        if nbytes and ptr not in seen:
            seen.add(ptr)
            _runtime.host_wrote(ptr, nbytes)


def _plain(t):
    """The CPU-typed tensor over an npu tensor's device memory (same storage)."""
    with torch._C.DisableTorchFunction():
        return torch.Tensor.as_subclass(t, torch.Tensor)


def is_npu(t):
    return isinstance(t, NpuTensor)


# --- operator handling ----------------------------------------------------------

def _name(func):
    name = getattr(func, "__name__", "")
    if name == "__get__":
        owner = getattr(func, "__self__", None)
        name = getattr(owner, "__name__", name)
    return name


def _walk(obj, fn):
    if isinstance(obj, (list, tuple)):
        return type(obj)(_walk(o, fn) for o in obj) if not hasattr(obj, "_fields") else type(obj)(
            *(_walk(o, fn) for o in obj))
    if isinstance(obj, dict):
        return {k: _walk(v, fn) for k, v in obj.items()}
    return fn(obj)


def _tensors(obj, out):
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _tensors(o, out)
    elif isinstance(obj, dict):
        for o in obj.values():
            _tensors(o, out)
    return out


def _storage_ptr(t):
    try:
        with torch._C.DisableTorchFunction():
            return t.storage().data_ptr()
    except Exception:
        return None


def _check_same_device(name, tensors):
    npu = [t for t in tensors if is_npu(t)]
    cpu = [t for t in tensors if not is_npu(t) and t.dim() > 0]
    indices = {t._npu_index for t in npu}
    if len(indices) > 1:
        a, b = sorted(indices)[:2]
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                           f"npu:{a} and npu:{b}! (when checking argument for {name})")
    if npu and cpu:
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                           f"npu:{npu[0]._npu_index} and cpu! (when checking argument for {name}); move the CPU "
                           f"tensor with .npu() or the npu tensor with .cpu()")


def _target_of_to(args, kwargs):
    """(npu index or "cpu" or None, dtype or None) of a Tensor.to call."""
    device = kwargs.get("device")
    dtype = kwargs.get("dtype")
    for a in args[1:]:
        if isinstance(a, torch.dtype):
            dtype = a
        elif isinstance(a, (str, torch.device, NpuDevice)):
            device = a
        elif isinstance(a, torch.Tensor):
            device, dtype = a.device, a.dtype
    if device is None:
        return None, dtype
    idx = parse_device(device)
    if idx is not None:
        return idx, dtype
    return "cpu", dtype


def _promoted_low(tensors):
    dtype = None
    for t in tensors:
        if t.dtype.is_floating_point:
            dtype = t.dtype if dtype is None else torch.promote_types(dtype, t.dtype)
    return dtype if dtype in _LOW else None


def _accumulate(func, name, args, kwargs, plain_tensors):
    """fp16/bf16 inputs: compute on float32 copies and round once to the result dtype."""
    floats = {t.dtype for t in plain_tensors if t.dtype.is_floating_point}
    if not floats & set(_LOW):
        return None
    if name not in ("sum", "nansum", "mean", "nanmean", "prod", "cumsum", "cumprod", "softmax", "log_softmax",
                    "norm", "var", "std", "logsumexp", "var_mean", "std_mean") and len(floats) > 1:
        # torch's CPU and NPU kernels refuse mixed operand dtypes here too; a silent upcast would hide it.
        a, b = sorted(str(f) for f in floats)[:2]
        raise RuntimeError(f"{name}: expected both inputs to have the same dtype, but got {a} != {b}")
    low = _promoted_low(plain_tensors)
    want = kwargs.get("dtype") or low
    up = _walk(args, lambda x: x.float() if isinstance(x, torch.Tensor) and x.dtype in _LOW else x)
    kw = {k: v for k, v in kwargs.items() if k != "dtype"}
    kw = _walk(kw, lambda x: x.float() if isinstance(x, torch.Tensor) and x.dtype in _LOW else x)
    if "dtype" in kwargs and kwargs["dtype"] is not None and not kwargs["dtype"].is_floating_point:
        return None
    result = func(*up, **kw)
    return _walk(result, lambda x: x.to(want) if isinstance(x, torch.Tensor) and x.dtype == torch.float32 else x)


def _run_host(func, name, args, kwargs, index):
    npu_in = _tensors((args, kwargs), [])
    plain_args = _walk(args, lambda x: _plain(x) if is_npu(x) else x)
    plain_kwargs = _walk(kwargs, lambda x: _plain(x) if is_npu(x) else x)
    inputs = _tensors((plain_args, plain_kwargs), [])
    result = None
    if name in _ACCUMULATING:
        result = _accumulate(func, name, plain_args, plain_kwargs, inputs)
    if result is None:
        try:
            result = func(*plain_args, **plain_kwargs)
        except RuntimeError as e:
            if "not implemented for 'Half'" not in str(e) and "not implemented for 'BFloat16'" not in str(e):
                raise
            result = _accumulate(func, name, plain_args, plain_kwargs, inputs)
            if result is None:
                raise
    if index is None:
        return result
    storages = {p for p in (_storage_ptr(t) for t in npu_in if is_npu(t)) if p}

    def back(x):
        if not isinstance(x, torch.Tensor) or isinstance(x, NpuTensor):
            return x
        p = _storage_ptr(x)
        if p is not None and p in storages:
            return _wrap(x, index)  # a view or an in-place result: same device memory
        if _capturing[0] is not None:
            raise _capture_refusal(name)  # a new result computed on the host
        return to_npu(x, index)

    result = _walk(result, back)
    _host_wrote(npu_in)
    return result


# Factories that only allocate: their (zero) contents are not a computation a
# replay would have to repeat.
_CAPTURE_ALLOCATORS = {"empty", "empty_like", "empty_strided", "new_empty"}


def _capture_refusal(name):
    return RuntimeError(
        f"torch.npu.graph (ptosim): '{name}' on npu tensors cannot be captured: the simulated torch_npu runs torch "
        f"operators on the host at once, so a replay would not repeat it. Inside the capture, launch kernels "
        f"(ctypes or pybind, on torch.npu.current_stream()) and allocate with torch.empty(..., device='npu'); run "
        f"torch operators before the capture or after replay() (docs/torch_npu.md, 'Graphs')")


def _capture_check(name, kwargs, has_npu, factory):
    if _capturing[0] is None:
        return
    if factory and name not in _CAPTURE_ALLOCATORS:
        raise _capture_refusal(name)
    writes = name == "__setitem__" or "out" in kwargs or (name.endswith("_") and not name.endswith("__"))
    if has_npu and writes:
        raise _capture_refusal(name)
# Installed by torch_npu.npu: waits for every stream (ptosim_synchronize_all).
_wait_hook = [None]


def wait_for_streams(name):
    """Stream order for a host operator on npu tensors: on the device it would be
    queued on the stream behind every launch queued before it, so here it
    first waits for all of them (every stream of the device; see
    docs/torch_npu.md, "Stream order"). Its own work is done when it returns,
    so everything queued afterwards sees its result."""
    hook = _wait_hook[0]
    if hook is not None:
        hook(name)


def dispatch(func, types, args=(), kwargs=None):
    kwargs = dict(kwargs or {})
    name = _name(func)
    tensors = _tensors((args, kwargs), [])
    has_npu = any(is_npu(t) for t in tensors)
    if _capturing[0] is not None:
        device = kwargs.get("device")
        _capture_check(name, kwargs, has_npu, device is not None and parse_device(device) is not None)

    if name == "device" and args and is_npu(args[0]):
        return NpuDevice(args[0]._npu_index)
    if name == "record_stream" and args and is_npu(args[0]):
        return None  # host operators wait for every stream, so no stream needs to keep the memory
    if has_npu and name not in _METADATA:
        wait_for_streams(name)
    if name == "is_cuda" and args and is_npu(args[0]):
        return False
    if name == "numpy" and args and is_npu(args[0]):
        raise TypeError(f"can't convert npu:{args[0]._npu_index} device type tensor to numpy. Use Tensor.cpu() to "
                        f"copy the tensor to host memory first.")
    if name in ("cpu",) and args and is_npu(args[0]):
        with torch._C.DisableTorchFunction():
            return _plain(args[0]).clone(memory_format=torch.preserve_format)
    if name == "to" and args and isinstance(args[0], torch.Tensor):
        target, dtype = _target_of_to(args, kwargs)
        src = args[0]
        if target == "cpu":
            plain = _plain(src) if is_npu(src) else src
            with torch._C.DisableTorchFunction():
                out = plain.to(dtype) if dtype is not None else plain
                return out.clone() if is_npu(src) and out is plain else out
        if target is not None:
            plain = _plain(src) if is_npu(src) else src
            if is_npu(src) and src._npu_index == target and (dtype is None or dtype == src.dtype) \
                    and not kwargs.get("copy", False):
                return src
            return to_npu(plain, target, dtype)
        if not has_npu:
            return func(*args, **kwargs)
        return _run_host(func, name, args, {k: v for k, v in kwargs.items() if k != "device"}, src._npu_index) \
            if is_npu(src) else func(*args, **kwargs)

    device = kwargs.get("device")
    idx = parse_device(device) if device is not None else None
    if idx is not None:
        kwargs["device"] = "cpu"
        if not has_npu:
            with torch._C.DisableTorchFunction():
                result = func(*args, **kwargs)
            return _walk(result, lambda x: to_npu(x, idx, allocation=True) if isinstance(x, torch.Tensor) else x)
    if not has_npu:
        return func(*args, **kwargs)
    if name not in _CROSS_DEVICE:
        _check_same_device(name, tensors)
    index = next(t._npu_index for t in tensors if is_npu(t)) if idx is None else idx
    with torch._C.DisableTorchFunction():
        return _run_host(func, name, args, kwargs, index)


class NpuTensor(torch.Tensor):
    """A tensor in simulated NPU memory (see the module docstring)."""

    _npu_index = 0

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return dispatch(func, types, args, kwargs)

    def __repr__(self, *, tensor_contents=None):
        wait_for_streams("__repr__")
        with torch._C.DisableTorchFunction():
            text = repr(_plain(self))
        if text.endswith(")"):
            return text[:-1] + f", device='npu:{self._npu_index}')"
        return text

    def __reduce_ex__(self, proto):
        raise TypeError("npu tensors cannot be pickled; save tensor.cpu()")


class NpuMode(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return dispatch(func, types, args, kwargs)


_installed = threading.local()


def install_mode():
    """Pushes the mode on this thread (once)."""
    if getattr(_installed, "mode", None) is None:
        mode = NpuMode()
        mode.__enter__()
        _installed.mode = mode


def remove_modes():
    """Empties this thread's function-mode stack: the npu mode and any mode the thread's code left on it."""
    # torch 1.13 keeps the stack in a C++ thread_local holding references to
    # the mode objects. Left there, they are released by the thread's C++ exit
    # handlers after its Python state is gone, taking the GIL while the main
    # thread may already be finalising the interpreter: the process then
    # aborts ('terminate called without an active exception'). Popped here,
    # while the thread still runs Python, nothing is left for that.
    length = getattr(torch._C, "_len_torch_function_stack", None)
    if length is None:
        mode = getattr(_installed, "mode", None)
        if mode is not None:
            mode.__exit__(None, None, None)
    else:
        while length() > 0:
            _pop_mode()
    _installed.mode = None


def patch_threads():
    """Threads started by ``threading`` from now on run with the npu mode, and leave no mode behind."""
    original = threading.Thread._bootstrap_inner
    if getattr(original, "_npu_mode", False):
        return

    def _bootstrap_inner(self):
        # A daemon thread may still run when the interpreter finalises and
        # never reach the clean-up below, so it gets the mode only by asking
        # (ensure_thread). Thread.start() waits for the thread to signal that
        # it started, so nothing here may stop it from getting that far.
        if not self.daemon:
            try:
                install_mode()
            except Exception:  # noqa: BLE001 -- the thread runs without the mode, as before
                pass
        try:
            original(self)
        finally:
            remove_modes()

    _bootstrap_inner._npu_mode = True
    threading.Thread._bootstrap_inner = _bootstrap_inner


def _tensor_npu(self, device=None, non_blocking=False, **kwargs):
    idx = _current_index[0] if device is None else (device if isinstance(device, int) else parse_device(device))
    if idx is None:
        raise RuntimeError(f"Tensor.npu(): {device!r} is not an npu device")
    if is_npu(self) and self._npu_index == idx:
        return self
    if is_npu(self):
        wait_for_streams("npu")
    return to_npu(_plain(self) if is_npu(self) else self, idx)


def _tensor_is_npu(self):
    return is_npu(self)


_record_stream = torch.Tensor.record_stream


def _tensor_record_stream(self, stream):
    # torch's parser wants a torch.Stream; an npu tensor's memory needs no
    # keeping (host operators wait for every stream, aclrtFree for the
    # launches that use a block).
    if is_npu(self):
        return None
    return _record_stream(self, stream)


def patch_tensor_class():
    torch.Tensor.npu = _tensor_npu
    torch.Tensor.is_npu = property(_tensor_is_npu)
    torch.Tensor.record_stream = _tensor_record_stream
