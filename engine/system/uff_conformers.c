/* Conformer grouping, ordering and pruning (see uff_conformers.h). */
#include "system/uff_conformers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int vkmd_uff_same_molecule(const vkmd_uff_molecule *a, const vkmd_uff_molecule *b)
{
    if (a->atom_count != b->atom_count || a->bond_count != b->bond_count)
        return 0;
    for (int32_t i = 0; i < a->atom_count; ++i)
        if (a->z[i] != b->z[i] || a->formal_charge[i] != b->formal_charge[i])
            return 0;
    for (int32_t i = 0; i < a->bond_count; ++i)
        if (a->bonds[i].a != b->bonds[i].a || a->bonds[i].b != b->bonds[i].b ||
            a->bonds[i].order != b->bonds[i].order)
            return 0;
    return 1;
}

/* Largest eigenvalue of the symmetric 4 x 4 matrix n (cyclic Jacobi). */
static double largest_eigenvalue(double n[4][4])
{
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = 0;
        for (int p = 0; p < 4; ++p)
            for (int q = p + 1; q < 4; ++q)
                off += n[p][q] * n[p][q];
        if (off < 1e-30)
            break;
        for (int p = 0; p < 4; ++p)
            for (int q = p + 1; q < 4; ++q) {
                if (fabs(n[p][q]) < 1e-300)
                    continue;
                const double theta = (n[q][q] - n[p][p]) / (2 * n[p][q]);
                const double t =
                    (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
                const double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 4; ++k) { /* columns p, q */
                    const double kp = n[k][p], kq = n[k][q];
                    n[k][p] = c * kp - s * kq;
                    n[k][q] = s * kp + c * kq;
                }
                for (int k = 0; k < 4; ++k) { /* rows p, q */
                    const double pk = n[p][k], qk = n[q][k];
                    n[p][k] = c * pk - s * qk;
                    n[q][k] = s * pk + c * qk;
                }
            }
    }
    double m = n[0][0];
    for (int i = 1; i < 4; ++i)
        m = n[i][i] > m ? n[i][i] : m;
    return m;
}

double vkmd_uff_rmsd(const vkmd_uff_molecule *m, const double *a, const double *b)
{
    int32_t heavy = 0;
    for (int32_t i = 0; i < m->atom_count; ++i)
        heavy += m->z[i] > 1;
    const int all = heavy == 0;
    double ca[3] = {0}, cb[3] = {0};
    int32_t n = 0;
    for (int32_t i = 0; i < m->atom_count; ++i) {
        if (!all && m->z[i] <= 1)
            continue;
        for (int c = 0; c < 3; ++c) {
            ca[c] += a[3 * i + c];
            cb[c] += b[3 * i + c];
        }
        ++n;
    }
    for (int c = 0; c < 3; ++c) {
        ca[c] /= n;
        cb[c] /= n;
    }
    double s[3][3] = {{0}}, g = 0;
    for (int32_t i = 0; i < m->atom_count; ++i) {
        if (!all && m->z[i] <= 1)
            continue;
        double x[3], y[3];
        for (int c = 0; c < 3; ++c) {
            x[c] = a[3 * i + c] - ca[c];
            y[c] = b[3 * i + c] - cb[c];
            g += x[c] * x[c] + y[c] * y[c];
        }
        for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q)
                s[p][q] += x[p] * y[q];
    }
    double k[4][4] = {
        {s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]},
        {s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]},
        {s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]},
        {s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]}};
    const double lmax = largest_eigenvalue(k);
    const double d = (g - 2 * lmax) / n;
    return d > 0 ? sqrt(d) : 0.0;
}

typedef struct sort_key {
    int32_t group, index;
    double energy;
} sort_key;

static int key_cmp(const void *pa, const void *pb)
{
    const sort_key *a = pa, *b = pb;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->energy != b->energy)
        return a->energy < b->energy ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

vkmd_result vkmd_uff_conformers_order(const vkmd_uff_molecule *const *records,
                                      const double *const *xyz, const double *energy, int32_t count,
                                      double prune_rms_a, int32_t *out_order, int32_t *out_kept,
                                      double *out_relative)
{
    sort_key *keys = calloc((size_t)count, sizeof *keys);
    int32_t *first = calloc((size_t)count, sizeof *first); /* group -> first record */
    if (!keys || !first) {
        free(keys);
        free(first);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "order of %d conformers", count);
    }
    int32_t groups = 0;
    for (int32_t k = 0; k < count; ++k) {
        int32_t g = 0;
        while (g < groups && !vkmd_uff_same_molecule(records[first[g]], records[k]))
            ++g;
        if (g == groups)
            first[groups++] = k;
        keys[k] = (sort_key){g, k, energy[k]};
    }
    qsort(keys, (size_t)count, sizeof *keys, key_cmp);
    int32_t kept = 0, group_start = 0; /* first kept entry of the current group */
    double lowest = 0;
    for (int32_t i = 0; i < count; ++i) {
        const sort_key *key = &keys[i];
        if (i == 0 || key->group != keys[i - 1].group) {
            group_start = kept;
            lowest = key->energy;
        }
        if (out_relative)
            out_relative[key->index] = key->energy - lowest;
        int dup = 0;
        for (int32_t j = group_start; j < kept && prune_rms_a > 0 && !dup; ++j)
            dup = vkmd_uff_rmsd(records[key->index], xyz[out_order[j]], xyz[key->index]) <
                  prune_rms_a;
        if (!dup)
            out_order[kept++] = key->index;
    }
    *out_kept = kept;
    free(keys);
    free(first);
    return VKMD_OK;
}
