"""vkmd.uff: molecules from files and RDKit, batches of replicas (mixed
molecules), energies and forces against `vkmd uff energy --json`, relax,
scan, md, the substrate, per-replica debug output, 1,000 replicas."""
import numpy as np
import pytest

import vkmd
from vkmd import uff
from conftest import DEVICE, data, run_json


def test_energy_equals_cli(vkmd_bin):
    """Every term and every force of every record equals `vkmd uff energy
    --device D --json` to every digit the command prints."""
    path = data("uff", "molecules.sdf")
    mols = uff.Molecule.load(path)
    b = uff.Batch(mols, list(range(len(mols))), device=DEVICE)
    e, f = b.evaluate()
    _, cli = run_json(["uff", "energy", path, "--device", DEVICE, "--json"])
    assert len(cli["records"]) == len(mols)
    for r, rec in enumerate(cli["records"]):
        c = rec["conformers"][0]
        for k in uff.TERMS:
            assert f"{b.terms[k][r]:.10f}" == f"{c['energy'][k + '_kcal_per_mol']:.10f}", (r, k)
        got = f[r] if b.uniform else f[r]
        want = np.array(c["forces_kcal_per_mol_per_a"])
        assert [f"{x:.10e}" for x in got.ravel()] == [f"{x:.10e}" for x in want.ravel()], r


def test_molecules_xyz_rdkit(tmp_path):
    m = uff.Molecule.from_file("formic-acid")
    assert m.atom_count == 5 and list(m.elements) == [8, 6, 8, 1, 1]
    xyz = tmp_path / "fa.xyz"
    sym = {1: "H", 6: "C", 8: "O"}
    xyz.write_text("5\nformic acid\n" + "".join(
        f"{sym[z]} {p[0]:.6f} {p[1]:.6f} {p[2]:.6f}\n" for z, p in zip(m.elements, m.positions)))
    mx = uff.Molecule.from_file(xyz)
    e_sdf = uff.Batch(m, 1, device=DEVICE).energies()
    e_xyz = uff.Batch(mx, 1, device=DEVICE).energies()
    assert e_xyz[0] == pytest.approx(e_sdf[0], rel=1e-5)
    Chem = pytest.importorskip("rdkit.Chem")
    from rdkit.Chem import AllChem
    rm = Chem.AddHs(Chem.MolFromSmiles("c1ccccc1O"))
    AllChem.EmbedMolecule(rm, randomSeed=1)
    mr = uff.Molecule.from_rdkit(rm)
    assert mr.atom_count == rm.GetNumAtoms()
    ff = AllChem.UFFGetMoleculeForceField(rm)
    e_rdkit = ff.CalcEnergy()
    e_vkmd = uff.Batch(mr, 1, device=DEVICE).energies()[0]
    assert e_vkmd == pytest.approx(e_rdkit, rel=1e-4, abs=1e-3)


def test_mixed_batch_positions_scan():
    a, x = uff.Molecule.from_file("formic-acid"), uff.Molecule.from_file("xylitol")
    b = uff.Batch([a, x], [0, 1, 0], device=DEVICE)
    assert not b.uniform and b.atom_count == 5 + 22 + 5
    pos = b.positions
    assert [p.shape for p in pos] == [(5, 3), (22, 3), (5, 3)]
    e, f = b.evaluate()
    assert e.shape == (3,) and e[0] == e[2] and [g.shape for g in f] == [(5, 3), (22, 3), (5, 3)]
    pos[2] = pos[2] + 0.05 * np.arange(15).reshape(5, 3) / 15
    b.positions = pos
    e2, _ = b.evaluate()
    assert e2[0] == e[0] and e2[1] == e[1] and e2[2] != e[2]
    confs = np.stack([a.positions, pos[2]])
    es, fs = uff.scan(a, confs, device=DEVICE)
    assert es.shape == (2,) and fs.shape == (2, 5, 3)
    assert es[0] == e2[0] and es[1] == e2[2]


def test_relax_md_surface_debug():
    m = uff.Molecule.from_file("xylitol")
    b = uff.Batch(m, 4, device=DEVICE)
    rng = np.random.default_rng(1)
    b.positions = m.positions + rng.uniform(-0.1, 0.1, (4, 22, 3))
    start = b.positions
    e0 = b.energies()
    r = b.relax()  # the quasi-Newton default, RDKit's criteria
    assert r["converged"].all() and np.all(r["iterations"] < 500)
    assert np.all(r["evaluations"] >= r["iterations"]) and np.all(r["max_force"] < 1e-2)
    assert np.all(r["energy_final"] < e0)
    np.testing.assert_allclose(b.energies(), r["energy_final"], rtol=1e-5)
    b.positions = start
    f = b.relax(minimizer="fire", force_tol=1e-2, max_iterations=3000)
    assert f["converged"].all() and np.all(f["max_force"] < 1e-2)
    np.testing.assert_allclose(f["energy_final"], r["energy_final"], atol=1e-2)
    t = b.md(50, temperature=300, seed=3)
    assert t.shape == (4,) and np.all((t > 50) & (t < 1500))
    es, fs = b.surface("nacl", height=3.0)
    assert es.shape == (4,) and fs.shape == (4, 22, 3) and np.all(np.isfinite(es))
    assert np.all(es < 0)  # a molecule 3 A above NaCl is attracted
    dbg = b.debug(1)
    kinds = {d["kind"] for d in dbg}
    assert {"bond", "angle", "torsion"} <= kinds
    assert all(len(d["forces_kcal_per_mol_per_angstrom"]) == len(d["atoms"]) for d in dbg)


def test_thousand_replicas():
    """1,000 replicas: energies and forces of every replica in one call,
    then one relaxation of all (capped at 10 line searches to stay quick on
    lavapipe)."""
    m = uff.Molecule.from_file("xylitol")
    b = uff.Batch(m, 1000, device=DEVICE)
    rng = np.random.default_rng(2)
    start = m.positions + rng.uniform(-0.05, 0.05, (1000, 22, 3))
    b.positions = start
    e, f = b.evaluate()
    assert e.shape == (1000,) and f.shape == (1000, 22, 3)
    assert np.all(np.isfinite(e)) and len(np.unique(e)) > 900
    r = b.relax(max_iterations=10)
    assert r["iterations"].shape == (1000,) and np.all(r["iterations"] > 0)
    assert np.all(r["energy_final"] < e)
    assert not np.array_equal(b.positions, start)


def test_relax_equals_cli(vkmd_bin, tmp_path):
    """relax() is `vkmd uff relax --device D`: the same steps, energies and
    forces to every digit the command prints."""
    _, cli = run_json(["uff", "relax", "formic-acid", "--device", DEVICE, "--json", "--out",
                       str(tmp_path / "r.sdf")])
    r = uff.Batch(uff.Molecule.from_file("formic-acid"), 1, device=DEVICE).relax()
    c = cli["replicas"][0]
    assert r["iterations"][0] == c["iterations"] and r["converged"][0] == c["converged"]
    assert r["evaluations"][0] == c["energy_evaluations"]
    assert f"{r['energy_final'][0]:.10f}" == f"{c['energy_final_kcal_per_mol']:.10f}"
    assert f"{r['max_force'][0]:.4e}" == f"{c['max_force_kcal_per_mol_A']:.4e}"
