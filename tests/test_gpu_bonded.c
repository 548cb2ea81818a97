/* GPU bonded pass (shaders/bonded.comp, engine/forces/pass_bonded.c) against
 * the double-precision reference (ref_bonds / ref_angles / ref_dihedrals):
 *   - random molecule-like chains with side groups (bonds, angles, proper
 *     dihedrals with several periodicities, impropers), in vacuum and wrapped
 *     atom by atom into a periodic box (minimum image), plus villin (AMBER,
 *     vacuum) from tests/data;
 *   - per-term energy relative error <= 1e-5 and RMS(F_gpu - F_ref) /
 *     RMS(F_ref) <= 1e-5 (fp32 arithmetic; figures printed);
 *   - two evaluations bitwise identical, also with another workgroup size
 *     (fixed-point sums do not depend on thread order);
 *   - no validation error.
 * Positions are rounded to float before the reference sees them, so the
 * comparison measures the pass's arithmetic, not the fp32 input rounding. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/pass_bonded.h"
#include "forces/positions.h"
#include "io/load.h"
#include "ref/ref.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double rnd(void) /* uniform [0, 1) */
{
    return test_uniform(&rng_state);
}

static double rnd_range(double a, double b)
{
    return a + (b - a) * rnd();
}

/* Unit vector at roughly `angle` from -prev_dir (a chain that bends by about
 * the tetrahedral angle), random azimuth. */
static void next_direction(const double *prev, double angle, double *out)
{
    double u[3], v[3], w[3] = {-prev[0], -prev[1], -prev[2]};
    /* any vector not parallel to w */
    double t[3] = {fabs(w[0]) < 0.9 ? 1 : 0, fabs(w[0]) < 0.9 ? 0 : 1, 0};
    u[0] = w[1] * t[2] - w[2] * t[1];
    u[1] = w[2] * t[0] - w[0] * t[2];
    u[2] = w[0] * t[1] - w[1] * t[0];
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int c = 0; c < 3; ++c)
        u[c] /= ul;
    v[0] = w[1] * u[2] - w[2] * u[1];
    v[1] = w[2] * u[0] - w[0] * u[2];
    v[2] = w[0] * u[1] - w[1] * u[0];
    double az = rnd_range(0, 2 * M_PI);
    for (int c = 0; c < 3; ++c)
        out[c] = cos(angle) * w[c] + sin(angle) * (cos(az) * u[c] + sin(az) * v[c]);
}

/* `chains` chains of `len` backbone atoms; every 3rd backbone atom (not the
 * ends) carries a side atom with an improper. All terms have perturbed
 * geometry so that every force is non-zero. */
