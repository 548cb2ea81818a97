"""AMBER and water systems, their energies, and molecular dynamics
(vkmd_sys, vkmd_dynamics), with reporters and checkpoints."""
import ctypes
import json
import os

import numpy as np

from . import _lib
from ._core import as_array, context, dptr
from ._lib import check, check_stoppable, lib, take_string

# urey_bradley, improper_harmonic and cmap appear only for systems with
# CHARMM terms or CMAP (the JSON has them only then).
ENERGY_TERMS = ("bond", "angle", "dihedral", "improper", "urey_bradley", "improper_harmonic",
                "cmap", "lj", "lj_pair", "lj14", "lj_dispersion",
                "coulomb", "coulomb_real", "coulomb_recip", "coulomb_self", "coulomb_excl",
                "coulomb_net_charge", "coulomb14", "restraint", "gb", "nonpolar", "total")

_PRECISION = {"auto": 0, "single": 1, "mixed": 2, "fixed": 3}
_INTEGRATOR = {"langevin": 0, "verlet": 1}


def _choice(table, value, name):
    if not isinstance(value, str) or value.lower() not in table:
        raise ValueError(f"{name}: {value!r}, expected one of {', '.join(table)}")
    return table[value.lower()]


class System:
    """Atoms, force field and coordinates (AMBER prmtop or TIP3P water), as
    `vkmd run SYSTEM` loads them. Build with System.from_amber or
    System.water."""

    def __init__(self, spec, coords=None):
        if not isinstance(spec, (str, os.PathLike)):
            raise TypeError(f"system: expected a path or 'water:N', got {type(spec).__name__}")
        self._h = ctypes.c_void_p()
        c = None if coords is None else os.fsencode(coords)
        check(lib.vkmd_sys_load(os.fsencode(spec), c, ctypes.byref(self._h)))
        self.spec = os.fsdecode(spec)
        self.implicit = None

    @classmethod
    def from_amber(cls, prmtop, coords=None, implicit=None, salt=0.0, gbsa=None,
                   solute_dielectric=0.0, solvent_dielectric=0.0, gb_cutoff=0.0):
        """An AMBER prmtop with an inpcrd/rst7 or PDB file (None: the
        prmtop's .inpcrd or .rst7 beside it). implicit: generalized Born
        solvent for a prmtop without a box, "hct", "obc1", "obc2", "gbn" or
        "gbn2" (AMBER igb 1, 2, 5, 7, 8, from the prmtop's GB radii), with
        salt (mol/L), gbsa "ace" (nonpolar term), dielectrics (0: 1 and
        78.5) and gb_cutoff (A, 0: all pairs) as `vkmd run --implicit`."""
        s = cls(prmtop, coords)
        if implicit is not None:
            s.set_implicit_solvent(implicit, salt=salt, gbsa=gbsa,
                                   solute_dielectric=solute_dielectric,
                                   solvent_dielectric=solvent_dielectric, gb_cutoff=gb_cutoff)
        return s

    def set_implicit_solvent(self, model, salt=0.0, gbsa=None, solute_dielectric=0.0,
                             solvent_dielectric=0.0, gb_cutoff=0.0):
        """Sets (model None or "none": clears) the implicit solvent used by
        later energies and simulations; see from_amber."""
        if gbsa not in (None, "none", "ace"):
            raise ValueError(f"gbsa: {gbsa!r}, expected None, 'none' or 'ace'")
        d = _lib.ImplicitDesc(model=None if model is None else str(model).encode(),
                              salt_molar=float(salt), ace=1 if gbsa == "ace" else 0,
                              solute_dielectric=float(solute_dielectric),
                              solvent_dielectric=float(solvent_dielectric),
                              cutoff_a=float(gb_cutoff))
        check(lib.vkmd_sys_set_implicit_solvent(self._h, ctypes.byref(d)))
        self.implicit = None if model in (None, "none") else str(model)

    @classmethod
    def water(cls, n):
        """n TIP3P waters in a cubic box at 0.997 g/cm^3."""
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
            raise ValueError(f"water: n = {n!r}, expected a positive integer")
        return cls(f"water:{int(n)}")

    @classmethod
    def from_openmm(cls, topology, system, positions):
        """An OpenMM Topology, its System (AMBER-style forces: harmonic bonds
        and angles, periodic torsions, NonbondedForce) and positions (a
        Quantity, or nm), through ParmEd (Debian python3-parmed) as an AMBER
        prmtop + rst7 in a temporary directory. The box is the topology's."""
        import shutil
        import tempfile
        try:
            import parmed
        except ImportError as e:
            raise ImportError("System.from_openmm needs ParmEd (Debian python3-parmed)") from e
        st = parmed.openmm.load_topology(topology, system, xyz=positions)
        box = topology.getPeriodicBoxVectors()
        if box is not None:
            st.box_vectors = box
        if any(b.type is None for b in st.bonds):
            raise ValueError("System.from_openmm: some bonds have no HarmonicBondForce term "
                             "(constrained in the OpenMM System): create it with "
                             "constraints=None, rigidWater=False; vkmd adds its own constraints")
        tmp = tempfile.mkdtemp(prefix="vkmd_openmm_")
        try:
            st.save(os.path.join(tmp, "system.prmtop"), overwrite=True)
            st.save(os.path.join(tmp, "system.rst7"), overwrite=True)
            return cls(os.path.join(tmp, "system.prmtop"), os.path.join(tmp, "system.rst7"))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            lib.vkmd_sys_destroy(h)

    @property
    def atom_count(self):
        return int(lib.vkmd_sys_atom_count(self._h))

    @property
    def positions(self):
        """(N, 3) float64, A: the loaded coordinates."""
        out = np.empty((self.atom_count, 3))
        check(lib.vkmd_sys_get_positions(self._h, self.atom_count, dptr(out)))
        return out

    @property
    def box(self):
        """Box edges (3,) in A, or None without a periodic box."""
        b = np.zeros(3)
        return b if lib.vkmd_sys_box(self._h, dptr(b)) else None

    def energy(self, device=None, cutoff=0.0, precision="auto", forces=False, report=False):
        """Potential energy per term, kcal/mol, with 'total': what
        `vkmd energy SYSTEM --device D --json` prints, computed by the same
        code on the same device. forces=True: also the (N, 3) forces,
        kcal/mol/A. report=True: the command's whole JSON object instead of
        the terms."""
        ctx = context(device)
        out = ctypes.c_void_p()
        f = np.zeros((self.atom_count, 3)) if forces else None
        check(lib.vkmd_sys_energy(self._h, ctx.handle, float(cutoff),
                                  _choice(_PRECISION, precision, "precision"), ctypes.byref(out),
                                  dptr(f) if forces else None))
        rep = json.loads(take_string(out))
        e = rep if report else {k: rep[k] for k in ENERGY_TERMS if k in rep}
        return (e, f) if forces else e


