/* UFF molecules and batches of replicas for the public API
 * (include/vkmd.h): what `vkmd uff energy | relax | md` and `energy
 * --surface | --debug-replica` do on a device, over arrays a client (the
 * Python package, pyBall-style scripts) holds. A batch keeps every
 * replica's coordinates on the host (batch order, as vkmd_uff_batch lays
 * them out) and each call runs the engine's own pass or driver on them:
 * sim/uff_replicas.h for energies and forces, sim/uff_fire.h for
 * relaxation, sim/uff_md.h for dynamics, sim/uff_surface_eval.h for the
 * substrate. The CPU double reference is the commands' oracle, not part of
 * the library. */
#define _POSIX_C_SOURCE 200809L
#include "api/api_context.h"
#include "forces/pass_uff_surface.h"
#include "io/uff_load.h"
#include "io/uff_record_setup.h"
#include "io/uff_surface_setup.h"
#include "sim/uff_debug_write.h"
#include "sim/uff_relax.h"
#include "sim/uff_md.h"
#include "sim/uff_replicas.h"
#include "sim/uff_surface_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vkmd_uff_mol {
    vkmd_uff_molecule m; /* owned */
};

struct vkmd_uff_group {
    vkmd_context *ctx; /* borrowed */
    int32_t mol_count;
    vkmd_uff_molecule *mols; /* [mol_count] copies; owned */
    vkmd_uff_record_setup setup;
    int32_t replica_count, atom_count;
    int32_t *replica_molecule; /* [replica_count] */
    int32_t *offset;           /* [replica_count] first atom */
    double *xyz;               /* [3 * atom_count] A */
    double *vel;               /* [3 * atom_count] A/fs after the first md call; else NULL */
    uint64_t md_calls;         /* md calls so far: each continues with its own noise */
};

static vkmd_result molecule_copy(const vkmd_uff_molecule *a, vkmd_uff_molecule *out)
{
    VKMD_TRY_RETURN(vkmd_uff_molecule_alloc(a->atom_count, a->bond_count, a->conformer_count, out));
    const size_t n = (size_t)a->atom_count;
    memcpy(out->name, a->name, sizeof out->name);
    memcpy(out->source, a->source, sizeof out->source);
    memcpy(out->z, a->z, n * sizeof *a->z);
    memcpy(out->formal_charge, a->formal_charge, n * sizeof *a->formal_charge);
    memcpy(out->radicals, a->radicals, n * sizeof *a->radicals);
    if (a->bond_count)
        memcpy(out->bonds, a->bonds, (size_t)a->bond_count * sizeof *a->bonds);
    memcpy(out->positions, a->positions, 3 * n * (size_t)a->conformer_count * sizeof(double));
    if (a->partial_charges) {
        out->partial_charges = malloc(n * sizeof(double));
        if (!out->partial_charges) {
            vkmd_uff_molecule_destroy(out);
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "charges of %zu atoms", n);
        }
        memcpy(out->partial_charges, a->partial_charges, n * sizeof(double));
    }
    return VKMD_OK;
}

/* ---- Molecules ------------------------------------------------------------- */

