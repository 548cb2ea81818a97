/* Multi-replica GPU UFF pass (shaders/uff.comp, engine/forces/pass_uff.c,
 * engine/system/uff_batch.c) against the CPU double reference
 * (vkmd_ref_uff_compute), EVERY replica checked:
 *   - xylitol and benzylpenicillin (every term kind: sp2 ring rule angles,
 *     torsions, inversions), R = 1, 2, 10 and 1,000 replicas, each its own
 *     conformation (the record's coordinates displaced by a deterministic
 *     random amount of 0.02-0.2 A per coordinate);
 *   - one batch mixing every record of tests/data/uff/molecules.sdf (57:
 *     linear and trigonal-bipyramidal centres, sp2 small rings, group 15
 *     inversions, group 16 torsions, several fragments), three replicas each
 *     (as given, i.e. nearly relaxed, and two displaced), interleaved so a
 *     molecule's replicas are not contiguous, plus xylitol with partial
 *     charges (the Coulomb path);
 *   - per replica and term kind: |E_gpu - E_ref| <= max(1e-5 |E_ref|, floor)
 *     with floor = 1e-6 kcal/mol for terms that are near zero (a planar ring's
 *     torsions); RMS(F_gpu - F_ref) / RMS(F_ref) <= 1e-5 and max |dF| /
 *     RMS(F_ref) <= 1e-3 per replica; the worst replica's figures printed;
 *   - bitwise: the same evaluation twice, workgroup 64 vs 256, 3 workgroups
 *     looping over every item, staged buffers, and each replica alone
 *     (R = 1) vs inside the 1,000-replica batch give the same int64 sums;
 *   - a command buffer recorded once and replayed with new coordinates gives
 *     the bits of fresh evaluations;
 *   - --debug-replica machinery: the debug pipeline changes no result bit,
 *     writes one record per term of that replica, and its energies and
 *     force pieces add up to the replica's totals;
 *   - batch packing errors; no validation error.
 * Positions are rounded to float before the reference sees them, so the
 * comparison measures the pass's arithmetic, not the fp32 input rounding. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/pass_uff.h"
#include "io/sdf.h"
#include "ref/ref_uff.h"
#include "system/uff_batch.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static double rnd(void) /* uniform [0, 1) */
{
    return test_uniform(&rng_state);
}

/* One molecule with its terms. */
typedef struct test_mol {
    vkmd_uff_molecule mol; /* borrowed view or owned copy; only positions read here */
    vkmd_uff_typing types;
    vkmd_uff_terms terms;
    int ok;
} test_mol;

static void mol_setup(const vkmd_uff_molecule *m, test_mol *out)
{
    memset(out, 0, sizeof *out);
    out->mol = *m;
    vkmd_result r = vkmd_uff_setup(m, NULL, &out->types, &out->terms);
    CHECK_OK(r);
    out->ok = r == VKMD_OK;
}

static void mol_free(test_mol *t)
{
    vkmd_uff_terms_free(&t->terms);
    vkmd_uff_typing_free(&t->types);
}

/* Replica coordinates: the molecule's conformer 0 displaced by up to `amp` A
 * per coordinate (amp 0: as given), rounded to float. */
static void conformation(const vkmd_uff_molecule *m, double amp, double *out)
{
    for (int32_t i = 0; i < 3 * m->atom_count; ++i)
        out[i] = (double)(float)(m->positions[i] + amp * (2.0 * rnd() - 1.0));
}

static double amplitude(int32_t r)
{
    return 0.02 + 0.18 * (double)((r * 37) % 100) / 99.0;
}

/* A GPU evaluation: forces, energies and the raw fixed-point buffers. */
typedef struct gpu_run {
    double *forces;             /* [3 * atoms] */
    vkmd_uff_energy *energy;    /* [replicas] */
    int64_t *raw_forces;        /* [3 * atoms] */
    int64_t *raw_energy;        /* [replicas * stride] */
    vkmd_uff_debug_record *dbg; /* [debug count] */
    int32_t dbg_count;
    int ok;
} gpu_run;

