#!/usr/bin/python3
"""OpenMM's speed on a water box in vkmd bench's settings, for docs/BENCHMARKS.md.

The box is vkmd's own: pass the PDB that `vkmd run water:N --steps 0 --out DIR`
writes (DIR/final.pdb, TIP3P waters with CRYST1), or an AMBER prmtop with its
.inpcrd beside it (e.g. the DHFR benchmark system). Settings as `vkmd bench`:
PME, 9 A cutoff, Ewald tolerance 5e-4, bonds to H constrained, rigid water,
Langevin middle 300 K 1/ps, 4 fs with hydrogen masses 1.5 amu or 2 fs (a
prmtop without a box: no cutoff, every pair, as vkmd in vacuum); 50
minimiser iterations, 100 warm-up steps, then STEPS timed steps.

usage: /usr/bin/python3 tools/openmm_bench.py BOX.pdb|SYSTEM.prmtop [--dt 4|2] [--steps N]
       [--platform CPU|Reference|...] [--threads N] [--implicit hct|obc1|obc2|gbn|gbn2]
Prints one JSON line: platform, atoms, dt_fs, steps, wall_s, ns_per_day.
"""
import argparse
import json
import time

try:
    import openmm as mm
    from openmm import app, unit
except ImportError:  # OpenMM 7.7 as packaged by Debian
    from simtk import openmm as mm
    from simtk.openmm import app
    from simtk import unit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdb")
    ap.add_argument("--dt", type=float, default=4.0)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--platform", default="CPU")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--implicit", choices=["hct", "obc1", "obc2", "gbn", "gbn2"],
                    help="generalized Born (a prmtop with GB radii, no box), as vkmd --implicit")
    a = ap.parse_args()
    hmass = 1.5 * unit.amu if a.dt > 3 else None
    opts = dict(nonbondedMethod=app.PME, nonbondedCutoff=0.9 * unit.nanometer,
                ewaldErrorTolerance=5e-4, constraints=app.HBonds, rigidWater=True,
                hydrogenMass=hmass)
    if a.pdb.endswith(".prmtop"):
        pdb = app.AmberInpcrdFile(a.pdb[:-len(".prmtop")] + ".inpcrd")
        prmtop = app.AmberPrmtopFile(a.pdb)
        topology = prmtop.topology
        if topology.getPeriodicBoxVectors() is None:  # vacuum: every pair, as vkmd
            del opts["ewaldErrorTolerance"], opts["nonbondedCutoff"]
            opts["nonbondedMethod"] = app.NoCutoff
        if a.implicit:
            opts["implicitSolvent"] = {"hct": app.HCT, "obc1": app.OBC1, "obc2": app.OBC2,
                                       "gbn": app.GBn, "gbn2": app.GBn2}[a.implicit]
        system = prmtop.createSystem(**opts)
    else:
        pdb = app.PDBFile(a.pdb)
        topology = pdb.topology
        system = app.ForceField("amber14/tip3p.xml").createSystem(topology, **opts)
    integ = mm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond,
                                        a.dt * unit.femtoseconds)
    platform = mm.Platform.getPlatformByName(a.platform)
    props = {"Threads": str(a.threads)} if a.threads and a.platform == "CPU" else {}
    sim = app.Simulation(topology, system, integ, platform, props)
    sim.context.setPositions(pdb.positions)
    if getattr(pdb, "boxVectors", None) is not None:
        sim.context.setPeriodicBoxVectors(*pdb.boxVectors)
    sim.minimizeEnergy(maxIterations=50)
    sim.context.setVelocitiesToTemperature(300 * unit.kelvin, 1)
    sim.step(100)
    sim.context.getState(getEnergy=True)
    t0 = time.perf_counter()
    sim.step(a.steps)
    sim.context.getState(getEnergy=True)  # waits for the steps to finish
    wall = time.perf_counter() - t0
    ns_day = a.steps * a.dt * 1e-6 / wall * 86400
    print(json.dumps({"engine": "OpenMM " + mm.Platform.getOpenMMVersion(),
                      "platform": a.platform,
                      "threads": platform.getPropertyValue(sim.context, "Threads")
                      if a.platform == "CPU" else None,
                      "atoms": system.getNumParticles(), "dt_fs": a.dt, "steps": a.steps,
                      "wall_s": round(wall, 4), "ns_per_day": round(ns_day, 4)}))


if __name__ == "__main__":
    main()
