/* GPU non-bonded pass (shaders/nonbonded.comp, engine/forces/pass_nonbonded.c)
 * with the device neighbour list, against the double-precision reference
 * ref_nonbonded_pairs:
 *   - water:216 (box 18.6 A, list radius above half the box), the committed
 *     water_box, water_nacl and water_na_charged (periodic, Ewald real
 *     space), villin_vac, ala2_vac and water_box without its box (no box:
 *     all pairs, plain Coulomb; odd and even cluster counts, padding) and
 *     water:8000 (24,000 atoms);
 *   - LJ and real-space Coulomb energies each within 1e-5 relative, their sum
 *     within 1e-6, forces RMS(F_gpu - F_ref) / RMS(F_ref) <= 1e-5 and
 *     max |dF| <= 1e-3 RMS(F_ref) (tests/tolerance.h), figures printed;
 *   - bitwise identical forces and energies from a second evaluation with the
 *     same list, from a fresh list and pass, and with another workgroup size;
 *     the pipeline without energies gives the same force bits (so a
 *     trajectory does not depend on which steps report); a context whose
 *     tile kernels pass data through shared memory instead of subgroup
 *     shuffles (VKMD_FORCE_TILE_SHARED=1, the fallback build) gives the same
 *     bits too;
 *   - no validation error.
 * Positions are rounded to float before the reference sees them, so the
 * comparison measures the pass's arithmetic, not the input rounding. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/pass_nonbonded.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gpu_eval {
    double *forces; /* [3N] kcal/mol/A */
    vkmd_energy energy;
    int64_t *raw_forces[3]; /* [3N] fixed point: two evaluations with one list, then one
                               without energies */
    int64_t raw_energy[2][VKMD_ENERGY_SLOT_COUNT];
    vkmd_neighbor_stats stats;
    size_t nl_bytes, pass_bytes;
    int lj_table;
} gpu_eval;

static void gpu_eval_free(gpu_eval *e)
{
    free(e->forces);
    free(e->raw_forces[0]);
    free(e->raw_forces[1]);
    free(e->raw_forces[2]);
}

/* Two evaluations (clear, list record, pass record) in one submission each,
 * with one list and pass. */
static void run_gpu(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *s,
                    uint32_t workgroup_size, int force_staging, gpu_eval *out)
{
    const int32_t n = sys->atom_count;
    memset(out, 0, sizeof *out);
    out->forces = calloc(3 * (size_t)n, sizeof(double));
    for (int k = 0; k < 3; ++k)
        out->raw_forces[k] = calloc(3 * (size_t)n, sizeof(int64_t));
    vkmd_vk_buffer pos = {0};
    vkmd_accum acc = {0};
    vkmd_neighbor *nl = NULL;
    vkmd_pass_nonbonded *pass = NULL;
    vkmd_vk_cmd cmd = {0};
    CHECK_OK(vkmd_positions_create(ctx, n, force_staging, &pos));
    CHECK_OK(vkmd_positions_upload(ctx, &pos, sys->positions, n));
    CHECK_OK(vkmd_accum_create(ctx, n, force_staging, &acc));
    if (sys->box.periodic) {
        const vkmd_neighbor_desc nd = {.positions = &pos,
                                       .cutoff_a = s->cutoff_a,
                                       .workgroup_size = workgroup_size,
                                       .force_staging = force_staging};
        CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    }
    const vkmd_pass_nonbonded_desc desc = {.positions = &pos,
                                           .accum = &acc,
                                           .neighbor = nl,
                                           .settings = s,
                                           .workgroup_size = workgroup_size,
                                           .force_staging = force_staging};
    if (!sys->box.periodic || nl)
        CHECK_OK(vkmd_pass_nonbonded_create(ctx, sys, &desc, &pass));
    if (pass) {
        for (int k = 0; k < 3; ++k) {
            if (k != 1) { /* record with energies, then (k = 2) without */
                vkmd_vk_cmd_destroy(ctx, &cmd);
                CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
                CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
                vkmd_accum_record_clear(cmd.cb, &acc);
                if (nl)
                    vkmd_neighbor_record(nl, cmd.cb, VKMD_NL_RECORD_NO_PRUNE);
                vkmd_pass_nonbonded_record(pass, cmd.cb, k == 0);
                vkmd_vk_barrier_compute_to_transfer(cmd.cb);
                CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
            }
            CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
            CHECK_OK(
                vkmd_vk_buffer_readback(ctx, &acc.forces, 0, out->raw_forces[k], acc.forces.size));
            if (k < 2)
                CHECK_OK(vkmd_vk_buffer_readback(ctx, &acc.energies, 0, out->raw_energy[k],
                                                 sizeof out->raw_energy[k]));
            if (k == 1)
                CHECK_OK(vkmd_pass_nonbonded_readback(ctx, pass, out->forces, &out->energy));
        }
        out->lj_table = vkmd_pass_nonbonded_lj_table(pass);
        out->pass_bytes = vkmd_pass_nonbonded_memory_bytes(pass);
        if (nl) {
            CHECK_OK(vkmd_neighbor_check(ctx, nl, &out->stats));
            out->nl_bytes = vkmd_neighbor_memory_bytes(nl);
        }
    }
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_pass_nonbonded_destroy(ctx, pass);
    vkmd_neighbor_destroy(ctx, nl);
    vkmd_accum_destroy(ctx, &acc);
    vkmd_vk_buffer_destroy(ctx, &pos);
}