static void gpu_run_free(gpu_run *g)
{
    free(g->forces);
    free(g->energy);
    free(g->raw_forces);
    free(g->raw_energy);
    free(g->dbg);
    memset(g, 0, sizeof *g);
}

static void run_gpu(vkmd_vk_context *ctx, const vkmd_uff_batch *b, const double *xyz,
                    const vkmd_pass_uff_desc *desc, gpu_run *out)
{
    memset(out, 0, sizeof *out);
    const size_t na = (size_t)b->atom_count, nr = (size_t)b->replica_count;
    out->forces = calloc(3 * na, sizeof *out->forces);
    out->energy = calloc(nr, sizeof *out->energy);
    out->raw_forces = calloc(3 * na, sizeof *out->raw_forces);
    out->raw_energy = calloc(nr * VKMD_UFF_ENERGY_STRIDE, sizeof *out->raw_energy);
    vkmd_pass_uff *pass = NULL;
    vkmd_result r = vkmd_pass_uff_create(ctx, b, desc, &pass);
    CHECK_OK(r);
    if (r != VKMD_OK)
        return;
    vkmd_result e = vkmd_pass_uff_evaluate(ctx, pass, xyz, out->forces, out->energy);
    CHECK_OK(e);
    CHECK_OK(vkmd_vk_buffer_readback(ctx, vkmd_pass_uff_forces(pass), 0, out->raw_forces,
                                     3 * na * sizeof(int64_t)));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, vkmd_pass_uff_energies(pass), 0, out->raw_energy,
                                     nr * VKMD_UFF_ENERGY_STRIDE * sizeof(int64_t)));
    out->dbg_count = vkmd_pass_uff_debug_count(pass);
    if (out->dbg_count > 0) {
        out->dbg = calloc((size_t)out->dbg_count, sizeof *out->dbg);
        CHECK_OK(vkmd_pass_uff_readback_debug(ctx, pass, out->dbg));
    }
    out->ok = e == VKMD_OK;
    vkmd_pass_uff_destroy(ctx, pass);
}

static int same_bits(const gpu_run *a, const gpu_run *b, const vkmd_uff_batch *batch)
{
    return a->ok && b->ok &&
           !memcmp(a->raw_forces, b->raw_forces, 3 * (size_t)batch->atom_count * sizeof(int64_t)) &&
           !memcmp(a->raw_energy, b->raw_energy,
                   (size_t)batch->replica_count * VKMD_UFF_ENERGY_STRIDE * sizeof(int64_t));
}

static const char *const term_names[7] = {"bond",          "angle",   "torsion", "inversion",
                                          "van der Waals", "Coulomb", "total"};

static void energy_parts(const vkmd_uff_energy *e, double out[7])
{
    out[0] = e->bond;
    out[1] = e->angle;
    out[2] = e->torsion;
    out[3] = e->inversion;
    out[4] = e->vdw;
    out[5] = e->coulomb;
    out[6] = e->total;
}

/* Compares every replica of `run` with the reference; prints the worst
 * replica per term and for the forces. */
