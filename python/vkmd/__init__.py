"""vkmd: molecular dynamics on any GPU through Vulkan compute, from Python.

    import vkmd
    sim = vkmd.Simulation(vkmd.System.water(216), dt=2.0, temperature=300)
    sim.step(100); print(sim.energies())

Numpy in, numpy out; units A, fs, ps, K, kcal/mol, amu, e. Every call goes
through libvkmd's public C API (include/vkmd.h); a failure raises
vkmd.VkmdError with the engine's message. UFF batches are in vkmd.uff.
"""
from ._lib import VkmdError, library_path
from ._lib import lib as _cdll
from ._core import Context, context, devices
from .md import (CallbackReporter, DCDReporter, EnergyCSVReporter, Simulation, System)
from . import uff

__version__ = _cdll.vkmd_version(None, None, None).decode()

__all__ = ["VkmdError", "Context", "context", "devices", "System", "Simulation",
           "EnergyCSVReporter", "DCDReporter", "CallbackReporter", "uff", "library_path"]
