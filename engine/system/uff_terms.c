/* Enumeration and parameters of the UFF terms (see uff_terms.h). */
#include "system/uff_terms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double vkmd_uff_bond_rest_length(double order, const vkmd_uff_atom_params *a,
                                 const vkmd_uff_atom_params *b)
{
    double ri = a->r1, rj = b->r1;
    double r_bo = -VKMD_UFF_BO_LAMBDA * (ri + rj) * log(order);
    double d = sqrt(a->xi) - sqrt(b->xi);
    double r_en = ri * rj * d * d / (a->xi * ri + b->xi * rj);
    return ri + rj + r_bo - r_en;
}

double vkmd_uff_bond_force_constant(double r0, const vkmd_uff_atom_params *a,
                                    const vkmd_uff_atom_params *b)
{
    return 2.0 * VKMD_UFF_G * a->z1 * b->z1 / (r0 * r0 * r0);
}

double vkmd_uff_angle_force_constant(double theta0, double order_ij, double order_jk,
                                     const vkmd_uff_atom_params *i, const vkmd_uff_atom_params *j,
                                     const vkmd_uff_atom_params *k)
{
    double c = cos(theta0);
    double r12 = vkmd_uff_bond_rest_length(order_ij, i, j);
    double r23 = vkmd_uff_bond_rest_length(order_jk, j, k);
    double r13 = sqrt(r12 * r12 + r23 * r23 - 2.0 * r12 * r23 * c);
    double beta = 2.0 * VKMD_UFF_G / (r12 * r23);
    double r13_5 = r13 * r13 * r13 * r13 * r13;
    double pre = beta * i->z1 * k->z1 / r13_5;
    double rr = r12 * r23;
    return pre * rr * (3.0 * rr * (1.0 - c * c) - r13 * r13 * c);
}

double vkmd_uff_torsion_sp2_barrier(double order, const vkmd_uff_atom_params *j,
                                    const vkmd_uff_atom_params *k)
{
    return 5.0 * sqrt(j->u1 * k->u1) * (1.0 + 4.18 * log(order));
}

void vkmd_uff_inversion_params(int32_t z, int bound_to_sp2_oxygen, double *out_k, double *out_c0,
                               double *out_c1, double *out_c2)
{
    double k, c0, c1, c2;
    if (z == 6 || z == 7 || z == 8) {
        c0 = 1.0;
        c1 = -1.0;
        c2 = 0.0;
        k = z == 6 && bound_to_sp2_oxygen ? 50.0 : 6.0;
    } else {
        double w0 = M_PI / 180.0;
        switch (z) {
        case 15:
            w0 *= 84.4339;
            break;
        case 33:
            w0 *= 86.9735;
            break;
        case 51:
            w0 *= 87.7047;
            break;
        default: /* Bi */
            w0 *= 90.0;
            break;
        }
        c2 = 1.0;
        c1 = -4.0 * cos(w0);
        c0 = -(c1 * cos(w0) + c2 * cos(2.0 * w0));
        k = 22.0 / (c0 + c1 + c2);
    }
    *out_k = k / 3.0;
    *out_c0 = c0;
    *out_c1 = c1;
    *out_c2 = c2;
}

static int in_group16(int32_t z)
{
    return z == 8 || z == 16 || z == 34 || z == 52 || z == 84;
}

/* Growable arrays. */
#define PUSH(arr, count, cap, item)                                                                \
    do {                                                                                           \
        if ((count) == (cap)) {                                                                    \
            int32_t ncap_ = (cap) ? 2 * (cap) : 32;                                                \
            void *na_ = realloc((arr), (size_t)ncap_ * sizeof *(arr));                             \
            if (!na_)                                                                              \
                goto oom;                                                                          \
            (arr) = na_;                                                                           \
            (cap) = ncap_;                                                                         \
        }                                                                                          \
        (arr)[(count)++] = (item);                                                                 \
    } while (0)

static void general_coefficients(vkmd_uff_angle_term *t)
{
    double s = sin(t->theta0), c = cos(t->theta0);
    t->c2 = 1.0 / (4.0 * fmax(s * s, 1e-8));
    t->c1 = -4.0 * t->c2 * c;
    t->c0 = t->c2 * (2.0 * c * c + 1.0);
}