static void check_all(const char *label, test_mol *const *mols, const vkmd_uff_batch *b,
                      const double *xyz, const gpu_run *run)
{
    double worst_rel[7] = {0}, worst_ratio[7] = {0}, worst_ref[7] = {0};
    int32_t worst_rep[7] = {0};
    double worst_frms = 0, worst_fmax = 0;
    int32_t worst_frms_rep = 0, worst_fmax_rep = 0, bad_replicas = 0;
    double *fref = calloc(3 * (size_t)b->atom_count, sizeof *fref);
    for (int32_t r = 0; r < b->replica_count; ++r) {
        const test_mol *m = mols[b->replica_molecule[r]];
        const int32_t n = m->terms.atom_count, off = b->replica_atom_offset[r];
        vkmd_uff_energy eref;
        CHECK_OK(vkmd_ref_uff_compute(&m->terms, xyz + 3 * (size_t)off, &eref, fref));
        double pr[7], pg[7];
        energy_parts(&eref, pr);
        energy_parts(&run->energy[r], pg);
        int bad = 0;
        for (int k = 0; k < 7; ++k) {
            double err = fabs(pg[k] - pr[k]);
            double limit = fmax(TOL_FP32_ENERGY_REL * fabs(pr[k]), TOL_UFF_ENERGY_FLOOR);
            double rel = pr[k] != 0 ? err / fabs(pr[k]) : (err > 0 ? INFINITY : 0);
            if (err / limit > worst_ratio[k]) {
                worst_ratio[k] = err / limit;
                worst_rel[k] = rel;
                worst_ref[k] = pr[k];
                worst_rep[k] = r;
            }
            if (err > limit) {
                bad = 1;
                if (bad_replicas < 5)
                    fprintf(stderr, "  replica %d (%s) %s: GPU %.10g ref %.10g (err %.3g)\n", r,
                            m->mol.name, term_names[k], pg[k], pr[k], err);
            }
        }
        const double *fg = run->forces + 3 * (size_t)off;
        double frms = rms_rel_error(fg, fref, 3 * n);
        double fscale = rms(fref, 3 * n);
        double fmax = fscale > 0 ? max_abs_error(fg, fref, 3 * n) / fscale : 0;
        if (frms > worst_frms) {
            worst_frms = frms;
            worst_frms_rep = r;
        }
        if (fmax > worst_fmax) {
            worst_fmax = fmax;
            worst_fmax_rep = r;
        }
        if (!(frms <= TOL_FP32_FORCE_RMS) || !(fmax <= TOL_FP32_FORCE_MAX)) {
            bad = 1;
            if (bad_replicas < 5)
                fprintf(stderr, "  replica %d (%s) forces: RMS-rel %.3g, max/RMS %.3g\n", r,
                        m->mol.name, frms, fmax);
        }
        bad_replicas += bad;
    }
    printf("  %s: every one of %d replicas checked; worst replica per term (limit max(%.0e "
           "rel, %.0e kcal/mol)):\n",
           label, b->replica_count, TOL_FP32_ENERGY_REL, TOL_UFF_ENERGY_FLOOR);
    for (int k = 0; k < 7; ++k) {
        if (k == 5 && !b->coulomb)
            continue;
        printf("    %-14s rel err %.2e (%.3f of the limit), replica %d (%s), E_ref %.6f "
               "kcal/mol\n",
               term_names[k], worst_rel[k], worst_ratio[k], worst_rep[k],
               mols[b->replica_molecule[worst_rep[k]]]->mol.name, worst_ref[k]);
    }
    printf("    forces: worst RMS(F_gpu - F_ref)/RMS(F_ref) %.2e (replica %d, limit %.0e); worst "
           "max|dF|/RMS(F_ref) %.2e (replica %d, limit %.0e)\n",
           worst_frms, worst_frms_rep, TOL_FP32_FORCE_RMS, worst_fmax, worst_fmax_rep,
           TOL_FP32_FORCE_MAX);
    CHECK_MSG(bad_replicas == 0, "%s: %d of %d replicas out of tolerance", label, bad_replicas,
              b->replica_count);
    free(fref);
}

/* Batch coordinates: replica r from conformation(amplitude(r)); replicas
 * with amp_zero_every > 0 and r % amp_zero_every == 0 keep the record's
 * coordinates. */
static double *batch_coordinates(test_mol *const *mols, const vkmd_uff_batch *b, int amp_zero_every)
{
    double *xyz = calloc(3 * (size_t)b->atom_count, sizeof *xyz);
    for (int32_t r = 0; r < b->replica_count; ++r) {
        double amp = amp_zero_every > 0 && r % amp_zero_every == 0 ? 0.0 : amplitude(r);
        conformation(&mols[b->replica_molecule[r]]->mol, amp,
                     xyz + 3 * (size_t)b->replica_atom_offset[r]);
    }
    return xyz;
}

/* R replicas of one molecule: all checks, bitwise repeat, workgroup 256; for
 * the largest R also each of a few replicas alone vs inside the batch. */
