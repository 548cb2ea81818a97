/* Host-side packing of a multi-replica UFF batch (see uff_batch.h). */
#include "system/uff_batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[VKMD_UFF_KIND_COUNT] = {"bond", "angle", "torsion", "inversion",
                                                            "pair"};

const char *vkmd_uff_kind_name(uint32_t kind)
{
    return kind < VKMD_UFF_KIND_COUNT ? kind_names[kind] : "?";
}

/* The rounding residual of x as a float: (float)x + float_lo(x) carries x
 * to ~1e-15 relative. */
static float float_lo(double x)
{
    return (float)(x - (double)(float)x);
}

void vkmd_uff_batch_free(vkmd_uff_batch *b)
{
    if (!b)
        return;
    free(b->replica_molecule);
    free(b->replica_atom_offset);
    free(b->molecule_atom_count);
    free(b->molecule_term_count);
    free(b->molecule_term_start);
    free(b->terms);
    free(b->ranges);
    free(b->slots);
    memset(b, 0, sizeof *b);
}

int32_t vkmd_uff_batch_replica_terms(const vkmd_uff_batch *b, int32_t r)
{
    int32_t n = 0;
    for (int k = 0; k < VKMD_UFF_KIND_COUNT; ++k)
        n += b->molecule_term_count[b->replica_molecule[r]][k];
    return n;
}

static vkmd_result bad_atom(int32_t m, const char *kind, int32_t n, int32_t atoms)
{
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                     "UFF batch: molecule %d: %s term %d names an atom outside 0..%d", m, kind, n,
                     atoms - 1);
}

/* Packs molecule m's terms into out[] (kind-ordered, as counted). */
static vkmd_result pack_molecule(int32_t m, const vkmd_uff_terms *t, vkmd_uff_term *out)
{
    const int32_t na = t->atom_count;
#define IN_RANGE(x) ((x) >= 0 && (x) < na)
    vkmd_uff_term *p = out;
    for (int32_t n = 0; n < t->bond_count; ++n, ++p) {
        const vkmd_uff_bond_term *b = &t->bonds[n];
        if (!IN_RANGE(b->i) || !IN_RANGE(b->j))
            return bad_atom(m, "bond", n, na);
        *p = (vkmd_uff_term){.atoms = {(uint32_t)b->i, (uint32_t)b->j, 0, 0},
                             .params = {(float)b->kb, (float)b->r0, (float)(b->r0 * b->r0),
                                        float_lo(b->r0 * b->r0)}};
    }
    for (int32_t n = 0; n < t->angle_count; ++n, ++p) {
        const vkmd_uff_angle_term *a = &t->angles[n];
        if (!IN_RANGE(a->i) || !IN_RANGE(a->j) || !IN_RANGE(a->k))
            return bad_atom(m, "angle", n, na);
        double k2 = 0, cos0 = 0, e0 = 0;
        if (a->order == 0) {
            /* ka (C0 + C1 c + C2 (2c^2 - 1)) = k2 (c - cos0)^2 + e0 */
            if (!(a->c2 > 0))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "UFF batch: molecule %d: angle term %d has the general form "
                                 "with C2 = %g (needs C2 > 0)",
                                 m, n, a->c2);
            cos0 = -a->c1 / (4.0 * a->c2);
            k2 = 2.0 * a->ka * a->c2;
            e0 = a->ka * (a->c0 - a->c2 - 2.0 * a->c2 * cos0 * cos0);
        } else if (a->order < 0) {
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "UFF batch: molecule %d: angle term %d has order %d", m, n, a->order);
        }
        *p = (vkmd_uff_term){.atoms = {(uint32_t)a->i, (uint32_t)a->j, (uint32_t)a->k, 0},
                             .params = {(float)a->ka, (float)k2, (float)cos0, float_lo(cos0)},
                             .aux = {(float)e0, 0, 0, (float)a->order}};
    }
    for (int32_t n = 0; n < t->torsion_count; ++n, ++p) {
        const vkmd_uff_torsion_term *d = &t->torsions[n];
        if (!IN_RANGE(d->i) || !IN_RANGE(d->j) || !IN_RANGE(d->k) || !IN_RANGE(d->l))
            return bad_atom(m, "torsion", n, na);
        if (d->n < 0)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "UFF batch: molecule %d: torsion term %d has periodicity %d", m, n,
                             d->n);
        *p = (vkmd_uff_term){
            .atoms = {(uint32_t)d->i, (uint32_t)d->j, (uint32_t)d->k, (uint32_t)d->l},
            .params = {(float)d->v, (float)d->cos_term, 0, 0},
            .aux = {0, 0, 0, (float)d->n}};
    }
    for (int32_t n = 0; n < t->inversion_count; ++n, ++p) {
        const vkmd_uff_inversion_term *v = &t->inversions[n];
        if (!IN_RANGE(v->i) || !IN_RANGE(v->j) || !IN_RANGE(v->k) || !IN_RANGE(v->l))
            return bad_atom(m, "inversion", n, na);
        /* K (C0 + C1 s + C2 (2 s^2 - 1)), s = sin Y: see layout_uff.h */
        double coef, x0 = 0, e0;
        int form;
        if (v->c2 == 0) {
            form = 0;
            coef = -v->c1;
            e0 = v->c0 + v->c1;
        } else {
            form = 1;
            coef = 2.0 * v->c2;
            x0 = -v->c1 / (4.0 * v->c2);
            e0 = v->c0 - v->c2 - 2.0 * v->c2 * x0 * x0;
        }
        *p = (vkmd_uff_term){
            .atoms = {(uint32_t)v->i, (uint32_t)v->j, (uint32_t)v->k, (uint32_t)v->l},
            .params = {(float)v->k_inv, (float)coef, (float)x0, (float)e0},
            .aux = {0, 0, 0, (float)form}};
    }
    for (int32_t n = 0; n < t->pair_count; ++n, ++p) {
        const vkmd_uff_pair_term *q = &t->pairs[n];
        if (!IN_RANGE(q->i) || !IN_RANGE(q->j))
            return bad_atom(m, "pair", n, na);
        double cut = t->vdw_threshold * q->x_ij;
        *p = (vkmd_uff_term){.atoms = {(uint32_t)q->i, (uint32_t)q->j, 0, 0},
                             .params = {(float)(q->x_ij * q->x_ij), (float)q->d_ij,
                                        t->coulomb ? (float)q->qq : 0.0f, (float)(cut * cut)}};
    }