static void build_chains(int chains, int len, double box_len, int periodic, vkmd_system *sys)
{
    memset(sys, 0, sizeof *sys);
    int side_per_chain = 0;
    for (int i = 1; i < len - 1; ++i)
        side_per_chain += i % 3 == 0;
    int per_chain = len + side_per_chain;
    sys->atom_count = chains * per_chain;
    sys->atoms = calloc(sys->atom_count, sizeof *sys->atoms);
    sys->positions = calloc(3 * (size_t)sys->atom_count, sizeof(double));
    int max_bonds = chains * (len - 1 + side_per_chain);
    int max_angles = chains * (len - 2 + 2 * side_per_chain);
    int max_dih = chains * (3 * (len - 3) + 2 * side_per_chain);
    sys->bonds = calloc(max_bonds, sizeof *sys->bonds);
    sys->angles = calloc(max_angles, sizeof *sys->angles);
    sys->dihedrals = calloc(max_dih, sizeof *sys->dihedrals);
    sys->lj_type_count = 1;
    sys->box.periodic = periodic;
    for (int c = 0; c < 3; ++c)
        sys->box.len[c] = box_len;

    double *x = sys->positions;
    for (int ch = 0; ch < chains; ++ch) {
        int base = ch * per_chain;
        int side = base + len; /* next side atom */
        double dir[3] = {1, 0, 0};
        for (int i = 0; i < len; ++i) {
            int a = base + i;
            if (i == 0) {
                for (int c = 0; c < 3; ++c)
                    x[3 * a + c] = rnd_range(0.25, 0.75) * box_len;
            } else {
                double nd[3];
                next_direction(dir, rnd_range(1.80, 2.00), nd);
                double r = rnd_range(1.45, 1.60);
                for (int c = 0; c < 3; ++c) {
                    x[3 * a + c] = x[3 * (a - 1) + c] + r * nd[c];
                    dir[c] = nd[c];
                }
                sys->bonds[sys->bond_count++] =
                    (vkmd_bond){.i = a - 1, .j = a, .k = rnd_range(250, 350), .r0 = 1.526};
            }
            if (i >= 2)
                sys->angles[sys->angle_count++] = (vkmd_angle){
                    .i = a - 2, .j = a - 1, .k = a, .k_theta = rnd_range(40, 70), .theta0 = 1.911};
            if (i >= 3)
                for (int n = 1; n <= 3; ++n) /* multi-term torsion, as AMBER writes them */
                    sys->dihedrals[sys->dihedral_count++] =
                        (vkmd_dihedral){.i = a - 3,
                                        .j = a - 2,
                                        .k = a - 1,
                                        .l = a,
                                        .k_phi = rnd_range(0.1, 1.5),
                                        .phase = (n == 2) ? M_PI : 0.0,
                                        .periodicity = n};
        }
        for (int i = 1; i < len - 1; ++i) {
            if (i % 3 != 0)
                continue;
            int a = base + i, s = side++;
            /* side atom off the backbone plane, 1.1 A, perturbed */
            double b1[3], b2[3], n[3];
            for (int c = 0; c < 3; ++c) {
                b1[c] = x[3 * a + c] - x[3 * (a - 1) + c];
                b2[c] = x[3 * a + c] - x[3 * (a + 1) + c];
            }
            double l = 0;
            for (int c = 0; c < 3; ++c) {
                n[c] = b1[c] + b2[c] + rnd_range(-0.3, 0.3);
                l += n[c] * n[c];
            }
            l = sqrt(l);
            for (int c = 0; c < 3; ++c)
                x[3 * s + c] = x[3 * a + c] + rnd_range(1.0, 1.2) * n[c] / l;
            sys->bonds[sys->bond_count++] = (vkmd_bond){.i = a, .j = s, .k = 340, .r0 = 1.09};
            sys->angles[sys->angle_count++] =
                (vkmd_angle){.i = a - 1, .j = a, .k = s, .k_theta = 50, .theta0 = 1.91};
            sys->angles[sys->angle_count++] =
                (vkmd_angle){.i = a + 1, .j = a, .k = s, .k_theta = 50, .theta0 = 1.91};
            /* AMBER improper: central atom third; plus a torsion through the side atom */
            sys->dihedrals[sys->dihedral_count++] = (vkmd_dihedral){.i = a - 1,
                                                                    .j = a + 1,
                                                                    .k = a,
                                                                    .l = s,
                                                                    .k_phi = 1.1,
                                                                    .phase = M_PI,
                                                                    .periodicity = 2,
                                                                    .improper = 1};
            if (i >= 2)
                sys->dihedrals[sys->dihedral_count++] = (vkmd_dihedral){.i = a - 2,
                                                                        .j = a - 1,
                                                                        .k = a,
                                                                        .l = s,
                                                                        .k_phi = 0.16,
                                                                        .phase = 0,
                                                                        .periodicity = 3};
        }
    }
    /* Wrap atom by atom: molecules straddle the box faces (minimum image). */
    if (periodic)
        for (int i = 0; i < 3 * sys->atom_count; ++i)
            x[i] -= box_len * floor(x[i] / box_len);
}

/* Adds the bonded terms on the GPU; returns raw fixed-point forces and
 * energies for the bitwise comparison. */
typedef struct gpu_eval {
    double *forces; /* [3N] */
    vkmd_energy energy;
    int64_t *raw_forces; /* [3N] */
    int64_t raw_energy[VKMD_ENERGY_SLOT_COUNT];
} gpu_eval;

static void gpu_eval_free(gpu_eval *e)
{
    free(e->forces);
    free(e->raw_forces);
}