static void test_replicas(vkmd_vk_context *ctx, test_mol *m, int32_t R, int staged)
{
    vkmd_uff_batch b;
    test_mol *mols[1] = {m};
    const vkmd_uff_terms *terms[1] = {&m->terms};
    CHECK_OK(vkmd_uff_batch_build(terms, 1, NULL, R, &b));
    if (b.replica_count != R)
        return;
    printf("== %s x %d replicas: %d atoms, %u items in %u ranges%s\n", m->mol.name, R, b.atom_count,
           b.item_count, b.range_count, staged ? ", staged buffers" : "");
    double *xyz = batch_coordinates(mols, &b, 0);
    const vkmd_pass_uff_desc d64 = {.force_staging = staged};
    const vkmd_pass_uff_desc d256 = {.workgroup_size = 256, .force_staging = staged};
    const vkmd_pass_uff_desc looped = {.max_groups = 3};
    gpu_run a, a2, c, l;
    run_gpu(ctx, &b, xyz, &d64, &a);
    run_gpu(ctx, &b, xyz, &d64, &a2);
    run_gpu(ctx, &b, xyz, &d256, &c);
    run_gpu(ctx, &b, xyz, &looped, &l);
    char label[160];
    snprintf(label, sizeof label, "%s x %d", m->mol.name, R);
    if (a.ok)
        check_all(label, mols, &b, xyz, &a);
    int rep = same_bits(&a, &a2, &b), wg = same_bits(&a, &c, &b), loop = same_bits(&a, &l, &b);
    printf("  two evaluations bitwise identical: %s; workgroup 64 vs 256: %s; 3 workgroups "
           "looping over all items: %s\n",
           rep ? "yes" : "NO", wg ? "yes" : "NO", loop ? "yes" : "NO");
    CHECK(rep);
    CHECK(wg);
    CHECK(loop);

    if (R >= 1000) { /* a replica's sums do not depend on the batch around it */
        vkmd_uff_batch one;
        CHECK_OK(vkmd_uff_batch_build(terms, 1, NULL, 1, &one));
        const int32_t picks[4] = {0, 1, R / 2 + 3, R - 1};
        int same = 1;
        const int32_t n = m->terms.atom_count;
        for (int p = 0; p < 4 && one.replica_count == 1; ++p) {
            int32_t r = picks[p];
            gpu_run s;
            run_gpu(ctx, &one, xyz + 3 * (size_t)b.replica_atom_offset[r], &d64, &s);
            for (int axis = 0; axis < 3 && s.ok; ++axis)
                same &=
                    !memcmp(s.raw_forces + (size_t)axis * n,
                            a.raw_forces + (size_t)axis * b.atom_count + b.replica_atom_offset[r],
                            (size_t)n * sizeof(int64_t));
            same &= s.ok && !memcmp(s.raw_energy, a.raw_energy + (size_t)r * VKMD_UFF_ENERGY_STRIDE,
                                    VKMD_UFF_ENERGY_STRIDE * sizeof(int64_t));
            gpu_run_free(&s);
        }
        printf("  replicas 0, 1, %d, %d alone (R = 1) bitwise identical to inside the batch: %s\n",
               R / 2 + 3, R - 1, same ? "yes" : "NO");
        CHECK(same);
        vkmd_uff_batch_free(&one);
    }
    gpu_run_free(&a);
    gpu_run_free(&a2);
    gpu_run_free(&c);
    gpu_run_free(&l);
    free(xyz);
    vkmd_uff_batch_free(&b);
}

/* The debug pipeline for replica k: same bits as `plain`, one record per
 * term of that replica, energies and force pieces adding up. */
