"""ctypes bindings of libvkmd's public C API (include/vkmd.h).

The library is found, in order: $VKMD_LIBRARY (a path); the path recorded
in _libpath.py by the build (build tree) or the install (relative to this
package); the system's linker path (libvkmd.so.0). No compiler or Python
headers are needed at import time.
"""
import ctypes
import ctypes.util
import os

from . import _libpath

c_int, c_int32, c_int64, c_uint64 = ctypes.c_int, ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64
c_double, c_char_p, c_void_p = ctypes.c_double, ctypes.c_char_p, ctypes.c_void_p
P = ctypes.POINTER
dptr = P(c_double)
iptr = P(c_int32)


class VkmdError(RuntimeError):
    """A libvkmd call failed: .code is the vkmd_result, .kind its name, the
    message the engine's (file:line of an input, the Vulkan call, ...)."""

    def __init__(self, code, kind, message):
        super().__init__(f"{kind}: {message}" if message else kind)
        self.code, self.kind, self.message = code, kind, message


def _candidates():
    env = os.environ.get("VKMD_LIBRARY")
    if env:
        return [env]
    out = []
    here = os.path.dirname(os.path.abspath(__file__))
    for p in _libpath.LIBRARY_PATHS:
        out.append(p if os.path.isabs(p) else os.path.normpath(os.path.join(here, p)))
    found = ctypes.util.find_library("vkmd")
    if found:
        out.append(found)
    out.append("libvkmd.so.0")
    return out


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise ImportError("vkmd: cannot load libvkmd (set VKMD_LIBRARY to its path): " +
                      "; ".join(errors))


lib, library_path = _load()


class ContextDesc(ctypes.Structure):
    _fields_ = [("device", c_char_p), ("validation", c_int)]


class ImplicitDesc(ctypes.Structure):
    _fields_ = [("model", c_char_p), ("salt_molar", c_double), ("ace", c_int),
                ("solute_dielectric", c_double), ("solvent_dielectric", c_double),
                ("cutoff_a", c_double)]


class DynamicsDesc(ctypes.Structure):
    _fields_ = [("integrator", c_int), ("dt_fs", c_double), ("temperature_k", c_double),
                ("friction_per_ps", c_double), ("seed", c_uint64),
                ("no_hbond_constraints", c_int), ("flexible_water", c_int),
                ("constraint_tol", c_double), ("com_every", c_int32), ("cutoff_a", c_double),
                ("ewald_tolerance", c_double), ("precision", c_int)]


class DynamicsReport(ctypes.Structure):
    _fields_ = [("step", c_int64), ("time_ps", c_double), ("potential_kcal_mol", c_double),
                ("kinetic_kcal_mol", c_double), ("total_kcal_mol", c_double),
                ("temperature_k", c_double), ("bond_kcal_mol", c_double),
                ("angle_kcal_mol", c_double), ("dihedral_kcal_mol", c_double),
                ("lj_kcal_mol", c_double), ("coulomb_kcal_mol", c_double),
                ("solvation_kcal_mol", c_double)]


class GroupDesc(ctypes.Structure):
    _fields_ = [("include_interfragment", c_int), ("dielectric", c_double)]


class RelaxDesc(ctypes.Structure):
    _fields_ = [("minimizer", c_int), ("force_tol", c_double), ("energy_tol", c_double),
                ("max_iterations", c_int32), ("memory", c_int32)]


class RelaxResult(ctypes.Structure):
    _fields_ = [("energy_initial_kcal_mol", c_double), ("energy_final_kcal_mol", c_double),
                ("max_force_kcal_mol_a", c_double), ("iterations", c_int32),
                ("evaluations", c_int32), ("converged", c_int)]


class MdDesc(ctypes.Structure):
    _fields_ = [("dt_fs", c_double), ("temperature_k", c_double),
                ("friction_per_ps", c_double), ("seed", c_uint64)]


class SurfaceDesc(ctypes.Structure):
    _fields_ = [("substrate", c_char_p), ("morse", c_int), ("grid", c_int),
                ("spacing_a", c_double), ("height_a", c_double)]


UFF_GROUP_TERMS = 7

