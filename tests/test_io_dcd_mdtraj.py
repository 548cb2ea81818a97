#!/usr/bin/python3
"""MDTraj's view of a DCD written by vkmd (run by tests/test_io_dcd_mdtraj.c).

Arguments: DCD PDB EXPECTED OUT_DCD
  DCD       written by vkmd_dcd_writer
  PDB       the same system written by vkmd_pdb_write (topology for mdtraj)
  EXPECTED  text: "frames F atoms N periodic P", then per frame "box A B C
            [ALPHA BETA GAMMA]" (periodic only; angles 90 when not given) and N lines "x y z" (A, the float32 values written)
  OUT_DCD   this script writes the frames back in reverse order with MDTraj's
            own DCD writer, for the C side to read with vkmd's reader.

Checks: md.load_dcd with the PDB topology gives the frame and atom counts, the
coordinates in nm (10x smaller than A) and the box lengths in nm with the
written angles (90 unless given); MDTraj's raw reader (DCDTrajectoryFile, A) gives the written
float32 values bit for bit. Exits 1 on any failure, including a missing MDTraj.
"""
import sys

try:
    import numpy as np
    import mdtraj as md
    from mdtraj.formats import DCDTrajectoryFile
except ImportError as e:  # the test fails, it does not skip
    print("FAIL: cannot import mdtraj (Debian package python3-mdtraj): %s" % e)
    sys.exit(1)


def read_expected(path):
    with open(path) as f:
        head = f.readline().split()
        frames, atoms, periodic = int(head[1]), int(head[3]), int(head[5])
        boxes, angles, xyz = [], [], []
        for _ in range(frames):
            if periodic:
                b = f.readline().split()
                assert b[0] == "box", b
                boxes.append([float(v) for v in b[1:4]])
                angles.append([float(v) for v in b[4:7]] if len(b) == 7 else [90.0] * 3)
            xyz.append([[float(v) for v in f.readline().split()] for _ in range(atoms)])
    return (np.array(xyz, dtype=np.float64), np.array(boxes) if periodic else None,
            np.array(angles) if periodic else None, periodic)


def main():
    dcd, pdb, expected, out_dcd = sys.argv[1:5]
    want_xyz, want_box, want_ang, periodic = read_expected(expected)
    frames, atoms = want_xyz.shape[0], want_xyz.shape[1]
    failures = 0

    def check(ok, what):
        nonlocal failures
        print("  %-4s %s" % ("ok" if ok else "FAIL", what))
        if not ok:
            failures += 1

    print("mdtraj %s reads %s" % (md.version.version, dcd))
    t = md.load_dcd(dcd, top=pdb)
    check(t.n_frames == frames and t.n_atoms == atoms,
          "md.load_dcd: %d frames of %d atoms (want %d of %d)" % (t.n_frames, t.n_atoms, frames,
                                                                  atoms))
    if t.n_frames == frames and t.n_atoms == atoms:
        err = np.max(np.abs(t.xyz.astype(np.float64) * 10.0 - want_xyz))
        check(err < 1e-5, "coordinates: max |10 xyz_nm - xyz_A| = %.3g A" % err)
    if periodic:
        ok = t.unitcell_lengths is not None
        if ok:
            err = np.max(np.abs(t.unitcell_lengths.astype(np.float64) * 10.0 - want_box))
            ang = np.max(np.abs(t.unitcell_angles - want_ang))
            print("    box frame 0: %s nm, angles %s" % (t.unitcell_lengths[0], t.unitcell_angles[0]))
            ok = err < 1e-5 and ang < 1e-4
            check(ok, "box lengths: max |10 L_nm - L_A| = %.3g A, max |angle - written| = %.3g deg"
                  % (err, ang))
        else:
            check(False, "box: mdtraj found no unit cell")
    else:
        check(t.unitcell_lengths is None, "no unit cell (got %s)" % (t.unitcell_lengths,))

    with DCDTrajectoryFile(dcd) as f:
        raw_xyz, raw_len, raw_ang = f.read()
    want32 = want_xyz.astype(np.float32)
    check(raw_xyz.shape == want32.shape and np.array_equal(raw_xyz, want32),
          "DCDTrajectoryFile: coordinates in A equal the float32 values written")
    if periodic:
        check(np.allclose(raw_len, want_box, rtol=0, atol=1e-4) and
              np.allclose(raw_ang, want_ang, rtol=0, atol=1e-4),
              "DCDTrajectoryFile: cell lengths %s A, angles %s" % (raw_len[0], raw_ang[0]))

    # Frames back in reverse order through MDTraj's writer.
    with DCDTrajectoryFile(out_dcd, "w") as f:
        if periodic:
            f.write(raw_xyz[::-1], cell_lengths=raw_len[::-1], cell_angles=raw_ang[::-1])
        else:
            f.write(raw_xyz[::-1])
    print("  wrote %s (mdtraj's writer, frames reversed)" % out_dcd)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