static void check_debug(vkmd_vk_context *ctx, test_mol *const *mols, const vkmd_uff_batch *b,
                        const double *xyz, const gpu_run *plain, int32_t k)
{
    const vkmd_pass_uff_desc dd = {.debug = 1, .debug_replica = k};
    gpu_run g;
    run_gpu(ctx, b, xyz, &dd, &g);
    const test_mol *m = mols[b->replica_molecule[k]];
    const int32_t n = m->terms.atom_count, off = b->replica_atom_offset[k];
    int32_t expect = vkmd_uff_batch_replica_terms(b, k);
    int same = same_bits(&g, plain, b);
    int32_t written = 0;
    double e[VKMD_UFF_ENERGY_COUNT] = {0};
    double *f = calloc(3 * (size_t)n, sizeof *f);
    double worst_r = 0;
    for (int32_t i = 0; g.ok && i < g.dbg_count; ++i) {
        const vkmd_uff_debug_record *d = &g.dbg[i];
        if (d->info.z != 1)
            continue;
        ++written;
        const uint32_t at[4] = {d->atoms.x, d->atoms.y, d->atoms.z, d->atoms.w};
        const vkmd_gpu_vec4 *fp = d->force;
        int natoms = d->info.x == VKMD_UFF_KIND_BOND || d->info.x == VKMD_UFF_KIND_PAIR ? 2
                     : d->info.x == VKMD_UFF_KIND_ANGLE                                 ? 3
                                                                                        : 4;
        for (int q = 0; q < natoms; ++q) {
            f[3 * at[q]] += fp[q].x;
            f[3 * at[q] + 1] += fp[q].y;
            f[3 * at[q] + 2] += fp[q].z;
        }
        if (d->info.x == VKMD_UFF_KIND_PAIR) {
            e[VKMD_UFF_ENERGY_VDW] += d->energy.x;
            e[VKMD_UFF_ENERGY_COULOMB] += d->energy.z;
        } else {
            e[d->info.x] += d->energy.x;
        }
        if (d->info.x == VKMD_UFF_KIND_BOND) { /* geometry: r against the double distance */
            const double *x = xyz + 3 * (size_t)off;
            double dd2 = 0;
            for (int c = 0; c < 3; ++c) {
                double t = x[3 * at[0] + c] - x[3 * at[1] + c];
                dd2 += t * t;
            }
            worst_r = fmax(worst_r, fabs(d->geom.x - sqrt(dd2)) / sqrt(dd2));
        }
    }
    double got[VKMD_UFF_ENERGY_COUNT] = {
        g.energy ? g.energy[k].bond : 0,    g.energy ? g.energy[k].angle : 0,
        g.energy ? g.energy[k].torsion : 0, g.energy ? g.energy[k].inversion : 0,
        g.energy ? g.energy[k].vdw : 0,     g.energy ? g.energy[k].coulomb : 0};
    double worst_e = 0;
    for (int s = 0; s < VKMD_UFF_ENERGY_COUNT; ++s)
        worst_e = fmax(worst_e, fabs(e[s] - got[s]) / fmax(fabs(got[s]), 1.0));
    double frel = g.ok ? rms_rel_error(f, g.forces + 3 * (size_t)off, 3 * n) : 1;
    printf("  --debug-replica %d (%s): %d of %d records written (one per term), result bits "
           "unchanged: %s; records' energies vs the sums %.1e, force pieces vs forces RMS-rel "
           "%.1e, bond r vs double %.1e\n",
           k, m->mol.name, written, expect, same ? "yes" : "NO", worst_e, frel, worst_r);
    CHECK(same);
    CHECK(g.dbg_count == expect && written == expect);
    CHECK(worst_e <= TOL_UFF_DEBUG_REL);
    CHECK(frel <= TOL_UFF_DEBUG_REL);
    CHECK(worst_r <= TOL_UFF_DEBUG_REL);
    free(f);
    gpu_run_free(&g);
}

