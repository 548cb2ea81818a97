/* Positional restraints on the device against the CPU reference
 * (ref_restraints), the restraint kind of the bonded dispatch:
 * - force field (pass by pass): water_nacl (periodic; references displaced
 *   by up to 0.9 A and, for every third atom, by whole box vectors, so the
 *   minimum image matters) in the three positions modes, harmonic and flat
 *   bottom, and villin_vac (vacuum): the restraint energy within
 *   TOL_FP32_ENERGY_REL and the restraint forces (the force field's forces
 *   minus those at k = 0, set by vkmd_forcefield_set_restraint_k on the same
 *   recorded passes) within TOL_FP32_FORCE_RMS of the reference; k = 0
 *   leaves every other term to the bit;
 * - the box: a bonded pass without settings (bonds, angles and restraints;
 *   the restraint part as the sums at k 10 minus those at k 0) after
 *   vkmd_pass_bonded_set_box to a box 3% larger (as a barostat's move
 *   does; the references are not scaled, as OpenMM's CustomExternalForce)
 *   matches the reference in that box;
 * - MD: the fused step (rebuild every step) and the pass-by-pass step give
 *   the same bits over 40 restrained Langevin steps on water_nacl; the fused
 *   report's restraint energy matches the reference at the positions read;
 *   vkmd_md_set_restraint_k to 0 and back gives the energy back and the
 *   fused step still records at most 10 dispatches per step. */
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "forces/pass_bonded.h"
#include "sim/md.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "system/amber_mask.h"
#include "testlib.h"
#include "tolerance.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void load(const char *name, vkmd_system *sys)
{
    char prmtop[1024], inpcrd[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_DATA_DIR, name);
    snprintf(inpcrd, sizeof inpcrd, "%s/%s.inpcrd", VKMD_TEST_DATA_DIR, name);
    memset(sys, 0, sizeof *sys);
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, sys));
}

/* The atoms of `mask` with references displaced from the coordinates by up
 * to `amp` A, and by box vectors for every third atom of a periodic system. */
static void make_restraints(const vkmd_system *sys, const char *mask, double amp, double k,
                            double rfb, vkmd_restraints *out)
{
    const int32_t n = sys->atom_count;
    uint8_t *sel = calloc((size_t)n, 1);
    double *ref = malloc(sizeof *ref * 3 * (size_t)n);
    memcpy(ref, sys->positions, sizeof *ref * 3 * (size_t)n);
    CHECK_OK(vkmd_amber_mask_select(sys, mask, sel, NULL));
    for (int32_t a = 0, m = 0; a < n; ++a) {
        if (!sel[a])
            continue;
        ref[3 * a] += amp * sin(1.3 * m + 0.2);
        ref[3 * a + 1] += amp * cos(0.7 * m);
        ref[3 * a + 2] += amp * 0.6 * sin(2.9 * m + 1.0);
        if (sys->box.periodic && m % 3 == 0) {
            ref[3 * a] += sys->box.len[0] * (m % 2 ? 1 : -1);
            ref[3 * a + 2] += 2 * sys->box.len[2];
        }
        ++m;
    }
    CHECK_OK(vkmd_restraints_build(sel, n, ref, k, rfb, out));
    free(sel);
    free(ref);
}