class Simulation:
    """Molecular dynamics of a System on a Vulkan device (vkmd_dynamics),
    set up as `vkmd run` sets it up. Units: A, fs, ps, K, kcal/mol, A/fs.

    integrator 'langevin' (BAOAB) or 'verlet'; precision 'auto', 'single',
    'mixed' or 'fixed'; constraints 'hbonds' or None. The system must
    outlive the simulation (it is kept referenced)."""

    def __init__(self, system, device=None, precision="auto", integrator="langevin", dt=2.0,
                 temperature=300.0, friction=1.0, seed=0, constraints="hbonds", cutoff=0.0):
        self._h, self.reporters = None, []
        if not isinstance(system, System):
            raise TypeError(f"system: expected a vkmd.System, got {type(system).__name__}")
        if constraints not in ("hbonds", None):
            raise ValueError(f"constraints: {constraints!r}, expected 'hbonds' or None")
        desc = _lib.DynamicsDesc(integrator=_choice(_INTEGRATOR, integrator, "integrator"),
                                 dt_fs=float(dt), temperature_k=float(temperature),
                                 friction_per_ps=float(friction), seed=int(seed),
                                 no_hbond_constraints=int(constraints is None),
                                 cutoff_a=float(cutoff),
                                 precision=_choice(_PRECISION, precision, "precision"))
        self.system = system
        self._ctx = context(device)
        self._h = ctypes.c_void_p()
        self.dt = float(dt)
        check(lib.vkmd_dynamics_create(self._ctx.handle, system._h, ctypes.byref(desc),
                                       ctypes.byref(self._h)))
        self._n = system.atom_count

    # -- lifetime
    def close(self):
        """Frees the device state and closes the reporters' files; any later
        call raises RuntimeError."""
        for r in self.reporters:
            if hasattr(r, "close"):
                r.close()
        if getattr(self, "_h", None):
            lib.vkmd_dynamics_destroy(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _handle(self):
        if not getattr(self, "_h", None):
            raise RuntimeError("vkmd.Simulation is closed")
        return self._h

    # -- running
    def minimize(self, tolerance=0.0, max_iterations=0):
        """Energy minimisation (FIRE with the constraints); tolerance
        kcal/mol/A on the largest force (0: 10 kJ/mol/nm). Velocities are
        drawn again at the temperature. Returns the final largest force."""
        fmax = ctypes.c_double()
        check_stoppable(lib.vkmd_dynamics_minimize, self._handle(), float(tolerance),
                        int(max_iterations), ctypes.byref(fmax))
        return fmax.value

    def step(self, n):
        """Runs n steps; reporters are called at their multiples of `every`."""
        if not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"step: n = {n!r}, expected an integer >= 0")
        h = self._handle()
        left = int(n)
        while left > 0:
            now = self.current_step
            todo = left
            for r in self.reporters:
                todo = min(todo, r.every - now % r.every)
            # A signal (Ctrl-C) stops the steps between batches, well under
            # a second, and raises here: the state and current_step exact.
            check_stoppable(lib.vkmd_dynamics_step, h, todo)
            left -= todo
            now += todo
            for r in self.reporters:
                if now % r.every == 0:
                    r.report(self)

    def add_reporter(self, reporter):
        """Adds a reporter (EnergyCSVReporter, DCDReporter, CallbackReporter
        or any object with `every` and `report(simulation)`)."""
        if not hasattr(reporter, "report") or int(getattr(reporter, "every", 0)) < 1:
            raise TypeError("a reporter has report(simulation) and every >= 1")
        self.reporters.append(reporter)
        return reporter

    def add_callback(self, fn, every):
        """Calls fn(simulation) every `every` steps."""
        return self.add_reporter(CallbackReporter(fn, every))

    # -- state
    def _report(self):
        r = _lib.DynamicsReport()
        check(lib.vkmd_dynamics_get_report(self._handle(), ctypes.byref(r)))
        return r

    @property
    def current_step(self):
        return int(self._report().step)

    @property
    def time_ps(self):
        return self._report().time_ps

    @property
    def temperature(self):
        """Kinetic temperature, K."""
        return self._report().temperature_k

    def energies(self):
        """Energies of the current state per term, kcal/mol: bond, angle,
        dihedral, lj, coulomb, solvation (implicit solvent: generalized Born
        + nonpolar; 0 without), potential, kinetic, total."""
        r = self._report()
        return {k: getattr(r, k + "_kcal_mol") for k in
                ("bond", "angle", "dihedral", "lj", "coulomb", "solvation", "potential", "kinetic",
                 "total")}

    def _get(self, fn):
        out = np.empty((self._n, 3))
        check(fn(self._handle(), self._n, dptr(out)))
        return out

    @property
    def positions(self):
        """(N, 3) float64, A (whole molecules wrapped into the box); settable."""
        return self._get(lib.vkmd_dynamics_get_positions)

    @positions.setter
    def positions(self, xyz):
        xyz = as_array(xyz, (self._n, 3), "positions")
        check(lib.vkmd_dynamics_set_state(self._handle(), self._n, dptr(xyz), None))

    @property
    def velocities(self):
        """(N, 3) float64, A/fs; settable."""
        return self._get(lib.vkmd_dynamics_get_velocities)

    @velocities.setter
    def velocities(self, v):
        v = as_array(v, (self._n, 3), "velocities")
        check(lib.vkmd_dynamics_set_velocities(self._handle(), self._n, dptr(v)))

    @property
    def forces(self):
        """(N, 3) float64, kcal/mol/A, on the current positions."""
        return self._get(lib.vkmd_dynamics_get_forces)

    @property
    def box(self):
        """Box edges (3,) A, or None in vacuum; settable (positions kept)."""
        b = np.zeros(3)
        return b if lib.vkmd_dynamics_get_box(self._handle(), dptr(b)) else None

    @box.setter
    def box(self, edges):
        edges = as_array(edges, (3,), "box")
        check(lib.vkmd_dynamics_set_box(self._handle(), dptr(edges)))

    def save_checkpoint(self, path):
        """The exact state, in vkmd run's checkpoint format."""
        check(lib.vkmd_dynamics_save_checkpoint(self._handle(), os.fsencode(path)))

    def load_checkpoint(self, path):
        """Back to a saved state (same system): the run goes on bitwise."""
        check(lib.vkmd_dynamics_load_checkpoint(self._handle(), os.fsencode(path)))