static void run_gpu(vkmd_vk_context *ctx, const vkmd_system *sys, const vkmd_ff_settings *settings,
                    uint32_t workgroup_size, int force_staging, gpu_eval *out)
{
    const int32_t n = sys->atom_count;
    memset(out, 0, sizeof *out);
    out->forces = calloc(3 * (size_t)n, sizeof(double));
    out->raw_forces = calloc(3 * (size_t)n, sizeof(int64_t));
    vkmd_vk_buffer pos = {0};
    vkmd_accum acc = {0};
    vkmd_pass_bonded *pass = NULL;
    vkmd_vk_cmd cmd = {0};
    CHECK_OK(vkmd_positions_create(ctx, n, force_staging, &pos));
    CHECK_OK(vkmd_positions_upload(ctx, &pos, sys->positions, n));
    CHECK_OK(vkmd_accum_create(ctx, n, force_staging, &acc));
    const vkmd_pass_bonded_desc desc = {.positions = &pos,
                                        .accum = &acc,
                                        .settings = settings,
                                        .workgroup_size = workgroup_size,
                                        .force_staging = force_staging};
    CHECK_OK(vkmd_pass_bonded_create(ctx, sys, &desc, &pass));
    if (pass) {
        CHECK_OK(vkmd_vk_cmd_create(ctx, &cmd));
        CHECK_OK(vkmd_vk_cmd_begin(ctx, &cmd));
        vkmd_accum_record_clear(cmd.cb, &acc);
        vkmd_pass_bonded_record(pass, cmd.cb, 1);
        vkmd_vk_barrier_compute_to_transfer(cmd.cb);
        CHECK_OK(vkmd_vk_cmd_end(ctx, &cmd));
        CHECK_OK(vkmd_vk_cmd_submit_wait(ctx, &cmd));
        CHECK_OK(vkmd_pass_bonded_readback(ctx, pass, out->forces, &out->energy));
        CHECK_OK(vkmd_vk_buffer_readback(ctx, &acc.forces, 0, out->raw_forces, acc.forces.size));
        CHECK_OK(vkmd_vk_buffer_readback(ctx, &acc.energies, 0, out->raw_energy,
                                         sizeof out->raw_energy));
    }
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_pass_bonded_destroy(ctx, pass);
    vkmd_accum_destroy(ctx, &acc);
    vkmd_vk_buffer_destroy(ctx, &pos);
}

/* with_pairs: also the 1-4 pairs and (periodic) the Ewald exclusion
 * corrections, with default resolved settings. */
