"""torch_npu.utils.cpp_extension: NpuExtension is a CppExtension with the
simulated torch_npu's C++ headers on the include path."""
from torch.utils.cpp_extension import CppExtension

from .. import get_include


def include_paths():
    return [get_include()]


def NpuExtension(name, sources, *args, **kwargs):
    kwargs["include_dirs"] = list(kwargs.get("include_dirs", [])) + include_paths()
    return CppExtension(name, sources, *args, **kwargs)
