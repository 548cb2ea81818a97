"""Bad input raises a Python exception with a clear message; the
interpreter never crashes."""
import numpy as np
import pytest

import vkmd
from vkmd import uff
from conftest import DEVICE, data


def test_missing_files():
    with pytest.raises(vkmd.VkmdError, match="nope.prmtop"):
        vkmd.System.from_amber("/nonexistent/nope.prmtop")
    with pytest.raises(vkmd.VkmdError, match="missing.sdf"):
        uff.Molecule.load("/nonexistent/missing.sdf")
    with pytest.raises(vkmd.VkmdError) as e:
        uff.Molecule.load("molecule.unknown-format")
    assert e.value.kind and e.value.message


def test_bad_arguments():
    with pytest.raises(ValueError, match="positive integer"):
        vkmd.System.water(0)
    with pytest.raises(TypeError):
        vkmd.System.from_amber(42)
    with pytest.raises(ValueError, match="integrator"):
        vkmd.Simulation(vkmd.System.from_amber(data("tiny.prmtop")), device=DEVICE,
                        integrator="leapfrog")
    with pytest.raises(vkmd.VkmdError, match="dt_fs"):
        vkmd.Simulation(vkmd.System.from_amber(data("tiny.prmtop")), device=DEVICE, dt=-1)
    with pytest.raises(ValueError, match="cpu"):
        vkmd.System.from_amber(data("tiny.prmtop")).energy(device="cpu")
    with pytest.raises(vkmd.VkmdError, match="(?i)device"):
        vkmd.Context("no-such-device-name")


def test_shapes_dtypes_closed():
    sim = vkmd.Simulation(vkmd.System.from_amber(data("tiny.prmtop")), device=DEVICE)
    with pytest.raises(ValueError, match=r"shape \(4, 3\), expected \(5, 3\)"):
        sim.positions = np.zeros((4, 3))
    with pytest.raises(TypeError, match="dtype float32"):
        sim.velocities = np.zeros((5, 3), np.float32)
    with pytest.raises(ValueError, match="non-finite"):
        sim.positions = np.full((5, 3), np.nan)
    with pytest.raises(ValueError):
        sim.step(-1)
    sim.close()
    for call in (lambda: sim.step(1), lambda: sim.positions, sim.energies,
                 lambda: sim.save_checkpoint("x.chk")):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    sim.close()  # twice is fine


def test_bad_checkpoint(tmp_path):
    bad = tmp_path / "bad.chk"
    bad.write_bytes(b"not a checkpoint")
    with vkmd.Simulation(vkmd.System.from_amber(data("tiny.prmtop")), device=DEVICE) as sim:
        with pytest.raises(vkmd.VkmdError, match="bad.chk"):
            sim.load_checkpoint(bad)
        with pytest.raises(vkmd.VkmdError, match="nodir"):
            sim.save_checkpoint(tmp_path / "nodir" / "x.chk")


def test_uff_bad_input():
    m = uff.Molecule.from_file("formic-acid")
    b = uff.Batch(m, 3, device=DEVICE)
    with pytest.raises(ValueError, match=r"expected \(3, 5, 3\)"):
        b.positions = np.zeros((2, 5, 3))
    with pytest.raises(TypeError, match="dtype int64"):
        b.positions = np.zeros((3, 5, 3), np.int64)
    with pytest.raises(ValueError, match="'newton'"):
        b.relax(minimizer="newton")
    with pytest.raises(vkmd.VkmdError, match="energy_tol"):
        b.relax(minimizer="fire", energy_tol=1e-6)
    with pytest.raises(vkmd.VkmdError, match="memory 17"):
        b.relax(memory=17)
    with pytest.raises(IndexError):
        b.debug(3)
    with pytest.raises(vkmd.VkmdError, match="nosuch.xyz"):
        b.surface("/nonexistent/nosuch.xyz")
    with pytest.raises(vkmd.VkmdError, match="bond 1"):
        uff.Molecule.from_arrays([6, 8], [[0, 0, 1]], np.zeros((2, 3)))
    with pytest.raises(ValueError):
        uff.Batch([m, m], 4, device=DEVICE)
    with pytest.raises(vkmd.VkmdError, match="molecule 2"):
        uff.Batch([m], [0, 2], device=DEVICE)
    b.close()
    with pytest.raises(RuntimeError, match="closed"):
        b.evaluate()


def test_openmm_constrained_bonds():
    app = pytest.importorskip("openmm.app")
    pytest.importorskip("parmed")
    p = app.AmberPrmtopFile(data("water_nacl.prmtop"))
    c = app.AmberInpcrdFile(data("water_nacl.inpcrd"))
    omm = p.createSystem(nonbondedMethod=app.PME, nonbondedCutoff=0.9)  # rigid water
    with pytest.raises(ValueError, match="rigidWater=False"):
        vkmd.System.from_openmm(p.topology, omm, c.positions)