vkmd_result vkmd_uff_mol_load(const char *spec, vkmd_uff_mol ***out_mols, int32_t *out_count)
{
    if (!out_mols || !out_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_mol_load: out pointer is NULL");
    *out_mols = NULL;
    *out_count = 0;
    if (!spec || !spec[0])
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_mol_load: no molecule given");
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0;
    VKMD_TRY_RETURN(vkmd_uff_molecule_load(spec, &recs, &count));
    vkmd_uff_mol **mols = calloc((size_t)count, sizeof *mols);
    for (int32_t k = 0; mols && k < count; ++k) {
        if (!(mols[k] = malloc(sizeof *mols[k]))) {
            for (int32_t q = 0; q < k; ++q)
                free(mols[q]);
            free(mols);
            mols = NULL;
            break;
        }
        mols[k]->m = recs[k]; /* moved */
    }
    if (!mols) {
        vkmd_uff_molecule_array_free(recs, count);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d molecules of %s", (int)count, spec);
    }
    free(recs); /* the records' arrays now belong to the handles */
    *out_mols = mols;
    *out_count = count;
    return VKMD_OK;
}

vkmd_result vkmd_uff_mol_create(const char *name, int32_t atom_count, const int32_t *z,
                                const int32_t *formal_charge, int32_t bond_count,
                                const int32_t *bonds, int32_t conformer_count, const double *xyz,
                                vkmd_uff_mol **out_mol)
{
    if (!out_mol)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_mol_create: out_mol is NULL");
    *out_mol = NULL;
    if (atom_count < 1 || !z || !xyz || conformer_count < 1 || bond_count < 0 ||
        (bond_count && !bonds))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_mol_create: %d atoms, %d bonds, %d conformers (expected >= 1 "
                         "atom with elements and coordinates, >= 1 conformer)",
                         (int)atom_count, (int)bond_count, (int)conformer_count);
    for (int32_t a = 0; a < atom_count; ++a)
        if (z[a] < 1 || z[a] > 118)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "vkmd_uff_mol_create: atom %d has atomic number %d", (int)a + 1,
                             (int)z[a]);
    for (int32_t b = 0; b < bond_count; ++b) {
        const int32_t i = bonds[3 * b], j = bonds[3 * b + 1], o = bonds[3 * b + 2];
        if (i < 0 || j < 0 || i >= atom_count || j >= atom_count || i == j || o < 1 || o > 3)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "vkmd_uff_mol_create: bond %d (%d-%d, order %d): atoms must be "
                             "distinct, 0..%d, order 1, 2 or 3 (kekulise aromatic bonds)",
                             (int)b + 1, (int)i, (int)j, (int)o, (int)atom_count - 1);
    }
    const size_t nx = 3 * (size_t)atom_count * (size_t)conformer_count;
    for (size_t i = 0; i < nx; ++i)
        if (!isfinite(xyz[i]))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "vkmd_uff_mol_create: coordinate %zu is not finite", i);
    vkmd_uff_mol *mol = calloc(1, sizeof *mol);
    if (!mol)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_uff_mol_create: out of memory");
    vkmd_result res = vkmd_uff_molecule_alloc(atom_count, bond_count, conformer_count, &mol->m);
    if (res != VKMD_OK) {
        free(mol);
        return res;
    }
    vkmd_uff_molecule *m = &mol->m;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "");
    snprintf(m->source, sizeof m->source, "arrays:%s", name ? name : "molecule");
    for (int32_t a = 0; a < atom_count; ++a) {
        m->z[a] = z[a];
        m->formal_charge[a] = formal_charge ? formal_charge[a] : 0;
    }
    for (int32_t b = 0; b < bond_count; ++b)
        m->bonds[b] = (vkmd_uff_bond){bonds[3 * b], bonds[3 * b + 1], bonds[3 * b + 2]};
    memcpy(m->positions, xyz, nx * sizeof *xyz);
    *out_mol = mol;
    return VKMD_OK;
}

void vkmd_uff_mol_destroy(vkmd_uff_mol *mol)
{
    if (!mol)
        return;
    vkmd_uff_molecule_destroy(&mol->m);
    free(mol);
}

int32_t vkmd_uff_mol_atom_count(const vkmd_uff_mol *mol)
{
    return mol ? mol->m.atom_count : 0;
}

int32_t vkmd_uff_mol_conformer_count(const vkmd_uff_mol *mol)
{
    return mol ? mol->m.conformer_count : 0;
}

const char *vkmd_uff_mol_name(const vkmd_uff_mol *mol)
{
    return mol ? mol->m.name : "";
}

vkmd_result vkmd_uff_mol_get(const vkmd_uff_mol *mol, int32_t c, int32_t *out_z, double *out_xyz)
{
    if (!mol || c < 0 || c >= mol->m.conformer_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_mol_get: conformer %d of %d (0-based)", (int)c,
                         mol ? (int)mol->m.conformer_count : 0);
    const size_t n = (size_t)mol->m.atom_count;
    if (out_z)
        memcpy(out_z, mol->m.z, n * sizeof *out_z);
    if (out_xyz)
        memcpy(out_xyz, vkmd_uff_molecule_conformer(&mol->m, c), 3 * n * sizeof *out_xyz);
    return VKMD_OK;
}

/* ---- Batches ---------------------------------------------------------------- */