static int same_bits(const gpu_eval *a, int ka, const gpu_eval *b, int kb, int32_t n)
{
    return !memcmp(a->raw_forces[ka], b->raw_forces[kb], 3 * (size_t)n * sizeof(int64_t)) &&
           !memcmp(a->raw_energy[ka], b->raw_energy[kb], sizeof a->raw_energy[ka]);
}

static vkmd_vk_context *shared_ctx; /* tile kernels through shared memory */

static void compare(vkmd_vk_context *ctx, const char *label, vkmd_system *sys, int force_staging)
{
    const int32_t n = sys->atom_count;
    for (int i = 0; i < 3 * n; ++i)
        sys->positions[i] = (double)(float)sys->positions[i];
    vkmd_ff_settings s;
    memset(&s, 0, sizeof s);
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    if (sys->box.periodic)
        printf("== %s: %d atoms, %d exclusions, box %.3f x %.3f x %.3f A, cutoff %g A, alpha "
               "%.6f /A%s\n",
               label, n, sys->exclusion_count, sys->box.len[0], sys->box.len[1], sys->box.len[2],
               s.cutoff_a, s.ewald_alpha, force_staging ? ", staged buffers" : "");
    else
        printf("== %s: %d atoms, %d exclusions, no box (all pairs, plain Coulomb)%s\n", label, n,
               sys->exclusion_count, force_staging ? ", staged buffers" : "");

    double *fref = calloc(3 * (size_t)n, sizeof(double));
    double e_lj = 0, e_coul = 0;
    CHECK_OK(ref_nonbonded_pairs(sys, &s, vkmd_ff_coulomb_k(&s), fref, &e_lj, &e_coul));

    gpu_eval a, b, c, d;
    run_gpu(ctx, sys, &s, 0, force_staging, &a);
    run_gpu(ctx, sys, &s, 0, force_staging, &b);
    run_gpu(ctx, sys, &s, 128, force_staging, &c);
    run_gpu(shared_ctx ? shared_ctx : ctx, sys, &s, 0, force_staging, &d);

    check_close("LJ energy (kcal/mol)", a.energy.lj_pair, e_lj, TOL_FP32_ENERGY_REL,
                TOL_FP32_ENERGY_ZERO);
    check_close("real-space Coulomb energy (kcal/mol)", a.energy.coulomb_real, e_coul,
                TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
    check_close("LJ + Coulomb (kcal/mol)", a.energy.lj_pair + a.energy.coulomb_real, e_lj + e_coul,
                TOL_FP32_TOTAL_REL, TOL_FP32_ENERGY_ZERO);
    double rel = rms_rel_error(a.forces, fref, 3 * n);
    double f_rms = rms(fref, 3 * n);
    double dmax = max_abs_error(a.forces, fref, 3 * n);
    printf("  force RMS(F_gpu - F_ref) / RMS(F_ref) = %.3g (limit %.0e); max |dF| = %.3g "
           "kcal/mol/A = %.3g RMS(F_ref) (limit %.0e); RMS(F_ref) %.4g\n",
           rel, TOL_FP32_FORCE_RMS, dmax, dmax / f_rms, TOL_FP32_FORCE_MAX, f_rms);
    CHECK(rel <= TOL_FP32_FORCE_RMS);
    CHECK(dmax <= TOL_FP32_FORCE_MAX * f_rms);
    double fsum[3] = {0, 0, 0};
    for (int32_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            fsum[k] += a.forces[3 * i + k];
    printf("  net GPU force (%.2g, %.2g, %.2g) kcal/mol/A\n", fsum[0], fsum[1], fsum[2]);
    if (sys->box.periodic) {
        printf("  list: %u builds, %u prunes in %u checks, %u outer / %u inner tiles per "
               "cluster at most (capacity %u / %u), %u slots, %u inner tiles = %llu lane pairs "
               "per evaluation; LJ %s; device memory: list %.2f MB, pass %.2f MB\n",
               a.stats.builds, a.stats.prunes, a.stats.checks, a.stats.max_count, a.stats.max_inner,
               a.stats.capacity, a.stats.inner_capacity, a.stats.slot_count, a.stats.tiles_inner,
               (unsigned long long)vkmd_neighbor_lane_pairs(&a.stats),
               a.lj_table ? "table" : "Lorentz-Berthelot", a.nl_bytes / 1e6, a.pass_bytes / 1e6);
        CHECK(a.stats.builds == 1 && a.stats.prunes == 1 && a.stats.checks == 3);
        CHECK(!a.stats.overflow);
    }
    int same_rep = same_bits(&a, 0, &a, 1, n);
    int same_fresh = same_bits(&a, 0, &b, 0, n);
    int same_wg = same_bits(&a, 0, &c, 0, n);
    int same_noe = !memcmp(a.raw_forces[0], a.raw_forces[2], 3 * (size_t)n * sizeof(int64_t));
    int same_shared = same_bits(&a, 0, &d, 0, n);
    printf("  bitwise identical: second evaluation %s, fresh list and pass %s, workgroup 64 vs "
           "128 %s, forces without energies %s, shared-memory tiles %s\n",
           same_rep ? "yes" : "NO", same_fresh ? "yes" : "NO", same_wg ? "yes" : "NO",
           same_noe ? "yes" : "NO", same_shared ? "yes" : "NO");
    CHECK(same_rep);
    CHECK(same_fresh);
    CHECK(same_wg);
    CHECK(same_noe);
    CHECK(same_shared);
    gpu_eval_free(&a);
    gpu_eval_free(&b);
    gpu_eval_free(&c);
    gpu_eval_free(&d);
    free(fref);
}

static void compare_file(vkmd_vk_context *ctx, const char *label, const char *prmtop,
                         const char *inpcrd, int force_staging)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys));
    if (sys.positions)
        compare(ctx, label, &sys, force_staging);
    vkmd_system_destroy(&sys);
}