static void test_mixed(vkmd_vk_context *ctx, vkmd_uff_molecule *recs, int32_t nrec,
                       test_mol *charged)
{
    int32_t M = nrec + 1;
    test_mol *tm = calloc((size_t)nrec, sizeof *tm);
    test_mol **mols = calloc((size_t)M, sizeof *mols);
    const vkmd_uff_terms **terms = calloc((size_t)M, sizeof *terms);
    int ok = 1;
    for (int32_t k = 0; k < nrec; ++k) {
        mol_setup(&recs[k], &tm[k]);
        ok &= tm[k].ok;
        mols[k] = &tm[k];
        terms[k] = &tm[k].terms;
    }
    mols[nrec] = charged;
    terms[nrec] = &charged->terms;
    /* three replicas of every molecule, interleaved: replica r is molecule r % M */
    int32_t R = 3 * M;
    int32_t *which = calloc((size_t)R, sizeof *which);
    for (int32_t r = 0; r < R; ++r)
        which[r] = r % M;
    vkmd_uff_batch b;
    memset(&b, 0, sizeof b);
    if (ok)
        CHECK_OK(vkmd_uff_batch_build(terms, M, which, R, &b));
    if (b.replica_count == R) {
        printf("== mixed batch: %d molecules of molecules.sdf + xylitol with charges, %d "
               "replicas (as given and displaced, interleaved), %d atoms, %u items in %u "
               "ranges\n",
               M, R, b.atom_count, b.item_count, b.range_count);
        double *xyz = batch_coordinates(mols, &b, 3);
        gpu_run a, a2;
        run_gpu(ctx, &b, xyz, NULL, &a);
        const vkmd_pass_uff_desc staged = {.force_staging = 1};
        run_gpu(ctx, &b, xyz, &staged, &a2);
        if (a.ok)
            check_all("mixed batch", mols, &b, xyz, &a);
        int same = same_bits(&a, &a2, &b);
        printf("  repeat with staged buffers bitwise identical: %s\n", same ? "yes" : "NO");
        CHECK(same);
        /* debug: a molecule with every bonded kind, and the charged one */
        int32_t k_pen = -1;
        for (int32_t r = 0; r < R; ++r)
            if (!strcmp(mols[which[r]]->mol.name, "benzylpenicillin") && r >= M)
                k_pen = k_pen < 0 ? r : k_pen;
        if (a.ok && k_pen >= 0)
            check_debug(ctx, mols, &b, xyz, &a, k_pen);
        if (a.ok)
            check_debug(ctx, mols, &b, xyz, &a, R - 1);
        gpu_run_free(&a);
        gpu_run_free(&a2);
        free(xyz);
    }
    vkmd_uff_batch_free(&b);
    for (int32_t k = 0; k < nrec; ++k)
        mol_free(&tm[k]);
    free(tm);
    free(mols);
    free(terms);
    free(which);
}

/* The pattern a minimiser or MD loop uses: one command buffer recorded once
 * (clear, dispatch, barrier) and replayed after new coordinates are
 * uploaded; each replay gives the bits of a fresh evaluation. */
static void test_replay(vkmd_vk_context *ctx, test_mol *m)
{
    vkmd_uff_batch b;
    test_mol *mols[1] = {m};
    const vkmd_uff_terms *terms[1] = {&m->terms};
    CHECK_OK(vkmd_uff_batch_build(terms, 1, NULL, 10, &b));
    if (b.replica_count != 10)
        return;
    printf("== recorded once, replayed with new coordinates (%s x 10)\n", m->mol.name);
    const size_t nf = 3 * (size_t)b.atom_count, ne = 10 * VKMD_UFF_ENERGY_STRIDE;
    vkmd_pass_uff *pass = NULL;
    vkmd_vk_cmd cmd = {0};
    int64_t *rf = calloc(nf, sizeof *rf), *re = calloc(ne, sizeof *re);
    int same = 1;
    CHECK_OK(vkmd_pass_uff_create(ctx, &b, NULL, &pass));
    CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
    if (pass && cmd.cb) {
        CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
        vkmd_pass_uff_record_clear(pass, cmd.cb);
        vkmd_pass_uff_record(pass, cmd.cb);
        vkmd_vk_barrier_compute_to_transfer(cmd.cb);
        CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
        for (int round = 0; round < 3; ++round) {
            double *xyz = batch_coordinates(mols, &b, 0);
            gpu_run fresh;
            run_gpu(ctx, &b, xyz, NULL, &fresh);
            CHECK_OK(vkmd_pass_uff_upload_positions(ctx, pass, xyz));
            CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
            CHECK_OK(
                vkmd_vk_buffer_readback(ctx, vkmd_pass_uff_forces(pass), 0, rf, nf * sizeof *rf));
            CHECK_OK(
                vkmd_vk_buffer_readback(ctx, vkmd_pass_uff_energies(pass), 0, re, ne * sizeof *re));
            same &= fresh.ok && !memcmp(rf, fresh.raw_forces, nf * sizeof *rf) &&
                    !memcmp(re, fresh.raw_energy, ne * sizeof *re);
            gpu_run_free(&fresh);
            free(xyz);
        }
    }
    printf("  3 replays with new coordinates bitwise identical to fresh evaluations: %s\n",
           same ? "yes" : "NO");
    CHECK(same);
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_pass_uff_destroy(ctx, pass);
    free(rf);
    free(re);
    vkmd_uff_batch_free(&b);
}