vkmd_result vkmd_uff_group_create(vkmd_context *ctx, const vkmd_uff_mol *const *mols,
                                  int32_t mol_count, const int32_t *replica_molecule,
                                  int32_t replica_count, const vkmd_uff_group_desc *desc,
                                  vkmd_uff_group **out_batch)
{
    if (!out_batch)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_group_create: out_batch is NULL");
    *out_batch = NULL;
    if (!ctx || !mols || mol_count < 1 || !replica_molecule || replica_count < 1)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_create: needs a context, >= 1 molecule and >= 1 replica "
                         "(%d molecules, %d replicas)",
                         (int)mol_count, (int)replica_count);
    for (int32_t k = 0; k < mol_count; ++k)
        if (!mols[k])
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "vkmd_uff_group_create: molecule %d "
                             "is NULL",
                             (int)k);
    if (desc && (desc->dielectric < 0 || !isfinite(desc->dielectric)))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_desc.dielectric: %g, expected > 0 (0: 1)",
                         desc->dielectric);
    vkmd_result res = VKMD_OK;
    vkmd_uff_group *b = calloc(1, sizeof *b);
    if (!b)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vkmd_uff_group_create: out of memory");
    b->ctx = ctx;
    b->replica_count = replica_count;
    if (!(b->mols = calloc((size_t)mol_count, sizeof *b->mols)) ||
        !(b->replica_molecule = malloc((size_t)replica_count * sizeof(int32_t))) ||
        !(b->offset = malloc((size_t)replica_count * sizeof(int32_t))))
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "a batch of %d replicas", (int)replica_count));
    for (int32_t k = 0; k < mol_count; ++k, ++b->mol_count)
        VKMD_TRY(molecule_copy(&mols[k]->m, &b->mols[k]));
    int64_t atoms = 0;
    for (int32_t r = 0; r < replica_count; ++r) {
        const int32_t k = replica_molecule[r];
        if (k < 0 || k >= mol_count)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                               "vkmd_uff_group_create: replica %d is of molecule %d; there are "
                               "%d (0-based)",
                               (int)r, (int)k, (int)mol_count));
        b->replica_molecule[r] = k;
        b->offset[r] = (int32_t)atoms;
        atoms += b->mols[k].atom_count;
        if (atoms > INT32_MAX / 4)
            VKMD_TRY(vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                               "vkmd_uff_group_create: more than %d atoms", INT32_MAX / 4));
    }
    b->atom_count = (int32_t)atoms;
    if (!(b->xyz = malloc(3 * (size_t)atoms * sizeof *b->xyz)))
        VKMD_TRY(
            vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "coordinates of %lld atoms", (long long)atoms));
    for (int32_t r = 0; r < replica_count; ++r) {
        const vkmd_uff_molecule *m = &b->mols[b->replica_molecule[r]];
        memcpy(b->xyz + 3 * (size_t)b->offset[r], m->positions,
               3 * (size_t)m->atom_count * sizeof(double));
    }
    const vkmd_uff_terms_desc td = {.include_interfragment = desc ? desc->include_interfragment : 0,
                                    .dielectric = desc ? desc->dielectric : 0};
    VKMD_TRY(vkmd_uff_record_setup_build(b->mols, b->mol_count, NULL, &td, &b->setup));
    *out_batch = b;
    return VKMD_OK;
cleanup:
    vkmd_uff_group_destroy(b);
    return res;
}

void vkmd_uff_group_destroy(vkmd_uff_group *b)
{
    if (!b)
        return;
    vkmd_uff_record_setup_free(&b->setup);
    for (int32_t k = 0; k < b->mol_count; ++k)
        vkmd_uff_molecule_destroy(&b->mols[k]);
    free(b->mols);
    free(b->replica_molecule);
    free(b->offset);
    free(b->xyz);
    free(b->vel);
    free(b);
}

int32_t vkmd_uff_group_replica_count(const vkmd_uff_group *b)
{
    return b ? b->replica_count : 0;
}

int32_t vkmd_uff_group_atom_count(const vkmd_uff_group *b)
{
    return b ? b->atom_count : 0;
}

int32_t vkmd_uff_group_replica_offset(const vkmd_uff_group *b, int32_t r)
{
    return b && r >= 0 && r < b->replica_count ? b->offset[r] : -1;
}

