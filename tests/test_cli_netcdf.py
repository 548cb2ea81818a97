#!/usr/bin/python3
"""MDTraj's view of the NetCDF files a `vkmd run` wrote (run by tests/test_cli_netcdf.sh).

Usage:
  test_cli_netcdf.py mdtraj TRAJ_NC RESTART_NCRST PDB ENERGY_CSV FRAMES STEPS_PER_FRAME DT_FS
      TRAJ_NC, RESTART_NCRST, PDB (final.pdb: the topology) and ENERGY_CSV from one
      constant-volume run. Checks: md.load_netcdf gives FRAMES frames of the PDB's
      atoms, coordinates (nm) equal to MDTraj's raw reader's (A, float32), time
      k * STEPS_PER_FRAME * DT_FS / 1000 ps, energy.csv's box (nm) and 90-degree
      angles; the restart holds doubles, md.load_ncrestrt gives them (nm), and they
      equal the last frame to float precision; its time and box; its velocities
      (scale_factor 20.455, units angstrom/picosecond) give the kinetic energy of the
      last energy.csv row (element masses: 1e-3 relative).
  test_cli_netcdf.py same A.ncrst B.ncrst
      The coordinates, velocities and cell of two restarts are equal bit for bit.
  test_cli_netcdf.py frames A.nc B.nc
      The frames (coordinates, cells, times) of two trajectories are equal bit for bit.
Prints one line per check; exits 1 on any failure, including a missing MDTraj.
"""
import sys

try:
    import numpy as np
    import mdtraj as md
    from mdtraj.formats import NetCDFTrajectoryFile
    from scipy.io import netcdf_file
except ImportError as e:  # the test fails, it does not skip
    print("FAIL: cannot import mdtraj/scipy (Debian python3-mdtraj): %s" % e)
    sys.exit(1)

failures = 0