static void test_batch_errors(const test_mol *m)
{
    printf("== batch packing errors\n");
    vkmd_uff_batch b;
    const vkmd_uff_terms *terms[2] = {&m->terms, NULL};
    const int32_t bad_index[2] = {0, 1};
    CHECK(vkmd_uff_batch_build(terms, 1, NULL, 0, &b) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  no replicas: %s\n", vkmd_last_error());
    CHECK(vkmd_uff_batch_build(terms, 1, bad_index, 2, &b) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  molecule index out of range: %s\n", vkmd_last_error());
    CHECK(vkmd_uff_batch_build(terms, 2, NULL, 1, &b) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  NULL molecule: %s\n", vkmd_last_error());
    vkmd_uff_terms broken = m->terms;
    vkmd_uff_bond_term bond = m->terms.bonds[0];
    bond.j = m->terms.atom_count;
    broken.bonds = &bond;
    broken.bond_count = 1;
    terms[0] = &broken;
    CHECK(vkmd_uff_batch_build(terms, 1, NULL, 1, &b) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  atom out of range: %s\n", vkmd_last_error());
    CHECK(b.terms == NULL && b.replica_count == 0);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_uff", &ctx);
    if (early >= 0)
        return early;

    vkmd_uff_molecule *recs = NULL;
    int32_t nrec = 0;
    CHECK_OK(vkmd_sdf_read(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &nrec));
    const vkmd_uff_molecule *xyl = NULL, *pen = NULL;
    for (int32_t k = 0; k < nrec; ++k) {
        if (!strcmp(recs[k].name, "xylitol"))
            xyl = &recs[k];
        if (!strcmp(recs[k].name, "benzylpenicillin"))
            pen = &recs[k];
    }
    CHECK(nrec == 57 && xyl && pen);
    if (xyl && pen) {
        test_mol mx, mp;
        mol_setup(xyl, &mx);
        mol_setup(pen, &mp);
        if (mx.ok && mp.ok) {
            const int32_t counts[4] = {1, 2, 10, 1000};
            for (int i = 0; i < 4; ++i)
                test_replicas(ctx, &mx, counts[i], 0);
            for (int i = 0; i < 4; ++i)
                test_replicas(ctx, &mp, counts[i], i == 2);

            /* xylitol with neutral random partial charges: the Coulomb term */
            vkmd_uff_molecule qm = *xyl;
            double *q = calloc((size_t)qm.atom_count, sizeof *q);
            double sum = 0;
            for (int32_t a = 0; a < qm.atom_count; ++a)
                sum += q[a] = rnd() - 0.5;
            for (int32_t a = 0; a < qm.atom_count; ++a)
                q[a] -= sum / qm.atom_count;
            qm.partial_charges = q;
            snprintf(qm.name, sizeof qm.name, "xylitol-charged");
            test_mol mq;
            mol_setup(&qm, &mq);
            if (mq.ok) {
                CHECK(mq.terms.coulomb == 1);
                test_replicas(ctx, &mq, 10, 0);
                test_mixed(ctx, recs, nrec, &mq);
            }
            mol_free(&mq);
            free(q);
            test_replay(ctx, &mx);
            test_batch_errors(&mx);
        }
        mol_free(&mx);
        mol_free(&mp);
    }
    vkmd_uff_molecule_array_free(recs, nrec);

    printf("validation errors: %u (warnings %u)\n", vkmd_vk_context_validation_errors(ctx),
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_uff");
}