vkmd_result vkmd_uff_group_set_positions(vkmd_uff_group *b, int32_t atom_count, const double *xyz)
{
    if (!b || !xyz || atom_count != b->atom_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_set_positions: coordinates of %d atoms, the batch has %d",
                         (int)atom_count, b ? (int)b->atom_count : 0);
    for (size_t i = 0; i < 3 * (size_t)atom_count; ++i)
        if (!isfinite(xyz[i]))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "vkmd_uff_group_set_positions: coordinate %zu (atom %zu of the "
                             "batch) is not finite",
                             i % 3, i / 3);
    memcpy(b->xyz, xyz, 3 * (size_t)atom_count * sizeof *xyz);
    return VKMD_OK;
}

vkmd_result vkmd_uff_group_get_positions(const vkmd_uff_group *b, int32_t atom_count,
                                         double *out_xyz)
{
    if (!b || !out_xyz || atom_count != b->atom_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_get_positions: room for %d atoms, the batch has %d",
                         (int)atom_count, b ? (int)b->atom_count : 0);
    memcpy(out_xyz, b->xyz, 3 * (size_t)atom_count * sizeof *out_xyz);
    return VKMD_OK;
}

/* The replicas as the engine's calls take them, over b->xyz. */
static vkmd_uff_replica *replicas_of(const vkmd_uff_group *b)
{
    vkmd_uff_replica *reps = malloc((size_t)b->replica_count * sizeof *reps);
    for (int32_t r = 0; reps && r < b->replica_count; ++r)
        reps[r] = (vkmd_uff_replica){b->replica_molecule[r], b->xyz + 3 * (size_t)b->offset[r]};
    if (!reps)
        vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%d replicas", (int)b->replica_count);
    return reps;
}

static vkmd_result evaluate(vkmd_uff_group *b, double *out_energy, double *out_forces,
                            int32_t debug_replica, vkmd_uff_debug_record **out_debug,
                            int32_t *out_debug_count)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = b->replica_count;
    vkmd_uff_replica *reps = replicas_of(b);
    vkmd_uff_energy *e = calloc((size_t)n, sizeof *e);
    double **f = out_forces ? calloc((size_t)n, sizeof *f) : NULL;
    if (!reps || !e || (out_forces && !f))
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d replicas", (int)n));
    for (int32_t r = 0; f && r < n; ++r)
        f[r] = out_forces + 3 * (size_t)b->offset[r];
    const vkmd_uff_replicas_desc d = {.debug = debug_replica >= 0,
                                      .debug_replica = debug_replica >= 0 ? debug_replica : 0};
    VKMD_TRY(vkmd_uff_replicas_evaluate(b->ctx->vk, b->setup.terms_of, b->mol_count, reps, n, &d, e,
                                        f, out_debug, out_debug_count, NULL));
    for (int32_t r = 0; out_energy && r < n; ++r) {
        double *row = out_energy + (size_t)VKMD_UFF_GROUP_TERMS * r;
        row[0] = e[r].bond;
        row[1] = e[r].angle;
        row[2] = e[r].torsion;
        row[3] = e[r].inversion;
        row[4] = e[r].vdw;
        row[5] = e[r].coulomb;
        row[6] = e[r].total;
    }
cleanup:
    free(reps);
    free(e);
    free(f);
    return res;
}

vkmd_result vkmd_uff_group_evaluate(vkmd_uff_group *b, double *out_energy, double *out_forces)
{
    if (!b || !out_energy)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_group_evaluate: %s is NULL",
                         b ? "out_energy" : "batch");
    return evaluate(b, out_energy, out_forces, -1, NULL, NULL);
}

vkmd_result vkmd_uff_group_debug_json(vkmd_uff_group *b, int32_t replica, char **out_json)
{
    if (out_json)
        *out_json = NULL;
    if (!b || !out_json || replica < 0 || replica >= b->replica_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_debug_json: replica %d of %d (0-based)", (int)replica,
                         b ? (int)b->replica_count : 0);
    vkmd_uff_debug_record *dbg = NULL;
    int32_t count = 0;
    VKMD_TRY_RETURN(evaluate(b, NULL, NULL, replica, &dbg, &count));
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) {
        free(dbg);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "no memory for the debug records");
    }
    vkmd_uff_debug_write(f, dbg, count, b->setup.typing[b->replica_molecule[replica]].label, 1, 0);
    const int bad = ferror(f) != 0;
    free(dbg);
    if (fclose(f) != 0 || bad || !buf) {
        free(buf);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "writing the debug records failed");
    }
    *out_json = buf;
    return VKMD_OK;
}