def check(ok, what):
    global failures
    print("  %-4s %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        failures += 1


def energy_rows(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    head = lines[0].strip().split(",")
    return [dict(zip(head, map(float, l.split(",")))) for l in lines[1:]]


def mdtraj_checks(nc, ncrst, pdb, csv, frames, every, dt_fs):
    print("mdtraj %s reads %s and %s" % (md.version.version, nc, ncrst))
    t = md.load_netcdf(nc, top=pdb)
    top = md.load_pdb(pdb)
    check(t.n_frames == frames and t.n_atoms == top.n_atoms,
          "md.load_netcdf: %d frames of %d atoms (want %d of %d)"
          % (t.n_frames, t.n_atoms, frames, top.n_atoms))
    with NetCDFTrajectoryFile(nc) as f:
        raw_xyz, raw_time, raw_len, raw_ang = f.read()
    check(raw_xyz.dtype.kind == "f" and raw_xyz.dtype.itemsize == 4,
          "coordinates stored as float32 (%s)" % raw_xyz.dtype)
    if t.n_frames == frames:
        err = np.max(np.abs(t.xyz.astype(np.float64) * 10.0 - raw_xyz))
        check(err < 1e-5, "md.load_netcdf: max |10 xyz_nm - xyz_A| = %.3g A" % err)
    want_t = np.array([(k + 1) * every * dt_fs / 1000.0 for k in range(frames)])
    check(t.time.shape == want_t.shape and np.allclose(t.time, want_t, rtol=1e-6, atol=0),
          "time %s ps (want %s)" % (t.time, want_t))
    rows = energy_rows(csv)
    box = np.array([rows[0]["box_%s_A" % c] for c in "xyz"])  # constant volume
    want_box = np.tile(box, (frames, 1))
    ok = t.unitcell_lengths is not None
    if ok:
        err = np.max(np.abs(t.unitcell_lengths * 10.0 - want_box))
        ang = np.max(np.abs(t.unitcell_angles - 90.0))
        ok = err < 1e-5 and ang == 0
        check(ok, "unit cell: max |10 L_nm - energy.csv box| = %.3g A, max |angle - 90| = %g"
              % (err, ang))
    else:
        check(False, "md.load_netcdf found no unit cell")

    r = md.load_ncrestrt(ncrst, top=pdb)
    check(r.n_frames == 1 and r.n_atoms == top.n_atoms,
          "md.load_ncrestrt: %d frame of %d atoms" % (r.n_frames, r.n_atoms))
    f = netcdf_file(ncrst, "r", mmap=False)
    conv = f.Conventions.decode()
    x = f.variables["coordinates"][:].astype(np.float64)
    check(conv == "AMBERRESTART" and f.variables["coordinates"].typecode() == "d",
          "restart: Conventions %s, coordinates as doubles" % conv)
    err = np.max(np.abs(x - raw_xyz[-1].astype(np.float64)) / np.maximum(np.abs(x), 1.0))
    check(err < 1e-6, "restart coordinates = last frame to float precision (%.3g)" % err)
    err = np.max(np.abs(r.xyz[0].astype(np.float64) * 10.0 - x))
    check(err < 1e-5, "md.load_ncrestrt coordinates (nm) = the file's (A): %.3g A" % err)
    t_end = frames * every * dt_fs / 1000.0
    check(abs(float(r.time[0]) - t_end) < 1e-9, "restart time %g ps (want %g)" % (r.time[0], t_end))
    check(np.allclose(r.unitcell_lengths[0] * 10.0, want_box[-1], rtol=0, atol=1e-5) and
          np.all(r.unitcell_angles[0] == 90.0),
          "restart cell %s nm, angles %s" % (r.unitcell_lengths[0], r.unitcell_angles[0]))
    vel = f.variables["velocities"]
    sf = float(vel.scale_factor)
    units = vel.units.decode()
    check(sf == 20.455 and units == "angstrom/picosecond",
          "velocities: scale_factor %g, units %s" % (sf, units))
    v = vel[:].astype(np.float64) * sf  # A/ps
    mass = np.array([a.element.mass for a in top.topology.atoms])
    # 1 amu A^2 / ps^2 = 1.660539e-23 J = 2.390057e-3 kcal/mol
    ke = 0.5 * np.sum(mass[:, None] * v * v) * 1.660539e-23 * 6.02214076e23 / 4184.0
    want_ke = rows[-1]["kinetic_kcal_mol"]
    check(abs(ke - want_ke) < 1e-3 * want_ke,
          "kinetic energy of the restart's velocities %.4f kcal/mol, energy.csv %.4f" % (ke, want_ke))
    f.close()


def same_restarts(a, b):
    fa, fb = netcdf_file(a, "r", mmap=False), netcdf_file(b, "r", mmap=False)
    for k in ("coordinates", "velocities", "cell_lengths", "cell_angles"):
        x, y = fa.variables[k][:], fb.variables[k][:]
        check(x.shape == y.shape and np.array_equal(x, y),
              "%s equal bit for bit (max |a - b| %.3g)" % (k, np.max(np.abs(x - y))))


def same_frames(a, b):
    with NetCDFTrajectoryFile(a) as f:
        xa = f.read()
    with NetCDFTrajectoryFile(b) as f:
        xb = f.read()
    check(xa[0].shape == xb[0].shape, "%d and %d frames" % (xa[0].shape[0], xb[0].shape[0]))
    for name, x, y in zip(("coordinates", "time", "cell lengths", "cell angles"), xa, xb):
        check(x.shape == y.shape and np.array_equal(x, y), "%s equal bit for bit" % name)


def main():
    what = sys.argv[1]
    if what == "mdtraj":
        nc, ncrst, pdb, csv = sys.argv[2:6]
        mdtraj_checks(nc, ncrst, pdb, csv, int(sys.argv[6]), int(sys.argv[7]), float(sys.argv[8]))
    elif what == "same":
        same_restarts(sys.argv[2], sys.argv[3])
    elif what == "frames":
        same_frames(sys.argv[2], sys.argv[3])
    else:
        print("FAIL: unknown check %s" % what)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