vkmd_result vkmd_uff_terms_build(const vkmd_uff_molecule *mol, const vkmd_uff_typing *types,
                                 const vkmd_uff_param_table *params,
                                 const vkmd_uff_terms_desc *desc, vkmd_uff_terms *out)
{
    memset(out, 0, sizeof *out);
    vkmd_uff_terms_desc d = {0};
    if (desc)
        d = *desc;
    if (d.vdw_threshold < 0 || d.dielectric < 0 || d.coulomb_k < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF terms: negative vdW threshold, dielectric or Coulomb constant");
    if (d.vdw_threshold == 0)
        d.vdw_threshold = VKMD_UFF_VDW_THRESHOLD;
    if (d.coulomb_k == 0)
        d.coulomb_k = VKMD_UFF_COULOMB_K;
    if (d.dielectric == 0)
        d.dielectric = 1.0;
    if (types->atom_count != mol->atom_count || types->perception.bond_count != mol->bond_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the typing is of another molecule",
                         mol->source);
    const vkmd_uff_perception *p = &types->perception;
    const int32_t n = mol->atom_count;
    int32_t cap_b = 0, cap_a = 0, cap_t = 0, cap_i = 0, cap_p = 0;
    uint8_t *excluded = NULL;
    out->atom_count = n;
    out->vdw_threshold = d.vdw_threshold;
    out->coulomb = mol->partial_charges != NULL;
#define PARAM(a) (&params->types[types->type[a]])
#define DEG(a)   (p->nbr_start[(a) + 1] - p->nbr_start[a])

    /* Bonds. */
    for (int32_t b = 0; b < mol->bond_count; ++b) {
        vkmd_uff_bond_term t;
        t.i = mol->bonds[b].a;
        t.j = mol->bonds[b].b;
        t.r0 = vkmd_uff_bond_rest_length(p->bond_order[b], PARAM(t.i), PARAM(t.j));
        t.kb = vkmd_uff_bond_force_constant(t.r0, PARAM(t.i), PARAM(t.j));
        PUSH(out->bonds, out->bond_count, cap_b, t);
    }

    /* Angles. */
    for (int32_t j = 0; j < n; ++j) {
        int deg = DEG(j);
        if (deg < 2)
            continue;
        vkmd_uff_hybridization h = p->hyb[j];
        int tbp = h == VKMD_UFF_HYB_SP3D && deg == 5;
        if (!tbp) {
            for (int32_t k1 = p->nbr_start[j]; k1 < p->nbr_start[j + 1]; ++k1) {
                for (int32_t k2 = k1 + 1; k2 < p->nbr_start[j + 1]; ++k2) {
                    vkmd_uff_angle_term t;
                    memset(&t, 0, sizeof t);
                    t.i = p->nbr_atom[k1];
                    t.j = j;
                    t.k = p->nbr_atom[k2];
                    t.theta0 = PARAM(j)->theta0;
                    switch (h) {
                    case VKMD_UFF_HYB_SP:
                        t.order = 1;
                        break;
                    case VKMD_UFF_HYB_SP2: {
                        t.order = 3;
                        /* RDKit's rule for sp2 centres in 3- and 4-rings. */
                        int bit = (p->small_ring[j] & 1) ? 1 : (p->small_ring[j] & 2) ? 2 : 0;
                        if (bit) {
                            int ri = (p->small_ring[t.i] & bit) != 0;
                            int rk = (p->small_ring[t.k] & bit) != 0;
                            double deg_out = bit == 1 ? 150.0 : 135.0;
                            double deg_in = bit == 1 ? 60.0 : 90.0;
                            if (ri != rk) {
                                t.theta0 = deg_out * M_PI / 180.0;
                                t.order = 0;
                            } else if (ri && rk) {
                                t.theta0 = deg_in * M_PI / 180.0;
                                t.order = 0;
                            }
                        }
                        break;
                    }
                    case VKMD_UFF_HYB_SP3D2:
                        t.order = 4;
                        break;
                    default:
                        t.order = 0;
                        break;
                    }
                    t.ka = vkmd_uff_angle_force_constant(t.theta0, p->bond_order[p->nbr_bond[k1]],
                                                         p->bond_order[p->nbr_bond[k2]], PARAM(t.i),
                                                         PARAM(j), PARAM(t.k));
                    if (t.order == 0)
                        general_coefficients(&t);
                    PUSH(out->angles, out->angle_count, cap_a, t);
                }
            }
        } else {
            /* Trigonal bipyramid: the most opposed pair of bonds is axial. */
            const double *x = vkmd_uff_molecule_conformer(mol, 0);
            double dir[5][3];
            int32_t slot[5];
            for (int32_t q = 0; q < 5; ++q) {
                int32_t k = p->nbr_start[j] + q, o = p->nbr_atom[k];
                slot[q] = k;
                double len = 0;
                for (int c = 0; c < 3; ++c) {
                    dir[q][c] = x[3 * o + c] - x[3 * j + c];
                    len += dir[q][c] * dir[q][c];
                }
                len = sqrt(len);
                for (int c = 0; c < 3; ++c)
                    dir[q][c] /= len > 0 ? len : 1.0;
            }
            int ax1 = -1, ax2 = -1;
            double most = 100.0;
            for (int q1 = 0; q1 < 5; ++q1)
                for (int q2 = 0; q2 < 5; ++q2) {
                    /* RDKit pairs a bond with every later-added bond */
                    if (p->nbr_bond[slot[q2]] <= p->nbr_bond[slot[q1]])
                        continue;
                    double dot =
                        dir[q1][0] * dir[q2][0] + dir[q1][1] * dir[q2][1] + dir[q1][2] * dir[q2][2];
                    if (dot < most) {
                        most = dot;
                        ax1 = q1;
                        ax2 = q2;
                    }
                }
            int eq[3], ne = 0;
            for (int q = 0; q < 5; ++q)
                if (q != ax1 && q != ax2)
                    eq[ne++] = q;
            int pairs[10][3] = {{ax1, ax2, 2},     {eq[0], eq[1], 3}, {eq[0], eq[2], 3},
                                {eq[1], eq[2], 3}, {ax1, eq[0], 0},   {ax1, eq[1], 0},
                                {ax1, eq[2], 0},   {ax2, eq[0], 0},   {ax2, eq[1], 0},
                                {ax2, eq[2], 0}};
            for (int q = 0; q < 10; ++q) {
                vkmd_uff_angle_term t;
                memset(&t, 0, sizeof t);
                int32_t k1 = slot[pairs[q][0]], k2 = slot[pairs[q][1]];
                t.i = p->nbr_atom[k1];
                t.j = j;
                t.k = p->nbr_atom[k2];
                t.order = pairs[q][2];
                t.theta0 = PARAM(j)->theta0;
                t.ka = vkmd_uff_angle_force_constant(t.theta0, p->bond_order[p->nbr_bond[k1]],
                                                     p->bond_order[p->nbr_bond[k2]], PARAM(t.i),
                                                     PARAM(j), PARAM(t.k));
                if (t.order == 0)
                    general_coefficients(&t);
                PUSH(out->angles, out->angle_count, cap_a, t);
            }
        }
    }

    /* Torsions about every bond [!$(*#*)&!D1]~[!$(*#*)&!D1] with sp2/sp3 atoms. */
    for (int32_t b = 0; b < mol->bond_count; ++b) {
        int32_t j = mol->bonds[b].a, k = mol->bonds[b].b;
        if (p->in_triple[j] || p->in_triple[k] || DEG(j) < 2 || DEG(k) < 2)
            continue;
        vkmd_uff_hybridization hj = p->hyb[j], hk = p->hyb[k];
        if ((hj != VKMD_UFF_HYB_SP2 && hj != VKMD_UFF_HYB_SP3) ||
            (hk != VKMD_UFF_HYB_SP2 && hk != VKMD_UFF_HYB_SP3))
            continue;
        double bo = p->bond_order[b];
        int32_t zj = mol->z[j], zk = mol->z[k];
        int32_t first = out->torsion_count;
        for (int32_t k1 = p->nbr_start[j]; k1 < p->nbr_start[j + 1]; ++k1) {
            int32_t i = p->nbr_atom[k1];
            if (i == k)
                continue;
            for (int32_t k2 = p->nbr_start[k]; k2 < p->nbr_start[k + 1]; ++k2) {
                int32_t l = p->nbr_atom[k2];
                if (l == j || l == i)
                    continue;
                vkmd_uff_torsion_term t;
                t.i = i;
                t.j = j;
                t.k = k;
                t.l = l;
                int end_sp2 = p->hyb[i] == VKMD_UFF_HYB_SP2 || p->hyb[l] == VKMD_UFF_HYB_SP2;
                if (hj == VKMD_UFF_HYB_SP3 && hk == VKMD_UFF_HYB_SP3) {
                    t.v = sqrt(PARAM(j)->v1 * PARAM(k)->v1);
                    t.n = 3;
                    t.cos_term = -1.0;
                    if (bo == 1.0 && in_group16(zj) && in_group16(zk)) {
                        double vj = zj == 8 ? 2.0 : 6.8, vk = zk == 8 ? 2.0 : 6.8;
                        t.v = sqrt(vj * vk);
                        t.n = 2;
                        t.cos_term = -1.0;
                    }
                } else if (hj == VKMD_UFF_HYB_SP2 && hk == VKMD_UFF_HYB_SP2) {
                    t.v = vkmd_uff_torsion_sp2_barrier(bo, PARAM(j), PARAM(k));
                    t.n = 2;
                    t.cos_term = 1.0;
                } else {
                    t.v = 1.0;
                    t.n = 6;
                    t.cos_term = 1.0;
                    if (bo == 1.0) {
                        if ((hj == VKMD_UFF_HYB_SP3 && in_group16(zj) && !in_group16(zk)) ||
                            (hk == VKMD_UFF_HYB_SP3 && in_group16(zk) && !in_group16(zj))) {
                            t.v = vkmd_uff_torsion_sp2_barrier(bo, PARAM(j), PARAM(k));
                            t.n = 2;
                            t.cos_term = -1.0;
                        } else if (end_sp2) {
                            t.v = 2.0;
                            t.n = 3;
                            t.cos_term = -1.0;
                        }
                    }
                }
                PUSH(out->torsions, out->torsion_count, cap_t, t);
            }
        }
        int32_t about = out->torsion_count - first;
        for (int32_t q = first; q < out->torsion_count; ++q)
            out->torsions[q].v /= (double)about;
    }

    /* Inversions. */
    for (int32_t j = 0; j < n; ++j) {
        int32_t z = mol->z[j];
        if ((z != 6 && z != 7 && z != 8 && z != 15 && z != 33 && z != 51 && z != 83) || DEG(j) != 3)
            continue;
        if ((z == 6 || z == 7 || z == 8) && p->hyb[j] != VKMD_UFF_HYB_SP2)
            continue;
        int32_t nb[3];
        int bound_o = 0;
        for (int q = 0; q < 3; ++q) {
            nb[q] = p->nbr_atom[p->nbr_start[j] + q];
            if (z == 6 && mol->z[nb[q]] == 8 && p->hyb[nb[q]] == VKMD_UFF_HYB_SP2)
                bound_o = 1;
        }
        static const int perm[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};
        for (int q = 0; q < 3; ++q) {
            vkmd_uff_inversion_term t;
            t.i = nb[perm[q][0]];
            t.j = j;
            t.k = nb[perm[q][1]];
            t.l = nb[perm[q][2]];
            vkmd_uff_inversion_params(z, bound_o, &t.k_inv, &t.c0, &t.c1, &t.c2);
            PUSH(out->inversions, out->inversion_count, cap_i, t);
        }
    }

    /* Non-bonded pairs: not 1-2, not 1-3. */
    excluded = calloc(n > 0 ? (size_t)n : 1, 1);
    if (!excluded)
        goto oom;
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t k = p->nbr_start[i]; k < p->nbr_start[i + 1]; ++k) {
            int32_t a = p->nbr_atom[k];
            excluded[a] = 1;
            for (int32_t k2 = p->nbr_start[a]; k2 < p->nbr_start[a + 1]; ++k2)
                excluded[p->nbr_atom[k2]] = 1;
        }
        for (int32_t j = i + 1; j < n; ++j) {
            if (excluded[j])
                continue;
            if (!d.include_interfragment && p->fragment[i] != p->fragment[j])
                continue;
            vkmd_uff_pair_term t;
            t.i = i;
            t.j = j;
            t.x_ij = sqrt(PARAM(i)->x1 * PARAM(j)->x1);
            t.d_ij = sqrt(PARAM(i)->d1 * PARAM(j)->d1);
            t.qq = mol->partial_charges ? d.coulomb_k * mol->partial_charges[i] *
                                              mol->partial_charges[j] / d.dielectric
                                        : 0.0;
            PUSH(out->pairs, out->pair_count, cap_p, t);
        }
        for (int32_t k = p->nbr_start[i]; k < p->nbr_start[i + 1]; ++k) {
            int32_t a = p->nbr_atom[k];
            excluded[a] = 0;
            for (int32_t k2 = p->nbr_start[a]; k2 < p->nbr_start[a + 1]; ++k2)
                excluded[p->nbr_atom[k2]] = 0;
        }
    }
    free(excluded);
    return VKMD_OK;
oom:
    free(excluded);
    vkmd_uff_terms_free(out);
    return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: no memory for the UFF terms", mol->source);
#undef PARAM
#undef DEG
}

void vkmd_uff_terms_free(vkmd_uff_terms *t)
{
    free(t->bonds);
    free(t->angles);
    free(t->torsions);
    free(t->inversions);
    free(t->pairs);
    memset(t, 0, sizeof *t);
}

vkmd_result vkmd_uff_setup(const vkmd_uff_molecule *mol, const vkmd_uff_terms_desc *desc,
                           vkmd_uff_typing *out_types, vkmd_uff_terms *out_terms)
{
    memset(out_types, 0, sizeof *out_types);
    memset(out_terms, 0, sizeof *out_terms);
    vkmd_uff_param_table table;
    vkmd_result res = vkmd_uff_params_load_default(&table);
    if (res != VKMD_OK)
        return res;
    res = vkmd_uff_type_atoms(mol, &table, out_types);
    if (res == VKMD_OK)
        res = vkmd_uff_terms_build(mol, out_types, &table, desc, out_terms);
    if (res != VKMD_OK)
        vkmd_uff_typing_free(out_types);
    vkmd_uff_params_destroy(&table);
    return res;
}
