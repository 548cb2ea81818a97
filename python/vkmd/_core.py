"""Devices, contexts and array checks shared by the MD and UFF parts."""
import ctypes
import json

import numpy as np

from ._lib import VkmdError, check, lib, take_string, ContextDesc


def devices():
    """The Vulkan devices as `vkmd devices --json` lists them: a list of dicts
    (index, name, type, driver, memory in bytes, features); the one vkmd picks
    by default has "default": True."""
    out = ctypes.c_void_p()
    check(lib.vkmd_devices_json(ctypes.byref(out)))
    return json.loads(take_string(out))["devices"]


class Context:
    """One Vulkan device (vkmd_context). device: None or "gpu" for
    $VKMD_DEVICE or the best device, "N" (an index as devices() lists them)
    or a name substring."""

    def __init__(self, device=None):
        if device is not None and not isinstance(device, (str, int)):
            raise TypeError(f"device: expected None, an index or a name, got {type(device).__name__}")
        if device == "cpu":
            raise ValueError("device 'cpu': the CPU double-precision reference is the vkmd "
                             "command's oracle (vkmd energy --device cpu), not part of the "
                             "library; give a Vulkan device (see vkmd.devices())")
        self._h = ctypes.c_void_p()
        desc = ContextDesc(device=None if device is None else str(device).encode(), validation=0)
        check(lib.vkmd_context_create(ctypes.byref(desc), ctypes.byref(self._h)))
        self.device_name = lib.vkmd_context_device_name(self._h).decode()

    @property
    def handle(self):
        return self._h

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            lib.vkmd_context_destroy(h)
            self._h = ctypes.c_void_p()


_contexts = {}


def context(device=None):
    """A Context for `device` (a Context passes through), one per device
    string for the whole process (creating one costs seconds on lavapipe)."""
    if isinstance(device, Context):
        return device
    key = None if device in (None, "gpu", "") else str(device)
    if key not in _contexts:
        _contexts[key] = Context(key)
    return _contexts[key]


def as_array(a, shape, name, dtype=np.float64):
    """`a` as a C-contiguous array of `dtype` and `shape` (None: any size on
    that axis). A numpy array of another dtype is a TypeError (no silent
    casts of int or float32 coordinates); lists are converted; a wrong shape
    is a ValueError naming the expected one."""
    if isinstance(a, np.ndarray):
        if a.dtype != dtype:
            raise TypeError(f"{name}: dtype {a.dtype}, expected {np.dtype(dtype).name} "
                            f"(convert with .astype(np.{np.dtype(dtype).name}))")
    else:
        try:
            a = np.asarray(a, dtype=dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name}: cannot read as {np.dtype(dtype).name} numbers: {e}") from None
    if a.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, a.shape)):
        want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
        raise ValueError(f"{name}: shape {a.shape}, expected {want}")
    if dtype == np.float64 and not np.all(np.isfinite(a)):
        raise ValueError(f"{name}: contains non-finite values")
    return np.ascontiguousarray(a)


def dptr(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def iptr(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))


__all__ = ["devices", "Context", "context", "VkmdError"]