/* A periodic file taken as a vacuum system (its box dropped): the vacuum
 * tiles with an even cluster count and a padded last cluster. */
static void compare_file_unboxed(vkmd_vk_context *ctx, const char *label, const char *prmtop,
                                 const char *inpcrd)
{
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys));
    memset(&sys.box, 0, sizeof sys.box);
    if (sys.positions)
        compare(ctx, label, &sys, 0);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_nonbonded", &ctx);
    if (early >= 0)
        return early;

    /* A second context whose tile kernels take the shared-memory build. */
    setenv("VKMD_FORCE_TILE_SHARED", "1", 1);
    CHECK_OK(vkmd_vk_context_create(NULL, &shared_ctx));
    unsetenv("VKMD_FORCE_TILE_SHARED");
    if (shared_ctx)
        CHECK(!shared_ctx->info.features.subgroup_shuffle);

    compare_file(ctx, "water:216", "water:216", NULL, 0);
    compare_file(ctx, "water_box (AMBER prmtop)", VKMD_TEST_DATA_DIR "/water_box.prmtop",
                 VKMD_TEST_DATA_DIR "/water_box.inpcrd", 1);
    compare_file(ctx, "water_nacl (AMBER prmtop)", VKMD_TEST_DATA_DIR "/water_nacl.prmtop",
                 VKMD_TEST_DATA_DIR "/water_nacl.inpcrd", 0);
    compare_file(ctx, "water_na_charged (AMBER prmtop, net charge)",
                 VKMD_TEST_DATA_DIR "/water_na_charged.prmtop",
                 VKMD_TEST_DATA_DIR "/water_na_charged.inpcrd", 0);
    compare_file(ctx, "villin_vac (AMBER prmtop, vacuum)", VKMD_TEST_DATA_DIR "/villin_vac.prmtop",
                 VKMD_TEST_DATA_DIR "/villin_vac.inpcrd", 0);
    compare_file(ctx, "ala2_vac (AMBER prmtop, vacuum, 3 clusters, the last padded)",
                 VKMD_TEST_DATA_DIR "/ala2_vac.prmtop", VKMD_TEST_DATA_DIR "/ala2_vac.inpcrd", 0);
    compare_file_unboxed(ctx, "water_box without its box (vacuum, 118 clusters, the last padded)",
                         VKMD_TEST_DATA_DIR "/water_box.prmtop",
                         VKMD_TEST_DATA_DIR "/water_box.inpcrd");
    compare_file(ctx, "water:8000", "water:8000", NULL, 0);

    uint32_t errors = vkmd_vk_context_validation_errors(ctx);
    printf("validation errors: %u (warnings %u)\n", errors,
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    if (shared_ctx)
        CHECK_OK(vkmd_vk_context_check_validation(shared_ctx));
    vkmd_vk_context_destroy(shared_ctx);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_nonbonded");
}
