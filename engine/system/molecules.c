/* Molecules of a system and making them whole (see molecules.h).
 *
 * Components by union-find over the bonds and the water O-H pairs; the
 * breadth-first walk that make_whole follows is built once here, so
 * make_whole allocates nothing and cannot fail. */
#include "system/molecules.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int32_t find_root(int32_t *up, int32_t a)
{
    while (up[a] != a) {
        up[a] = up[up[a]];
        a = up[a];
    }
    return a;
}

static void unite(int32_t *up, int32_t a, int32_t b)
{
    a = find_root(up, a);
    b = find_root(up, b);
    if (a < b)
        up[b] = a;
    else if (b < a)
        up[a] = b;
}

/* Edges: every bond, then each water's O-H1 and O-H2. */
static int32_t edge_count(const vkmd_system *sys)
{
    return sys->bond_count + 2 * sys->water_count;
}

static void edge_at(const vkmd_system *sys, int32_t e, int32_t *out_a, int32_t *out_b)
{
    if (e < sys->bond_count) {
        *out_a = sys->bonds[e].i;
        *out_b = sys->bonds[e].j;
    } else {
        const vkmd_water *w = &sys->waters[(e - sys->bond_count) / 2];
        *out_a = w->o;
        *out_b = (e - sys->bond_count) % 2 ? w->h2 : w->h1;
    }
}

vkmd_result vkmd_molecules_build(const vkmd_system *sys, vkmd_molecules *out)
{
    memset(out, 0, sizeof *out);
    const int32_t n = sys->atom_count, ne = edge_count(sys);
    const size_t na = (size_t)n + 1;
    int32_t *up = malloc(na * sizeof *up);
    int32_t *adj_first = calloc(na, sizeof *adj_first);
    int32_t *adj = malloc(((size_t)2 * ne + 1) * sizeof *adj);
    int32_t *fill = calloc(na, sizeof *fill);
    out->atom_molecule = malloc(na * sizeof *out->atom_molecule);
    out->first = calloc(na + 1, sizeof *out->first);
    out->atoms = malloc(na * sizeof *out->atoms);
    out->walk = malloc(na * sizeof *out->walk);
    out->parent = malloc(na * sizeof *out->parent);
    if (!up || !adj_first || !adj || !fill || !out->atom_molecule || !out->first || !out->atoms ||
        !out->walk || !out->parent) {
        free(up);
        free(adj_first);
        free(adj);
        free(fill);
        vkmd_molecules_destroy(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "molecules: %d atoms, %d bonds", n, ne);
    }
    for (int32_t a = 0; a < n; ++a)
        up[a] = a;
    for (int32_t e = 0; e < ne; ++e) {
        int32_t a, b;
        edge_at(sys, e, &a, &b);
        unite(up, a, b);
        ++adj_first[a + 1];
        ++adj_first[b + 1];
    }
    for (int32_t a = 0; a < n; ++a)
        adj_first[a + 1] += adj_first[a];
    for (int32_t e = 0; e < ne; ++e) {
        int32_t a, b;
        edge_at(sys, e, &a, &b);
        adj[adj_first[a] + fill[a]++] = b;
        adj[adj_first[b] + fill[b]++] = a;
    }
    /* Every root is its component's lowest atom (unite keeps the lower), so
     * numbering roots in atom order numbers molecules by their lowest atom. */
    int32_t count = 0;
    for (int32_t a = 0; a < n; ++a) {
        const int32_t r = find_root(up, a);
        out->atom_molecule[a] = r == a ? count++ : out->atom_molecule[r];
    }
    for (int32_t a = 0; a < n; ++a)
        ++out->first[out->atom_molecule[a] + 1];
    for (int32_t m = 0; m < count; ++m)
        out->first[m + 1] += out->first[m];
    memset(fill, 0, na * sizeof *fill);
    for (int32_t a = 0; a < n; ++a) {
        const int32_t m = out->atom_molecule[a];
        out->atoms[out->first[m] + fill[m]++] = a;
    }
    /* Breadth-first walks; `up` becomes the visited flag. */
    for (int32_t a = 0; a < n; ++a)
        up[a] = 0;
    for (int32_t m = 0; m < count; ++m) {
        int32_t head = out->first[m], tail = out->first[m];
        const int32_t root = out->atoms[out->first[m]];
        out->walk[tail++] = root;
        out->parent[root] = -1;
        up[root] = 1;
        while (head < tail) {
            const int32_t a = out->walk[head++];
            for (int32_t k = adj_first[a]; k < adj_first[a + 1]; ++k) {
                const int32_t b = adj[k];
                if (!up[b]) {
                    up[b] = 1;
                    out->parent[b] = a;
                    out->walk[tail++] = b;
                }
            }
        }
    }
    out->count = count;
    free(up);
    free(adj_first);
    free(adj);
    free(fill);
    return VKMD_OK;
}