static void forcefield_case(vkmd_vk_context *ctx, const char *name, const char *mask, double rfb,
                            int positions)
{
    vkmd_system sys;
    load(name, &sys);
    const int32_t n = sys.atom_count;
    vkmd_restraints r;
    make_restraints(&sys, mask, 0.9, 10, rfb, &r);
    vkmd_ff_settings s = {.positions = positions};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    const vkmd_forcefield_desc fd = {.settings = &s, .restraints = &r};
    vkmd_forcefield *ff = NULL;
    CHECK_OK(vkmd_forcefield_create(ctx, &sys, &fd, &ff));
    double *f1 = calloc(3 * (size_t)n, sizeof(double)), *f0 = calloc(3 * (size_t)n, sizeof(double));
    double *fr = calloc(3 * (size_t)n, sizeof(double));
    vkmd_energy e1, e0;
    if (ff) {
        CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &e1, f1));
        CHECK_OK(vkmd_forcefield_set_restraint_k(ctx, ff, 0));
        CHECK_OK(vkmd_forcefield_evaluate(ctx, ff, NULL, &e0, f0));
        const double er = ref_restraints(&r, &sys.box, sys.positions, fr);
        for (int32_t i = 0; i < 3 * n; ++i)
            f1[i] -= f0[i];
        char what[200];
        snprintf(what, sizeof what, "%s %s%s, %d atoms: restraint energy GPU vs reference", name,
                 vkmd_positions_mode_name(positions), rfb > 0 ? ", flat bottom" : "", r.count);
        check_close(what, e1.restraint, er, TOL_FP32_ENERGY_REL, 0);
        const double ferr = rms_rel_error(f1, fr, 3 * n);
        printf("  %s: restraint forces RMS relative error %.2g (limit %g)\n", what, ferr,
               TOL_FP32_FORCE_RMS);
        CHECK(ferr <= TOL_FP32_FORCE_RMS);
        CHECK(e0.restraint == 0);
        CHECK(e0.bond == e1.bond && e0.lj_pair == e1.lj_pair &&
              e0.coulomb_real == e1.coulomb_real && e0.coulomb_recip == e1.coulomb_recip &&
              e0.coulomb14 == e1.coulomb14);
        CHECK(fabs(e1.total - e0.total - e1.restraint) <= 1e-9 * fabs(e1.total) + 1e-9);
        CHECK(vkmd_forcefield_set_restraint_k(ctx, ff, -1) == VKMD_ERROR_INVALID_ARGUMENT);
    }
    vkmd_forcefield_destroy(ctx, ff);
    free(f1);
    free(f0);
    free(fr);
    vkmd_restraints_destroy(&r);
    vkmd_system_destroy(&sys);
}

static void box_case(vkmd_vk_context *ctx)
{
    vkmd_system sys;
    load("water_nacl", &sys);
    const int32_t n = sys.atom_count;
    vkmd_restraints r;
    make_restraints(&sys, ":1-30@O | :NA,CL", 0.9, 10, 0, &r);
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    const vkmd_forcefield_desc fd = {.settings = &s};
    vkmd_forcefield *ff = NULL;
    vkmd_pass_bonded *pass = NULL;
    CHECK_OK(vkmd_forcefield_create(ctx, &sys, &fd, &ff));
    double *f = calloc(3 * (size_t)n, sizeof *f), *fr = calloc(3 * (size_t)n, sizeof *fr);
    if (ff) {
        const vkmd_pass_bonded_desc bd = {.positions = vkmd_forcefield_positions(ff),
                                          .accum = vkmd_forcefield_accum(ff),
                                          .restraints = &r};
        CHECK_OK(vkmd_pass_bonded_create(ctx, &sys, &bd, &pass));
    }
    if (pass) {
        vkmd_box big = sys.box;
        for (int d = 0; d < 3; ++d)
            big.len[d] *= 1.03;
        vkmd_pass_bonded_set_box(pass, &big);
        vkmd_energy e = {0}, e0 = {0};
        double *f0 = calloc(3 * (size_t)n, sizeof *f0);
        for (int pass_k = 0; pass_k < 2; ++pass_k) {
            /* k 10, then k 0: the difference is the restraint force alone
             * (the waters' bonds and angles are in both sums, same bits) */
            if (pass_k == 1)
                CHECK_OK(vkmd_pass_bonded_set_restraint_k(ctx, pass, 0));
            VkCommandBuffer cb = VK_NULL_HANDLE;
            CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
            vkmd_accum_record_clear(cb, vkmd_forcefield_accum(ff));
            vkmd_vk_barrier_transfer_to_compute(cb);
            vkmd_pass_bonded_record(pass, cb, 1);
            CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
            CHECK_OK(vkmd_pass_bonded_readback(ctx, pass, pass_k ? f0 : f, pass_k ? &e0 : &e));
        }
        for (int32_t i = 0; i < 3 * n; ++i)
            f[i] -= f0[i];
        free(f0);
        CHECK(e0.restraint == 0 && e0.bond == e.bond);
        const double er = ref_restraints(&r, &big, sys.positions, fr);
        const double er_old = ref_restraints(&r, &sys.box, sys.positions, NULL);
        char what[160];
        snprintf(what, sizeof what, "box 3%% larger: restraint energy (%.3f in the old box)",
                 er_old);
        check_close(what, e.restraint, er, TOL_FP32_ENERGY_REL, 0);
        CHECK(fabs(er - er_old) > 1e-3 * er); /* the box matters for this set */
        const double ferr = rms_rel_error(f, fr, 3 * n);
        printf("  box 3%% larger: restraint forces RMS relative error %.2g\n", ferr);
        CHECK(ferr <= TOL_FP32_FORCE_RMS);
    }
    vkmd_pass_bonded_destroy(ctx, pass);
    vkmd_forcefield_destroy(ctx, ff);
    free(f);
    free(fr);
    vkmd_restraints_destroy(&r);
    vkmd_system_destroy(&sys);
}

