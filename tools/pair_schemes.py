#!/usr/bin/python3
"""Pair evaluations per unique pair within the cutoff, for models of the
cluster schemes of vkmd, GROMACS and OpenMM on one configuration.

    /usr/bin/python3 tools/pair_schemes.py final.pdb [--cutoff 9]

The PDB needs a CRYST1 box (orthorhombic). Each scheme is a model, not the
program: atoms are grouped the way the scheme groups them and the computed
lane pairs are counted the way its kernel computes them (masked or not).

- vkmd: 8-atom clusters of consecutive atoms along cell rows ordered on a
  Hilbert curve (forces/pass_neighbor.h), cluster pairs of the inner list (radius
  cutoff + 1 A skin) kept when any atom pair is within it (the device prune),
  64 lane pairs per tile, the diagonal tile counted whole.
- GROMACS (nbnxm, CPU 4x4 and GPU 8x8 shapes): clusters of C atoms stacked
  along z in columns of a 2-D x/y grid, cluster pairs by bounding-box
  distance within rlist (no atom-level prune), C*C lane pairs each.
- OpenMM (CUDA/OpenCL): 32-atom blocks of the spatially sorted atoms; each
  block computes 32 lanes against every atom of its own or a later block
  within the padded cutoff (1.08 x cutoff) of any block atom.

Needs numpy and scipy (Debian: python3-numpy, python3-scipy)."""
import argparse

import numpy as np
from scipy.spatial import cKDTree


def load_pdb(path):
    xyz, box = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("CRYST1"):
                box = np.array([float(line[6:15]), float(line[15:24]), float(line[24:33])])
            elif line.startswith(("ATOM", "HETATM")):
                xyz.append([float(line[30:38]), float(line[38:46]), float(line[46:54])])
    if box is None:
        raise SystemExit(f"{path}: no CRYST1 record (a periodic box is needed)")
    return np.array(xyz), box


def hilbert_index(side, x, y):
    d, s = 0, side // 2
    while s > 0:
        rx, ry = int(bool(x & s)), int(bool(y & s))
        d += s * s * ((3 * rx) ^ ry)
        if ry == 0:
            if rx == 1:
                x, y = side - 1 - x, side - 1 - y
            x, y = y, x
        s //= 2
    return d


def vkmd_clusters(w, box, size=8):
    """Rows of cells along x at one (y, z), rows on a 2-D Hilbert curve, a
    row's atoms by x cell then index, cut into clusters inside the row."""
    n = len(w)
    edge = (size / (n / np.prod(box))) ** (1 / 3)
    g = np.array([max(1, int(box[0] / (0.25 * edge))), max(1, int(box[1] / edge)),
                  max(1, int(box[2] / edge))])
    c = np.minimum((w / (box / g)).astype(int), g - 1)
    side = 1
    while side < max(g[1], g[2]):
        side *= 2
    rank = {}
    keys = sorted((hilbert_index(side, y, z), y * g[2] + z)
                  for y in range(g[1]) for z in range(g[2]))
    for r, (_, row) in enumerate(keys):
        rank[row] = r
    row_rank = np.array([rank[c[i, 1] * g[2] + c[i, 2]] for i in range(n)])
    return cut_runs(np.lexsort((np.arange(n), c[:, 0], row_rank)), row_rank, size)


def gromacs_clusters(w, box, size):
    """Columns of a 2-D x/y grid about `size` atoms across, atoms by z."""
    a = (size / (len(w) / np.prod(box))) ** (1 / 3)
    g = np.array([max(1, int(box[0] / a)), max(1, int(box[1] / a))])
    c = np.minimum((w[:, :2] / (box[:2] / g)).astype(int), g - 1)
    col = c[:, 0] * g[1] + c[:, 1]
    return cut_runs(np.lexsort((w[:, 2], col)), col, size)


def cut_runs(order, key, size):
    groups, cur, cur_key = [], [], None
    for i in order:
        if key[i] != cur_key:
            if cur:
                groups.append(cur)
            cur, cur_key = [], key[i]
        cur.append(i)
        if len(cur) == size:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return groups


def cluster_pairs(w, box, groups, radius, atom_prune):
    """Cluster pairs (i < j, plus each cluster with itself) whose bounding
    boxes are within `radius`; with atom_prune only those with an atom pair
    within it."""
    pts, lo, hi = [], [], []
    for grp in groups:
        p = w[grp]
        p = p - box * np.round((p - p[0]) / box)
        pts.append(p)
        lo.append(p.min(0))
        hi.append(p.max(0))
    lo, hi = np.array(lo), np.array(hi)
    cen, half = (lo + hi) / 2, (hi - lo) / 2
    tree = cKDTree(cen - box * np.floor(cen / box), boxsize=box * (1 + 1e-12))
    cand = tree.query_pairs(radius + 2 * half.max() * np.sqrt(3), output_type="ndarray")
    i, j = cand[:, 0], cand[:, 1]
    d = cen[j] - cen[i]
    d -= box * np.round(d / box)
    gap = np.maximum(0, np.abs(d) - half[i] - half[j])
    keep = (gap ** 2).sum(1) < radius * radius
    i, j = i[keep], j[keep]
    if not atom_prune:
        return len(groups) + len(i)
    kept = 0
    for a, b in zip(i, j):
        dd = pts[b][None, :, :] - pts[a][:, None, :]
        dd -= box * np.round(dd / box)
        kept += bool(((dd ** 2).sum(2) < radius * radius).any())
    return len(groups) + kept


def openmm_lane_pairs(w, box, order, cutoff):
    blocks = [order[k:k + 32] for k in range(0, len(order), 32)]
    block_of = np.empty(len(w), int)
    for b, grp in enumerate(blocks):
        block_of[grp] = b
    tree = cKDTree(w, boxsize=box * (1 + 1e-12))
    padded = 1.08 * cutoff
    lanes = 0
    for b, grp in enumerate(blocks):
        near = set()
        for a in grp:
            near.update(j for j in tree.query_ball_point(w[a], padded) if block_of[j] >= b)
        lanes += 32 * len(near)
    return lanes, padded


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pdb")
    ap.add_argument("--cutoff", type=float, default=9.0, help="A (default 9)")
    a = ap.parse_args()
    x, box = load_pdb(a.pdb)
    w = x - box * np.floor(x / box)
    rc = a.cutoff
    pairs = len(cKDTree(w, boxsize=box * (1 + 1e-12)).query_pairs(rc))
    print(f"{len(w)} atoms, box {box[0]:.2f} x {box[1]:.2f} x {box[2]:.2f} A, "
          f"{pairs} unique pairs within {rc:g} A (exclusions not removed)")
    print("scheme | lane pairs per step | ratio to pairs within the cutoff")
    groups = vkmd_clusters(w, box)
    tiles = cluster_pairs(w, box, groups, rc + 1.0, True)
    print(f"vkmd 8x8, inner list {rc + 1:g} A, pruned per atom pair | {64 * tiles} | "
          f"{64 * tiles / pairs:.2f}")
    for size, rl in ((4, rc), (4, rc + 1.0), (8, rc + 1.0)):
        n = cluster_pairs(w, box, gromacs_clusters(w, box, size), rl, False)
        print(f"GROMACS-like {size}x{size}, rlist {rl:g} A, bounding boxes | {size * size * n} | "
              f"{size * size * n / pairs:.2f}")
    lanes, padded = openmm_lane_pairs(w, box, [i for g in groups for i in g], rc)
    print(f"OpenMM-like 32-atom blocks, padded cutoff {padded:.2f} A | {lanes} | "
          f"{lanes / pairs:.2f}")


if __name__ == "__main__":
    main()