vkmd_result vkmd_uff_group_relax(vkmd_uff_group *b, const vkmd_uff_group_relax_desc *desc,
                                 vkmd_uff_group_relax_result *out_results)
{
    if (!b)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_group_relax: batch is NULL");
    const vkmd_uff_group_relax_desc none = {0};
    const vkmd_uff_group_relax_desc *d = desc ? desc : &none;
    if (d->minimizer != VKMD_UFF_MINIMIZER_LBFGS && d->minimizer != VKMD_UFF_MINIMIZER_FIRE)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_relax_desc.minimizer: %d is not LBFGS (0) or FIRE (1)",
                         (int)d->minimizer);
    const int fire = d->minimizer == VKMD_UFF_MINIMIZER_FIRE;
    if (!(d->force_tol >= 0) || !(d->energy_tol >= 0) || d->max_iterations < 0 || d->memory < 0 ||
        d->memory > 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_relax_desc: force_tol %g, energy_tol %g, max_iterations "
                         "%d, memory %d; expected >= 0 (0: default), memory <= 16",
                         d->force_tol, d->energy_tol, (int)d->max_iterations, (int)d->memory);
    if (fire && (d->energy_tol > 0 || d->memory > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "vkmd_uff_group_relax_desc: energy_tol and memory are LBFGS options; "
                         "FIRE stops on force_tol (max |F|) only");
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch ub;
    memset(&ub, 0, sizeof ub);
    vkmd_uff_relax_result *rr = calloc((size_t)b->replica_count, sizeof *rr);
    if (!rr)
        VKMD_TRY(
            vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "results of %d replicas", (int)b->replica_count));
    /* A command buffer records check_interval evaluations whatever the cap: a
     * smaller cap records only that many. */
    const int32_t interval = fire ? 100 : 64;
    const vkmd_uff_relax_params p = {
        .minimizer = fire ? VKMD_UFF_MIN_FIRE : VKMD_UFF_MIN_LBFGS,
        .force_tol = d->force_tol,
        .energy_tol = d->energy_tol,
        .max_iterations = d->max_iterations,
        .memory = d->memory,
        .check_interval =
            d->max_iterations > 0 && d->max_iterations < interval ? d->max_iterations : 0};
    VKMD_TRY(vkmd_uff_batch_build(b->setup.terms_of, b->mol_count, b->replica_molecule,
                                  b->replica_count, &ub));
    VKMD_TRY(vkmd_uff_relax_batch(b->ctx->vk, &ub, &p, b->xyz, b->xyz, rr, NULL));
    for (int32_t r = 0; out_results && r < b->replica_count; ++r)
        out_results[r] =
            (vkmd_uff_group_relax_result){.energy_initial_kcal_mol = rr[r].energy_initial,
                                          .energy_final_kcal_mol = rr[r].energy_final,
                                          .max_force_kcal_mol_a = rr[r].fmax,
                                          .iterations = rr[r].iterations,
                                          .evaluations = rr[r].evaluations,
                                          .converged = rr[r].converged};
cleanup:
    vkmd_uff_batch_free(&ub);
    free(rr);
    return res;
}

vkmd_result vkmd_uff_group_md(vkmd_uff_group *b, const vkmd_uff_group_md_desc *desc, int32_t steps,
                              double *out_mean_temperature_k)
{
    if (!b || steps < 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_group_md: %s",
                         b ? "steps < 0" : "batch is NULL");
    const vkmd_uff_group_md_desc none = {0};
    const vkmd_uff_group_md_desc *d = desc ? desc : &none;
    vkmd_result res = VKMD_OK;
    vkmd_uff_batch ub;
    memset(&ub, 0, sizeof ub);
    vkmd_uff_md *md = NULL;
    const size_t n3 = 3 * (size_t)b->atom_count;
    double *mass = malloc((size_t)b->atom_count * sizeof *mass);
    double *vel = b->vel ? NULL : malloc(n3 * sizeof *vel);
    if (!mass || (!b->vel && !vel))
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "masses of %d atoms", (int)b->atom_count));
    for (int32_t r = 0; r < b->replica_count; ++r)
        VKMD_TRY(vkmd_uff_masses(&b->mols[b->replica_molecule[r]], mass + b->offset[r]));
    const vkmd_uff_md_params p = {.dt_fs = d->dt_fs,
                                  .temperature_k = d->temperature_k,
                                  .friction_per_ps = d->friction_per_ps,
                                  /* A new MD starts its noise at step 0 again: a
                                     later call takes another stream. */
                                  .seed = d->seed + 0x9E3779B97F4A7C15ull * b->md_calls};
    VKMD_TRY(vkmd_uff_batch_build(b->setup.terms_of, b->mol_count, b->replica_molecule,
                                  b->replica_count, &ub));
    VKMD_TRY(vkmd_uff_md_create(b->ctx->vk, &ub, mass, &p, &md));
    VKMD_TRY(vkmd_uff_md_set_state(b->ctx->vk, md, b->xyz, b->vel));
    if (steps > 0)
        VKMD_TRY(vkmd_uff_md_run(b->ctx->vk, md, steps, out_mean_temperature_k));
    else
        for (int32_t r = 0; out_mean_temperature_k && r < b->replica_count; ++r)
            out_mean_temperature_k[r] = 0;
    VKMD_TRY(vkmd_uff_md_read(b->ctx->vk, md, b->xyz, b->vel ? b->vel : vel, NULL));
    if (!b->vel) {
        b->vel = vel;
        vel = NULL;
    }
    b->md_calls++;