static void compare(vkmd_vk_context *ctx, const char *label, vkmd_system *sys, int force_staging,
                    int with_pairs)
{
    const int32_t n = sys->atom_count;
    /* Both sides see the same float-representable input. */
    for (int i = 0; i < 3 * n; ++i)
        sys->positions[i] = (double)(float)sys->positions[i];
    printf("== %s: %d atoms, %d bonds, %d angles, %d dihedrals, box %s%s\n", label, n,
           sys->bond_count, sys->angle_count, sys->dihedral_count,
           sys->box.periodic ? "periodic" : "none", force_staging ? ", staged buffers" : "");

    double *fref = calloc(3 * (size_t)n, sizeof(double));
    double e_bond = ref_bonds(sys, fref);
    double e_angle = ref_angles(sys, fref);
    double e_improper = 0;
    double e_dihedral = ref_dihedrals(sys, fref, &e_improper);
    vkmd_ff_settings settings = {0};
    double e_lj14 = 0, e_coul14 = 0, e_excl = 0;
    if (with_pairs) {
        CHECK_OK(vkmd_ff_settings_resolve(&settings, sys));
        double k = vkmd_ff_coulomb_k(&settings);
        ref_pairs14(sys, k, fref, &e_lj14, &e_coul14);
        if (sys->box.periodic)
            e_excl = ref_nonbonded_excluded(sys, settings.ewald_alpha, k, fref);
        printf("  + %d 1-4 pairs, %d exclusions, alpha %.6f/A\n", sys->pair14_count,
               sys->box.periodic ? sys->exclusion_count : 0, settings.ewald_alpha);
    }
    const vkmd_ff_settings *sp = with_pairs ? &settings : NULL;

    gpu_eval a, b, c;
    run_gpu(ctx, sys, sp, 0, force_staging, &a);
    run_gpu(ctx, sys, sp, 0, force_staging, &b);
    run_gpu(ctx, sys, sp, 256, force_staging, &c);

    check_close("bond energy (kcal/mol)", a.energy.bond, e_bond, TOL_FP32_ENERGY_REL,
                TOL_FP32_ENERGY_ZERO);
    check_close("angle energy (kcal/mol)", a.energy.angle, e_angle, TOL_FP32_ENERGY_REL,
                TOL_FP32_ENERGY_ZERO);
    check_close("dihedral energy (kcal/mol)", a.energy.dihedral, e_dihedral, TOL_FP32_ENERGY_REL,
                TOL_FP32_ENERGY_ZERO);
    check_close("improper energy (kcal/mol)", a.energy.improper, e_improper, TOL_FP32_ENERGY_REL,
                TOL_FP32_ENERGY_ZERO);
    if (with_pairs) {
        check_close("1-4 LJ energy (kcal/mol)", a.energy.lj14, e_lj14, TOL_FP32_ENERGY_REL,
                    TOL_FP32_ENERGY_ZERO);
        check_close("1-4 Coulomb energy (kcal/mol)", a.energy.coulomb14, e_coul14,
                    TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
        check_close("exclusion correction (kcal/mol)", a.energy.coulomb_excl, e_excl,
                    TOL_FP32_ENERGY_REL, TOL_FP32_ENERGY_ZERO);
        /* the correction is ~+56 kcal/mol per water and cancels against the
         * self term, so it must be far better than the per-term limit for the
         * total to hold to 1e-6: print its error relative to the sum */
        double sum_ref = e_bond + e_angle + e_dihedral + e_lj14 + e_coul14 + e_excl;
        double sum_gpu = a.energy.bond + a.energy.angle + a.energy.dihedral + a.energy.lj14 +
                         a.energy.coulomb14 + a.energy.coulomb_excl;
        check_close("sum of the pass's terms (kcal/mol)", sum_gpu, sum_ref, TOL_FP32_TOTAL_REL,
                    TOL_FP32_ENERGY_ZERO);
    }
    double rel = rms_rel_error(a.forces, fref, 3 * n);
    printf("  force RMS(F_gpu - F_ref) / RMS(F_ref) = %.3g (limit %.0e), max |dF| %.3g "
           "kcal/mol/A, RMS(F_ref) %.4g\n",
           rel, TOL_FP32_FORCE_RMS, max_abs_error(a.forces, fref, 3 * n), rms(fref, 3 * n));
    CHECK(rel <= TOL_FP32_FORCE_RMS);
    double fsum[3] = {0, 0, 0};
    for (int32_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            fsum[k] += a.forces[3 * i + k];
    printf("  net GPU force (%.2g, %.2g, %.2g) kcal/mol/A\n", fsum[0], fsum[1], fsum[2]);

    int same_ab = !memcmp(a.raw_forces, b.raw_forces, 3 * (size_t)n * sizeof(int64_t)) &&
                  !memcmp(a.raw_energy, b.raw_energy, sizeof a.raw_energy);
    int same_ac = !memcmp(a.raw_forces, c.raw_forces, 3 * (size_t)n * sizeof(int64_t)) &&
                  !memcmp(a.raw_energy, c.raw_energy, sizeof a.raw_energy);
    printf("  two evaluations bitwise identical: %s; workgroup 64 vs 256 identical: %s\n",
           same_ab ? "yes" : "NO", same_ac ? "yes" : "NO");
    CHECK(same_ab);
    CHECK(same_ac);
    gpu_eval_free(&a);
    gpu_eval_free(&b);
    gpu_eval_free(&c);
    free(fref);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_bonded", &ctx);
    if (early >= 0)
        return early;

    vkmd_system sys;
    build_chains(40, 60, 40.0, 0, &sys);
    compare(ctx, "random chains, vacuum", &sys, 0, 0);
    vkmd_system_destroy(&sys);

    build_chains(40, 60, 32.0, 1, &sys);
    compare(ctx, "random chains wrapped into a periodic box", &sys, 1, 0);
    vkmd_system_destroy(&sys);

    vkmd_system villin = {0};
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/villin_vac.prmtop",
                              VKMD_TEST_DATA_DIR "/villin_vac.inpcrd", &villin));
    if (villin.positions)
        compare(ctx, "villin (AMBER ff, vacuum) with 1-4 pairs", &villin, 0, 1);
    vkmd_system_destroy(&villin);

    /* Rigid waters are built at their exact minimum, where fp32 cannot
     * resolve r - r0 (bond forces ~2 k 1e-7 A): displace every atom by up to
     * 0.03 A, about the thermal bond stretch at 300 K, as in a real frame. */
    vkmd_system nacl = {0};
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/water_nacl.prmtop",
                              VKMD_TEST_DATA_DIR "/water_nacl.inpcrd", &nacl));
    for (int i = 0; nacl.positions && i < 3 * nacl.atom_count; ++i)
        nacl.positions[i] += rnd_range(-0.03, 0.03);
    if (nacl.positions)
        compare(ctx, "water + NaCl (periodic) with exclusion corrections", &nacl, 1, 1);
    vkmd_system_destroy(&nacl);

    vkmd_system w8000 = {0};
    CHECK_OK(vkmd_system_load("water:8000", NULL, &w8000));
    for (int i = 0; w8000.positions && i < 3 * w8000.atom_count; ++i)
        w8000.positions[i] += rnd_range(-0.03, 0.03);
    if (w8000.positions)
        compare(ctx, "water:8000 exclusion corrections", &w8000, 0, 1);
    vkmd_system_destroy(&w8000);

    uint32_t errors = vkmd_vk_context_validation_errors(ctx);
    printf("validation errors: %u (warnings %u)\n", errors,
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_bonded");
}