_sigs = {
    "vkmd_result_str": (c_char_p, [c_int]),
    "vkmd_last_error": (c_char_p, []),
    "vkmd_error_clear": (None, []),
    "vkmd_version": (c_char_p, [c_void_p, c_void_p, c_void_p]),
    "vkmd_free": (None, [c_void_p]),
    "vkmd_devices_json": (c_int, [P(c_void_p)]),
    "vkmd_context_create": (c_int, [P(ContextDesc), P(c_void_p)]),
    "vkmd_context_destroy": (None, [c_void_p]),
    "vkmd_context_device_name": (c_char_p, [c_void_p]),
    "vkmd_sys_load": (c_int, [c_char_p, c_char_p, P(c_void_p)]),
    "vkmd_sys_destroy": (None, [c_void_p]),
    "vkmd_sys_atom_count": (c_int32, [c_void_p]),
    "vkmd_sys_box": (c_int, [c_void_p, dptr]),
    "vkmd_sys_get_positions": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_sys_set_implicit_solvent": (c_int, [c_void_p, P(ImplicitDesc)]),
    "vkmd_sys_energy": (c_int, [c_void_p, c_void_p, c_double, c_int, P(c_void_p), dptr]),
    "vkmd_dynamics_create": (c_int, [c_void_p, c_void_p, P(DynamicsDesc), P(c_void_p)]),
    "vkmd_dynamics_destroy": (None, [c_void_p]),
    "vkmd_dynamics_step": (c_int, [c_void_p, c_int64]),
    "vkmd_set_stop_callback": (None, [c_void_p, c_void_p]),
    "vkmd_clear_stop": (None, []),
    "vkmd_dynamics_get_report": (c_int, [c_void_p, P(DynamicsReport)]),
    "vkmd_dynamics_get_positions": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_dynamics_get_velocities": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_dynamics_get_forces": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_dynamics_set_state": (c_int, [c_void_p, c_int32, dptr, dptr]),
    "vkmd_dynamics_set_velocities": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_dynamics_get_box": (c_int, [c_void_p, dptr]),
    "vkmd_dynamics_set_box": (c_int, [c_void_p, dptr]),
    "vkmd_dynamics_minimize": (c_int, [c_void_p, c_double, c_int32, dptr]),
    "vkmd_dynamics_save_checkpoint": (c_int, [c_void_p, c_char_p]),
    "vkmd_dynamics_load_checkpoint": (c_int, [c_void_p, c_char_p]),
    "vkmd_dcd_create": (c_int, [c_char_p, c_int32, c_int, c_double, c_int32, P(c_void_p)]),
    "vkmd_dcd_append": (c_int, [c_void_p, dptr, dptr]),
    "vkmd_dcd_close": (c_int, [c_void_p]),
    "vkmd_uff_mol_load": (c_int, [c_char_p, P(P(c_void_p)), P(c_int32)]),
    "vkmd_uff_mol_create": (c_int, [c_char_p, c_int32, iptr, iptr, c_int32, iptr, c_int32, dptr,
                                    P(c_void_p)]),
    "vkmd_uff_mol_destroy": (None, [c_void_p]),
    "vkmd_uff_mol_atom_count": (c_int32, [c_void_p]),
    "vkmd_uff_mol_conformer_count": (c_int32, [c_void_p]),
    "vkmd_uff_mol_name": (c_char_p, [c_void_p]),
    "vkmd_uff_mol_get": (c_int, [c_void_p, c_int32, iptr, dptr]),
    "vkmd_uff_group_create": (c_int, [c_void_p, P(c_void_p), c_int32, iptr, c_int32,
                                      P(GroupDesc), P(c_void_p)]),
    "vkmd_uff_group_destroy": (None, [c_void_p]),
    "vkmd_uff_group_replica_count": (c_int32, [c_void_p]),
    "vkmd_uff_group_atom_count": (c_int32, [c_void_p]),
    "vkmd_uff_group_replica_offset": (c_int32, [c_void_p, c_int32]),
    "vkmd_uff_group_set_positions": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_uff_group_get_positions": (c_int, [c_void_p, c_int32, dptr]),
    "vkmd_uff_group_evaluate": (c_int, [c_void_p, dptr, dptr]),
    "vkmd_uff_group_relax": (c_int, [c_void_p, P(RelaxDesc), P(RelaxResult)]),
    "vkmd_uff_group_md": (c_int, [c_void_p, P(MdDesc), c_int32, dptr]),
    "vkmd_uff_group_surface": (c_int, [c_void_p, P(SurfaceDesc), dptr, dptr]),
    "vkmd_uff_group_debug_json": (c_int, [c_void_p, c_int32, P(c_void_p)]),
}
for _name, (_res, _args) in _sigs.items():
    _f = getattr(lib, _name)
    _f.restype, _f.argtypes = _res, _args


def check(code):
    """Raises VkmdError with the engine's message for a failed call."""
    if code != 0:
        msg = lib.vkmd_last_error() or b""
        kind = lib.vkmd_result_str(code) or b"error"
        lib.vkmd_error_clear()
        raise VkmdError(code, kind.decode(errors="replace"), msg.decode(errors="replace"))


def take_string(ptr):
    """The text of a malloc'd char * the library returned, freed."""
    try:
        return ctypes.string_at(ptr.value).decode()
    finally:
        lib.vkmd_free(ptr)


_STOP_FN = ctypes.CFUNCTYPE(c_int, c_void_p)
ERROR_STOPPED = 13  # vkmd_result VKMD_ERROR_STOPPED


def check_stoppable(fn, *args):
    """Calls lib function `fn` (a long one: steps, minimisation, UFF
    batches) so that Ctrl-C stops it: for the call, SIGINT only records
    itself; libvkmd polls the callback between pieces of device work (well
    under a second each), which asks the call to stop once it came. The call
    returns with its state whole, then the handler that was there runs
    (Python's default raises KeyboardInterrupt). Threads other than the main
    one (where Python runs signal handlers) call `fn` plainly."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        return check(fn(*args))
    got = []

    def on_sigint(signum, frame):
        got.append(frame)

    def poll(_user):  # Python runs on_sigint as this function starts
        return 1 if got else 0

    cb = _STOP_FN(poll)
    previous = signal.signal(signal.SIGINT, on_sigint)
    lib.vkmd_set_stop_callback(ctypes.cast(cb, c_void_p), None)
    try:
        code = fn(*args)
    finally:
        lib.vkmd_set_stop_callback(None, None)
        lib.vkmd_clear_stop()
        signal.signal(signal.SIGINT, previous)
    if got:
        if callable(previous):
            previous(signal.SIGINT, got[0])  # default_int_handler: KeyboardInterrupt
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)
        if code == ERROR_STOPPED:  # asked by us and handled
            return None
    return check(code)