cleanup:
    vkmd_uff_md_destroy(b->ctx->vk, md);
    vkmd_uff_batch_free(&ub);
    free(mass);
    free(vel);
    return res;
}

vkmd_result vkmd_uff_group_surface(vkmd_uff_group *b, const vkmd_uff_group_surface_desc *desc,
                                   double *out_energy, double *out_forces)
{
    if (!b || !desc || !desc->substrate || !out_energy)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "vkmd_uff_group_surface: %s",
                         !b                          ? "batch is NULL"
                         : !desc || !desc->substrate ? "no substrate (nacl, graphene or an "
                                                       "extended-XYZ file)"
                                                     : "out_energy is NULL");
    if (!(desc->spacing_a >= 0) || !(desc->height_a >= 0))
        return vkmd_fail(
            VKMD_ERROR_INVALID_ARGUMENT,
            "vkmd_uff_group_surface_desc: spacing %g A, height %g A; expected >= 0 (0: "
            "default)",
            desc->spacing_a, desc->height_a);
    vkmd_result res = VKMD_OK;
    const vkmd_uff_surface_setup_desc sd = {.spec = desc->substrate,
                                            .form = desc->morse ? VKMD_UFF_SURFACE_FORM_MORSE
                                                                : VKMD_UFF_SURFACE_FORM_LJ,
                                            .grid = desc->grid != 0,
                                            .spacing_a = desc->spacing_a,
                                            .height_a = desc->height_a > 0 ? desc->height_a : 3.0};
    vkmd_uff_surface_setup s;
    memset(&s, 0, sizeof s);
    int32_t *below = malloc((size_t)b->replica_count * sizeof *below);
    double *f = NULL;
    vkmd_uff_replica *reps = replicas_of(b);
    if (!below || !reps)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface results"));
    VKMD_TRY(vkmd_uff_surface_setup_build(&sd, b->setup.typing_of, b->mol_count, reps,
                                          b->replica_count, &s));
    const vkmd_uff_surface_replicas *placed = &s.placed;
    if (!(f = calloc(3 * (size_t)placed->atom_count, sizeof *f)))
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface forces"));
    if (sd.grid)
        VKMD_TRY(vkmd_pass_uff_surface_grid_compute(b->ctx->vk, &s.surf, &s.grid));
    VKMD_TRY(vkmd_uff_surface_evaluate(b->ctx->vk, &s.surf, sd.grid ? &s.grid : NULL,
                                       b->setup.terms_of, b->mol_count, reps, placed, f, out_energy,
                                       below));
    /* The replicas as placed become the batch's coordinates. */
    for (int32_t r = 0; r < b->replica_count; ++r) {
        const size_t n3 = 3 * (size_t)b->mols[b->replica_molecule[r]].atom_count;
        memcpy(b->xyz + 3 * (size_t)b->offset[r], placed->xyz + 3 * (size_t)placed->offset[r],
               n3 * sizeof(double));
        if (out_forces)
            memcpy(out_forces + 3 * (size_t)b->offset[r], f + 3 * (size_t)placed->offset[r],
                   n3 * sizeof(double));
    }
cleanup:
    vkmd_uff_surface_setup_free(&s);
    free(f);
    free(reps);
    free(below);
    return res;
}
