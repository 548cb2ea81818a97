"""vkmd.System and vkmd.Simulation on lavapipe (or any device): energies
against the command, state in and out, reporters, checkpoints."""
import os

import numpy as np
import pytest

import vkmd
from conftest import DEVICE, data, run_json

TINY = data("tiny.prmtop")


def test_devices():
    devs = vkmd.devices()
    assert devs and all("name" in d for d in devs)
    assert sum(bool(d.get("default")) for d in devs) == 1


def test_energy_equals_cli(vkmd_bin, tmp_path):
    """Every term and every force equals `vkmd energy --json --forces` to
    every digit the command prints (same code, same device)."""
    s = vkmd.System.from_amber(TINY)
    e, f = s.energy(device=DEVICE, forces=True)
    fpath = tmp_path / "f.txt"
    text, cli = run_json(["energy", TINY, "--device", DEVICE, "--json", "--forces", str(fpath)])
    assert set(e) <= set(cli) and "total" in e
    for k, v in e.items():
        assert v == cli[k], k
    rows = [ln.split() for ln in fpath.read_text().splitlines() if not ln.startswith("#")]
    assert len(rows) == s.atom_count
    for a, row in enumerate(rows):
        assert [f"{x:.10e}" for x in f[a]] == row[1:], a


def test_water_system():
    s = vkmd.System.water(216)
    assert s.atom_count == 648
    assert s.box is not None and np.all(s.box > 18)
    assert s.positions.shape == (648, 3) and s.positions.dtype == np.float64


def test_simulation_state_reporters_checkpoint(tmp_path):
    s = vkmd.System.from_amber(TINY)
    calls = []
    with vkmd.Simulation(s, device=DEVICE, dt=1.0, temperature=300, seed=7) as sim:
        fmax = sim.minimize(max_iterations=50)
        assert np.isfinite(fmax)
        csv = sim.add_reporter(vkmd.EnergyCSVReporter(tmp_path / "e.csv", 5))
        dcd = sim.add_reporter(vkmd.DCDReporter(tmp_path / "t.dcd", 5))
        sim.add_callback(lambda x: calls.append(x.current_step), 10)
        sim.step(20)
        assert calls == [10, 20]
        e = sim.energies()
        assert set(e) >= {"bond", "angle", "dihedral", "lj", "coulomb", "potential", "total"}
        assert e["total"] == pytest.approx(e["potential"] + e["kinetic"])
        x, v, f = sim.positions, sim.velocities, sim.forces
        assert x.shape == v.shape == f.shape == (5, 3)
        assert np.all(np.isfinite(f)) and np.abs(f).max() > 0
        np.testing.assert_array_equal(sim.box, [20, 21, 22])
        # checkpoint: the continuation is bitwise the run that did not stop
        ck = tmp_path / "state.chk"
        sim.save_checkpoint(ck)
        sim.step(10)
        x_ref = sim.positions
        sim.load_checkpoint(ck)
        assert sim.current_step == 20
        sim.step(10)
        np.testing.assert_array_equal(sim.positions, x_ref)
        # setters
        sim.velocities = np.zeros((5, 3))
        assert np.all(sim.velocities == 0)
        sim.positions = x_ref
        np.testing.assert_allclose(sim.positions, x_ref, atol=1e-5)
        sim.box = np.array([20.0, 21.0, 23.0])
        np.testing.assert_array_equal(sim.box, [20, 21, 23])
    lines = (tmp_path / "e.csv").read_text().splitlines()
    assert lines[0].startswith("step,time_ps,potential_kcal_mol")
    assert [int(ln.split(",")[0]) for ln in lines[1:]] == [5, 10, 15, 20, 25, 30, 25, 30]  # again after the load
    assert csv._f is None and dcd._h is None  # closed with the simulation


def test_dcd_loads_in_mdtraj(tmp_path):
    md = pytest.importorskip("mdtraj")
    s = vkmd.System.from_amber(TINY)
    sim = vkmd.Simulation(s, device=DEVICE, dt=1.0)
    sim.add_reporter(vkmd.DCDReporter(tmp_path / "t.dcd", 2))
    sim.step(6)
    last = sim.positions
    sim.close()
    t = md.load_dcd(str(tmp_path / "t.dcd"), top=TINY)
    assert t.n_frames == 3 and t.n_atoms == 5
    np.testing.assert_allclose(t.xyz[-1] * 10.0, last, atol=1e-4)  # nm -> A
    np.testing.assert_allclose(t.unitcell_lengths[-1] * 10.0, [20, 21, 22], atol=1e-4)


def test_system_from_openmm():
    """A system built from an OpenMM Topology + System + positions has the
    energies of the same prmtop loaded directly."""
    app = pytest.importorskip("openmm.app")
    pytest.importorskip("parmed")
    prmtop, inpcrd = data("water_nacl.prmtop"), data("water_nacl.inpcrd")
    p, c = app.AmberPrmtopFile(prmtop), app.AmberInpcrdFile(inpcrd)
    omm = p.createSystem(nonbondedMethod=app.PME, nonbondedCutoff=0.9, constraints=None,
                         rigidWater=False)
    s = vkmd.System.from_openmm(p.topology, omm, c.positions)
    direct = vkmd.System.from_amber(prmtop, inpcrd)
    assert s.atom_count == direct.atom_count
    np.testing.assert_allclose(s.box, direct.box)
    e, ref = s.energy(device=DEVICE), direct.energy(device=DEVICE)
    for k in ("bond", "angle", "lj", "coulomb", "total"):
        assert e[k] == pytest.approx(ref[k], rel=1e-7, abs=1e-7), k
