"""UFF molecules and batches of replicas, the pyBall way: load molecules
(SDF, XYZ, RDKit), build R replicas (mixed molecules allowed), set
coordinates as an (R, N, 3) array, get energies (R,) and forces (R, N, 3)
in one call, relax, scan, run MD, put them on a substrate, and read what
the device computed for each interaction of one replica."""
import ctypes
import json
import os

import numpy as np

from . import _lib
from ._core import as_array, context, dptr, iptr
from ._lib import check, lib, take_string

TERMS = ("bond", "angle", "torsion", "inversion", "vdw", "coulomb", "total")


class Molecule:
    """One UFF molecule: elements, formal charges, Kekule bonds and one or
    more conformers. Typing and terms follow RDKit 2022.09's UFF."""

    def __init__(self, handle):
        self._h = handle

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            lib.vkmd_uff_mol_destroy(h)

    @staticmethod
    def load(path):
        """Every record of an SDF/MOL file (a list), or the one molecule of
        an XYZ file (frames are conformers), or a built-in name
        ("formic-acid", "xylitol")."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"molecule: expected a path, got {type(path).__name__}")
        arr = ctypes.POINTER(ctypes.c_void_p)()
        n = ctypes.c_int32()
        check(lib.vkmd_uff_mol_load(os.fsencode(path), ctypes.byref(arr), ctypes.byref(n)))
        mols = [Molecule(ctypes.c_void_p(arr[k])) for k in range(n.value)]
        lib.vkmd_free(ctypes.cast(arr, ctypes.c_void_p))
        return mols

    @classmethod
    def from_file(cls, path, record=0):
        """Record `record` (0-based) of what Molecule.load reads."""
        mols = cls.load(path)
        if not 0 <= record < len(mols):
            raise IndexError(f"{os.fspath(path)}: record {record}; it has {len(mols)}")
        return mols[record]

    @classmethod
    def from_arrays(cls, z, bonds, xyz, formal_charges=None, name=""):
        """z (N,) atomic numbers; bonds (B, 3) int: atom a, atom b (0-based),
        order 1-3; xyz (N, 3) or (C, N, 3) conformers, A."""
        z = as_array(z, (None,), "z", np.int32)
        n = len(z)
        bonds = as_array(bonds if len(bonds) else np.zeros((0, 3), np.int32), (None, 3), "bonds",
                         np.int32)
        xyz = np.asarray(xyz) if not isinstance(xyz, np.ndarray) else xyz
        xyz = as_array(xyz, (None, n, 3) if xyz.ndim == 3 else (n, 3), "xyz")
        confs = xyz.shape[0] if xyz.ndim == 3 else 1
        q = None if formal_charges is None else as_array(formal_charges, (n,), "formal_charges",
                                                         np.int32)
        h = ctypes.c_void_p()
        check(lib.vkmd_uff_mol_create(name.encode(), n, iptr(z), None if q is None else iptr(q),
                                      len(bonds), iptr(bonds), confs, dptr(xyz),
                                      ctypes.byref(h)))
        return cls(h)

    @classmethod
    def from_rdkit(cls, mol, name=None):
        """An RDKit Mol with explicit hydrogens and 3D conformers (every
        conformer is kept); aromatic bonds are kekulised on a copy."""
        from rdkit import Chem
        m = Chem.Mol(mol)
        Chem.Kekulize(m, clearAromaticFlags=True)
        if m.GetNumConformers() == 0:
            raise ValueError("RDKit molecule has no conformer (embed it: AllChem.EmbedMolecule)")
        z = [a.GetAtomicNum() for a in m.GetAtoms()]
        q = [a.GetFormalCharge() for a in m.GetAtoms()]
        order = {Chem.BondType.SINGLE: 1, Chem.BondType.DOUBLE: 2, Chem.BondType.TRIPLE: 3}
        bonds = []
        for b in m.GetBonds():
            if b.GetBondType() not in order:
                raise ValueError(f"bond {b.GetIdx() + 1}: type {b.GetBondType()} is not single, "
                                 "double or triple")
            bonds.append((b.GetBeginAtomIdx(), b.GetEndAtomIdx(), order[b.GetBondType()]))
        xyz = np.array([c.GetPositions() for c in m.GetConformers()], dtype=np.float64)
        if name is None:
            name = m.GetProp("_Name") if m.HasProp("_Name") else ""
        return cls.from_arrays(np.array(z, np.int32), np.array(bonds, np.int32).reshape(-1, 3),
                               xyz, np.array(q, np.int32), name)

    @property
    def atom_count(self):
        return int(lib.vkmd_uff_mol_atom_count(self._h))

    @property
    def name(self):
        return lib.vkmd_uff_mol_name(self._h).decode(errors="replace")

    @property
    def elements(self):
        """(N,) atomic numbers."""
        z = np.empty(self.atom_count, np.int32)
        check(lib.vkmd_uff_mol_get(self._h, 0, iptr(z), None))
        return z

    @property
    def conformers(self):
        """(C, N, 3) float64, A."""
        c = int(lib.vkmd_uff_mol_conformer_count(self._h))
        out = np.empty((c, self.atom_count, 3))
        for k in range(c):
            check(lib.vkmd_uff_mol_get(self._h, k, None, dptr(out[k])))
        return out

    @property
    def positions(self):
        """(N, 3) float64, A: conformer 0."""
        return self.conformers[0]


class Batch:
    """R replicas of one or more molecules on one Vulkan device.

    Batch(mol, 1000): 1,000 replicas of mol; Batch([m1, m2], [0, 1, 1]):
    replica r of molecules[replicas[r]]. Replicas start at their molecule's
    first conformer. include_interfragment: van der Waals between fragments
    (RDKit leaves them out); dielectric for molecules with charges."""

    def __init__(self, molecules, replicas=1, device=None, include_interfragment=False,
                 dielectric=1.0):
        mols = [molecules] if isinstance(molecules, Molecule) else list(molecules)
        if not mols or not all(isinstance(m, Molecule) for m in mols):
            raise TypeError("molecules: a vkmd.uff.Molecule or a list of them")
        if isinstance(replicas, (int, np.integer)) and not isinstance(replicas, bool):
            if len(mols) != 1 or replicas < 1:
                raise ValueError("replicas: an integer >= 1 is the count of one molecule's "
                                 "replicas; with several molecules give the molecule of each "
                                 "replica")
            which = np.zeros(int(replicas), np.int32)
        else:
            which = as_array(replicas, (None,), "replicas", np.int64).astype(np.int32)
        self.molecules = mols
        self.replica_molecule = which
        self._ctx = context(device)
        arr = (ctypes.c_void_p * len(mols))(*[m._h.value for m in mols])
        desc = _lib.GroupDesc(include_interfragment=int(bool(include_interfragment)),
                              dielectric=float(dielectric))
        self._h = ctypes.c_void_p()
        check(lib.vkmd_uff_group_create(self._ctx.handle, arr, len(mols), iptr(which),
                                        len(which), ctypes.byref(desc), ctypes.byref(self._h)))
        self.replica_count = len(which)
        self.atom_count = int(lib.vkmd_uff_group_atom_count(self._h))
        self._natoms = np.array([mols[k].atom_count for k in which])
        self._offsets = np.concatenate([[0], np.cumsum(self._natoms)[:-1]]).astype(np.int64)
        self.uniform = bool(np.all(self._natoms == self._natoms[0]))

    def __del__(self):
        self.close()

    def close(self):
        if getattr(self, "_h", None):
            lib.vkmd_uff_group_destroy(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not getattr(self, "_h", None):
            raise RuntimeError("vkmd.uff.Batch is closed")
        return self._h

    def _split(self, flat):
        """(R, N, 3) for a batch of same-size replicas, else a list of (N_r, 3)."""
        if self.uniform:
            return flat.reshape(self.replica_count, int(self._natoms[0]), 3)
        return [flat[o:o + n] for o, n in zip(self._offsets, self._natoms)]

    @property
    def positions(self):
        """(R, N, 3) float64, A (a list of (N_r, 3) arrays for mixed
        molecules); settable with the same shape."""
        out = np.empty((self.atom_count, 3))
        check(lib.vkmd_uff_group_get_positions(self._handle(), self.atom_count, dptr(out)))
        return self._split(out)

    @positions.setter
    def positions(self, xyz):
        h = self._handle()
        if self.uniform and not isinstance(xyz, (list, tuple)):
            flat = as_array(xyz, (self.replica_count, int(self._natoms[0]), 3),
                            "positions").reshape(-1, 3)
        else:
            if len(xyz) != self.replica_count:
                raise ValueError(f"positions: {len(xyz)} replicas, the batch has "
                                 f"{self.replica_count}")
            flat = np.concatenate([as_array(x, (int(n), 3), f"positions[{r}]")
                                   for r, (x, n) in enumerate(zip(xyz, self._natoms))])
        check(lib.vkmd_uff_group_set_positions(h, self.atom_count, dptr(flat)))

    def evaluate(self):
        """Energies (R,) kcal/mol and forces (R, N, 3) kcal/mol/A of every
        replica in one call; the per-term energies are in .terms after it."""
        e = np.empty((self.replica_count, _lib.UFF_GROUP_TERMS))
        f = np.empty((self.atom_count, 3))
        check(lib.vkmd_uff_group_evaluate(self._handle(), dptr(e), dptr(f)))
        self.terms = {k: e[:, i].copy() for i, k in enumerate(TERMS)}
        return e[:, 6].copy(), self._split(f)

    def energies(self):
        """(R,) total energies, kcal/mol."""
        return self.evaluate()[0]

    def forces(self):
        """(R, N, 3) forces, kcal/mol/A."""
        return self.evaluate()[1]

    def relax(self, minimizer="lbfgs", force_tol=0.0, energy_tol=0.0, max_iterations=0,
              memory=0):
        """Relaxes every replica (coordinates replaced), each at its own pace,
        as `vkmd uff relax` does. minimizer "lbfgs" (RDKit's BFGS; L-BFGS
        with memory 1..16) or "fire"; 0 means the minimiser's default
        (force_tol: RDKit's forceTol 1e-4 for lbfgs, max |F| 1e-3 kcal/mol/A
        for fire; max_iterations 1000 line searches or 20000 FIRE steps).
        Returns a dict of (R,) arrays: energy_initial, energy_final
        (kcal/mol), max_force (kcal/mol/A), iterations, evaluations,
        converged."""
        kinds = {"lbfgs": 0, "fire": 1}
        if minimizer not in kinds:
            raise ValueError(f"minimizer: {minimizer!r}, expected 'lbfgs' or 'fire'")
        desc = _lib.RelaxDesc(minimizer=kinds[minimizer], force_tol=float(force_tol),
                              energy_tol=float(energy_tol), max_iterations=int(max_iterations),
                              memory=int(memory))
        res = (_lib.RelaxResult * self.replica_count)()
        check(lib.vkmd_uff_group_relax(self._handle(), ctypes.byref(desc), res))
        return {"energy_initial": np.array([r.energy_initial_kcal_mol for r in res]),
                "energy_final": np.array([r.energy_final_kcal_mol for r in res]),
                "max_force": np.array([r.max_force_kcal_mol_a for r in res]),
                "iterations": np.array([r.iterations for r in res]),
                "evaluations": np.array([r.evaluations for r in res]),
                "converged": np.array([bool(r.converged) for r in res])}

    def md(self, steps, dt=0.5, temperature=300.0, friction=5.0, seed=0):
        """Langevin dynamics (BAOAB) of every replica for `steps` steps;
        coordinates replaced, velocities kept for the next call. Returns
        each replica's mean temperature (R,), K."""
        if not isinstance(steps, (int, np.integer)) or steps < 0:
            raise ValueError(f"steps: {steps!r}, expected an integer >= 0")
        desc = _lib.MdDesc(dt_fs=float(dt), temperature_k=float(temperature),
                           friction_per_ps=float(friction), seed=int(seed))
        t = np.zeros(self.replica_count)
        check(lib.vkmd_uff_group_md(self._handle(), ctypes.byref(desc), int(steps), dptr(t)))
        return t

    def surface(self, substrate, morse=False, grid=False, spacing=0.1, height=3.0):
        """Every replica above a substrate ("nacl", "graphene" or an
        extended-XYZ file): moved in z so its lowest atom is `height` A above
        the top layer, then the molecule-surface energies (R,) kcal/mol and
        forces (R, N, 3) kcal/mol/A (the surface's only)."""
        desc = _lib.SurfaceDesc(substrate=os.fsencode(substrate), morse=int(bool(morse)),
                                grid=int(bool(grid)), spacing_a=float(spacing),
                                height_a=float(height))
        e = np.empty(self.replica_count)
        f = np.empty((self.atom_count, 3))
        check(lib.vkmd_uff_group_surface(self._handle(), ctypes.byref(desc), dptr(e), dptr(f)))
        return e, self._split(f)

    def debug(self, replica):
        """What the device computed for every interaction of replica
        `replica` (0-based): a list of dicts (term kind, atoms, geometry,
        energy, derivative, forces; keys carry units), as `vkmd uff energy
        --debug-replica` prints them."""
        if not isinstance(replica, (int, np.integer)) or not 0 <= replica < self.replica_count:
            raise IndexError(f"replica {replica!r}: the batch has {self.replica_count} (0-based)")
        out = ctypes.c_void_p()
        check(lib.vkmd_uff_group_debug_json(self._handle(), int(replica), ctypes.byref(out)))
        return json.loads(take_string(out))


def scan(molecule, conformations, device=None, **kw):
    """Energies (K,) and forces (K, N, 3) of K conformations (K, N, 3) of one
    molecule, one replica each, in one call (as `vkmd uff scan`)."""
    if not isinstance(molecule, Molecule):
        raise TypeError("molecule: a vkmd.uff.Molecule")
    conf = as_array(conformations, (None, molecule.atom_count, 3), "conformations")
    with Batch(molecule, len(conf), device=device, **kw) as b:
        b.positions = conf
        return b.evaluate()