void vkmd_molecules_destroy(vkmd_molecules *m)
{
    free(m->atom_molecule);
    free(m->first);
    free(m->atoms);
    free(m->walk);
    free(m->parent);
    memset(m, 0, sizeof *m);
}

/* A triclinic box: each atom moved by a lattice vector to the minimum image
 * of its parent, then the molecule by the lattice vector that puts its first
 * atom into the brick of vkmd_box_wrap_shift (as OpenMM wraps). */
static void make_whole_triclinic(const vkmd_box *box, const vkmd_molecules *m, double *xyz)
{
    for (int32_t mol = 0; mol < m->count; ++mol) {
        const int32_t begin = m->first[mol], end = m->first[mol + 1];
        for (int32_t k = begin + 1; k < end; ++k) {
            const int32_t a = m->walk[k], p = m->parent[a];
            double d0[3], d[3];
            for (int c = 0; c < 3; ++c)
                d[c] = d0[c] = xyz[3 * a + c] - xyz[3 * p + c];
            vkmd_box_min_image(box, d);
            for (int c = 0; c < 3; ++c)
                xyz[3 * a + c] += d[c] - d0[c];
        }
        double shift[3];
        vkmd_box_wrap_shift(box, &xyz[3 * m->walk[begin]], shift);
        if (shift[0] == 0 && shift[1] == 0 && shift[2] == 0)
            continue;
        for (int32_t k = begin; k < end; ++k)
            for (int c = 0; c < 3; ++c)
                xyz[3 * m->walk[k] + c] += shift[c];
    }
}

void vkmd_molecules_make_whole(const vkmd_system *sys, const vkmd_molecules *m, double *xyz)
{
    if (!sys->box.periodic)
        return;
    if (sys->box.triclinic) {
        make_whole_triclinic(&sys->box, m, xyz);
        return;
    }
    const double *len = sys->box.len;
    for (int32_t mol = 0; mol < m->count; ++mol) {
        const int32_t begin = m->first[mol], end = m->first[mol + 1];
        /* each atom by whole box vectors to the minimum image of its parent */
        for (int32_t k = begin + 1; k < end; ++k) {
            const int32_t a = m->walk[k], p = m->parent[a];
            for (int c = 0; c < 3; ++c) {
                const double shift = floor((xyz[3 * a + c] - xyz[3 * p + c]) / len[c] + 0.5);
                xyz[3 * a + c] -= shift * len[c];
            }
        }
        /* then the molecule so that its first atom is in [0, L) */
        const int32_t root = m->walk[begin];
        for (int c = 0; c < 3; ++c) {
            double shift = floor(xyz[3 * root + c] / len[c]);
            if (xyz[3 * root + c] - shift * len[c] >= len[c]) /* rounding at -tiny */
                shift += 1;
            if (shift == 0)
                continue;
            for (int32_t k = begin; k < end; ++k)
                xyz[3 * m->walk[k] + c] -= shift * len[c];
        }
    }
}