static void md_run(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_restraints *r,
                   int unfused, double *x, double *out_restraint)
{
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    const vkmd_md_desc d = {.settings = &s,
                            .seed = 3,
                            .max_batch_steps = 20,
                            .unfused = unfused ? 1 : -1,
                            .restraints = r};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return;
    CHECK(vkmd_md_fused(md) == !unfused);
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 7));
    CHECK_OK(vkmd_md_step(ctx, md, 40));
    vkmd_md_report rep;
    CHECK_OK(vkmd_md_read(ctx, md, &rep, x, NULL));
    *out_restraint = rep.potential.restraint;
    if (!unfused) {
        const double er = ref_restraints(r, &sys->box, x, NULL);
        check_close("fused MD, 40 steps: restraint energy vs reference at the positions read",
                    rep.potential.restraint, er, TOL_FP32_ENERGY_REL, 0);
        CHECK_OK(vkmd_md_set_restraint_k(ctx, md, 0));
        vkmd_md_report r0;
        CHECK_OK(vkmd_md_read(ctx, md, &r0, NULL, NULL));
        CHECK(r0.potential.restraint == 0);
        CHECK_OK(vkmd_md_set_restraint_k(ctx, md, r->k));
        vkmd_md_report r1;
        CHECK_OK(vkmd_md_read(ctx, md, &r1, NULL, NULL));
        check_close("k 10 -> 0 -> 10: the restraint energy comes back", r1.potential.restraint,
                    rep.potential.restraint, 1e-6, 0);
    }
    vkmd_md_destroy(ctx, md);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_gpu_restraint", &ctx);
    if (rc >= 0)
        return rc;
    const char *ions_and_oxygens = ":1-30@O | :NA,CL";
    for (int p = VKMD_POSITIONS_FP32; p <= VKMD_POSITIONS_SPLIT_INT; ++p)
        forcefield_case(ctx, "water_nacl", ions_and_oxygens, 0, p);
    forcefield_case(ctx, "water_nacl", ions_and_oxygens, 0.3, VKMD_POSITIONS_FP32);
    forcefield_case(ctx, "villin_vac", "!:Cl & !@H=", 0, VKMD_POSITIONS_FP32);
    forcefield_case(ctx, "villin_vac", "!:Cl & !@H=", 0.3, VKMD_POSITIONS_SPLIT_FLOAT);

    box_case(ctx);

    vkmd_system sys;
    load("water_nacl", &sys);
    vkmd_restraints r;
    make_restraints(&sys, ions_and_oxygens, 0.3, 10, 0, &r);
    const size_t n3 = 3 * (size_t)sys.atom_count;
    double *xa = calloc(n3, sizeof(double)), *xb = calloc(n3, sizeof(double));
    double ea = 0, eb = 0;
    md_run(ctx, &sys, &r, 1, xa, &ea);
    md_run(ctx, &sys, &r, 0, xb, &eb);
    const int same = !memcmp(xa, xb, sizeof(double) * n3);
    printf("  40 restrained steps, fused vs pass by pass: %s (restraint %.6f / %.6f kcal/mol)\n",
           same ? "same bits" : "DIFFERENT", eb, ea);
    if (test_same_bits_device(ctx)) {
        CHECK(same && ea == eb && ea > 0);
    } else {
        double d2 = 0;
        for (size_t i = 0; i < n3; ++i)
            d2 += (xa[i] - xb[i]) * (xa[i] - xb[i]);
        CHECK(sqrt(d2 / (double)(n3 / 3)) <= TOL_FUSED_GPU_RMSD_A && ea > 0 &&
              fabs(ea - eb) <= TOL_FUSED_GPU_ENERGY_REL * ea);
    }
    /* The dispatch count of a fused step with restraints, at the default
     * rebuild_every (as test_md_fused counts it). */
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    const vkmd_md_desc d = {.settings = &s, .restraints = &r};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, &sys, &d, &md));
    if (md) {
        vkmd_md_profile prof;
        CHECK_OK(vkmd_md_profile_steps(ctx, md, 2, &prof));
        printf("  fused step with restraints: %.1f dispatches, %.1f barriers per step\n",
               prof.dispatches_per_step, prof.barriers_per_step);
        CHECK(prof.dispatches_per_step <= 8.0 && prof.barriers_per_step <= 8.0);
        vkmd_md_destroy(ctx, md);
    }
    free(xa);
    free(xb);
    vkmd_restraints_destroy(&r);
    vkmd_system_destroy(&sys);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_restraint");
}