class CallbackReporter:
    """Calls fn(simulation) every `every` steps."""

    def __init__(self, fn, every):
        if not callable(fn):
            raise TypeError("callback: not callable")
        self.fn, self.every = fn, _every(every)

    def report(self, sim):
        self.fn(sim)


def _every(every):
    if not isinstance(every, (int, np.integer)) or every < 1:
        raise ValueError(f"every: {every!r}, expected an integer >= 1")
    return int(every)


class EnergyCSVReporter:
    """Writes a CSV row of the energies every `every` steps; the header
    names the units."""

    COLUMNS = ("step", "time_ps", "potential_kcal_mol", "kinetic_kcal_mol", "total_kcal_mol",
               "temperature_k", "bond_kcal_mol", "angle_kcal_mol", "dihedral_kcal_mol",
               "lj_kcal_mol", "coulomb_kcal_mol", "solvation_kcal_mol")

    def __init__(self, path, every):
        self.every = _every(every)
        self._f = open(path, "w")
        self._f.write(",".join(self.COLUMNS) + "\n")

    def report(self, sim):
        r = sim._report()
        self._f.write(",".join(str(getattr(r, c)) if c != "step" else str(r.step)
                               for c in self.COLUMNS) + "\n")
        self._f.flush()

    def close(self):
        if self._f:
            self._f.close()
            self._f = None


class DCDReporter:
    """Writes a DCD frame (positions, box) every `every` steps with the
    engine's writer (vkmd run's traj.dcd layout: MDTraj reads it)."""

    def __init__(self, path, every):
        self.every = _every(every)
        self.path = os.fspath(path)
        self._h = None

    def report(self, sim):
        box = sim.box
        if self._h is None:
            self._h = ctypes.c_void_p()
            check(lib.vkmd_dcd_create(os.fsencode(self.path), sim._n, int(box is not None),
                                      sim.dt, self.every, ctypes.byref(self._h)))
        xyz = sim.positions
        check(lib.vkmd_dcd_append(self._h, dptr(xyz), dptr(box) if box is not None else None))

    def close(self):
        if self._h:
            h, self._h = self._h, None
            check(lib.vkmd_dcd_close(h))