#undef IN_RANGE
    return VKMD_OK;
}

vkmd_result vkmd_uff_batch_build(const vkmd_uff_terms *const *molecules, int32_t molecule_count,
                                 const int32_t *replica_molecule, int32_t replica_count,
                                 vkmd_uff_batch *out)
{
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch b;
    memset(&b, 0, sizeof b);
    memset(out, 0, sizeof *out);
    int32_t *fill = NULL;
    if (!molecules || molecule_count < 1 || replica_count < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "UFF batch: needs at least one molecule and one replica (%d, %d)",
                         molecule_count, replica_count);
    for (int32_t m = 0; m < molecule_count; ++m)
        if (!molecules[m] || molecules[m]->atom_count < 1)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF batch: molecule %d has no atoms", m);
    b.molecule_count = molecule_count;
    b.replica_count = replica_count;
    b.replica_molecule = calloc((size_t)replica_count, sizeof *b.replica_molecule);
    b.replica_atom_offset = calloc((size_t)replica_count, sizeof *b.replica_atom_offset);
    b.molecule_atom_count = calloc((size_t)molecule_count, sizeof *b.molecule_atom_count);
    b.molecule_term_count = calloc((size_t)molecule_count, sizeof *b.molecule_term_count);
    b.molecule_term_start = calloc((size_t)molecule_count, sizeof *b.molecule_term_start);
    b.slots = calloc((size_t)replica_count, sizeof *b.slots);
    b.ranges = calloc((size_t)molecule_count * (VKMD_UFF_KIND_COUNT + 1), sizeof *b.ranges);
    fill = calloc((size_t)molecule_count + 1, sizeof *fill);
    if (!b.replica_molecule || !b.replica_atom_offset || !b.molecule_atom_count ||
        !b.molecule_term_count || !b.molecule_term_start || !b.slots || !b.ranges || !fill) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF batch of %d replicas", replica_count);
        goto cleanup;
    }

    /* Molecules: term counts and their place in the concatenated table. */
    uint64_t terms_total = 0;
    for (int32_t m = 0; m < molecule_count; ++m) {
        const vkmd_uff_terms *t = molecules[m];
        const int32_t counts[VKMD_UFF_KIND_COUNT] = {
            t->bond_count, t->angle_count, t->torsion_count, t->inversion_count, t->pair_count};
        b.molecule_atom_count[m] = t->atom_count;
        b.molecule_term_start[m] = (uint32_t)terms_total;
        for (int k = 0; k < VKMD_UFF_KIND_COUNT; ++k) {
            if (counts[k] < 0) {
                res =
                    vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF batch: molecule %d has %d %s terms",
                              m, counts[k], kind_names[k]);
                goto cleanup;
            }
            b.molecule_term_count[m][k] = counts[k];
            terms_total += (uint64_t)counts[k];
        }
        b.coulomb |= t->coulomb != 0;
    }
    if (terms_total >= UINT32_MAX) {
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "UFF batch: %llu terms is too many",
                        (unsigned long long)terms_total);
        goto cleanup;
    }
    b.term_count = (uint32_t)terms_total;
    b.terms = calloc(terms_total ? (size_t)terms_total : 1, sizeof *b.terms);
    if (!b.terms) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF batch: %llu terms",
                        (unsigned long long)terms_total);
        goto cleanup;
    }
    for (int32_t m = 0; m < molecule_count; ++m)
        VKMD_TRY(pack_molecule(m, molecules[m], b.terms + b.molecule_term_start[m]));

    /* Replicas: molecule, atom offsets (caller's order), per-molecule counts. */
    int64_t atoms = 0;
    for (int32_t r = 0; r < replica_count; ++r) {
        int32_t m = replica_molecule ? replica_molecule[r] : 0;
        if (m < 0 || m >= molecule_count) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "UFF batch: replica %d names molecule %d of %d", r, m, molecule_count);
            goto cleanup;
        }
        b.replica_molecule[r] = m;
        b.replica_atom_offset[r] = (int32_t)atoms;
        atoms += b.molecule_atom_count[m];
        if (atoms >= INT32_MAX) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "UFF batch: more than 2^31 atoms at replica %d: split the batch", r);
            goto cleanup;
        }
        ++fill[m + 1];
    }
    b.atom_count = (int32_t)atoms;

    /* Slots: replicas grouped by molecule (counting sort, stable). fill[m]
     * becomes the first slot of molecule m. */
    for (int32_t m = 0; m < molecule_count; ++m)
        fill[m + 1] += fill[m];
    int32_t *first_slot = calloc((size_t)molecule_count + 1, sizeof *first_slot);
    if (!first_slot) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "UFF batch slots");
        goto cleanup;
    }
    memcpy(first_slot, fill, ((size_t)molecule_count + 1) * sizeof *fill);
    for (int32_t r = 0; r < replica_count; ++r) {
        int32_t m = b.replica_molecule[r];
        b.slots[fill[m]++] = (vkmd_gpu_uvec4){(uint32_t)r, (uint32_t)b.replica_atom_offset[r],
                                              (uint32_t)b.molecule_atom_count[m], (uint32_t)m};
    }

    /* Ranges: kind-major, then molecule; empty ones left out. */
    uint64_t items = 0;
    for (int k = 0; k < VKMD_UFF_KIND_COUNT; ++k) {
        for (int32_t m = 0; m < molecule_count; ++m) {
            uint32_t n_rep = (uint32_t)(first_slot[m + 1] - first_slot[m]);
            uint32_t n_terms = (uint32_t)b.molecule_term_count[m][k];
            if (n_rep == 0 || n_terms == 0)
                continue;
            uint32_t kind_start = b.molecule_term_start[m];
            for (int j = 0; j < k; ++j)
                kind_start += (uint32_t)b.molecule_term_count[m][j];
            b.ranges[b.range_count++] =
                (vkmd_uff_range){.a = {(uint32_t)items, kind_start, (uint32_t)first_slot[m], n_rep},
                                 .b = {(uint32_t)k, b.molecule_term_start[m], (uint32_t)m, 0}};
            items += (uint64_t)n_rep * n_terms;
            if (items >= VKMD_UFF_BATCH_MAX_ITEMS) {
                free(first_slot);
                res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                "UFF batch: 2^31 items (terms x replicas) or more: split the "
                                "batch");
                goto cleanup;
            }
        }
    }
    free(first_slot);
    /* The per-molecule kind table after the ranges (layout_uff.h). */
    for (int32_t m = 0; m < molecule_count; ++m) {
        uint32_t start[VKMD_UFF_KIND_COUNT + 1];
        start[0] = b.molecule_term_start[m];
        for (int k = 0; k < VKMD_UFF_KIND_COUNT; ++k)
            start[k + 1] = start[k] + (uint32_t)b.molecule_term_count[m][k];
        b.ranges[b.range_count + (uint32_t)m] =
            (vkmd_uff_range){.a = {start[0], start[1], start[2], start[3]},
                             .b = {start[4], start[5], (uint32_t)m, 0}};
    }
    b.item_count = (uint32_t)items;
    *out = b;
    free(fill);
    return VKMD_OK;
cleanup:
    free(fill);
    vkmd_uff_batch_free(&b);
    return res;
}
