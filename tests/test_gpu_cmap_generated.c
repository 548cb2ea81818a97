/* The CHARMM terms on the device (shaders/common/bonded_terms.glsl: CMAP,
 * Urey-Bradley, harmonic impropers, 1-4 LJ tables) and the whole force field
 * against the CPU reference, on the chamber alanine dipeptide in vacuum and
 * in water and the AMBER prmtop with seven CMAP terms that the
 * openmm_charmm_generate fixture writes (the systems of
 * test_ref_openmm_charmm_generated). Criteria of test_gpu_forcefield_common.h:
 * each term within 1e-5 relative, forces 1e-5 RMS-relative, two evaluations
 * bitwise equal. Then MD in water: the fused step (forces.comp, which takes
 * the terms through the same include) against the pass-by-pass step with the
 * list rebuilt at every step, the same bits on a CPU device (as
 * test_md_fused), and the same with the CMAP terms removed differs (so the
 * fused step does compute them). */
#include "test_gpu_forcefield_common.h"
#include "io/load.h"
#include "sim/md.h"

#define MD_STEPS 20

/* MD_STEPS Langevin steps of 2 fs; positions into out_x [3N]. */
static int run_md(vkmd_vk_context *ctx, const vkmd_system *sys, int unfused, double *out_x)
{
    vkmd_ff_settings ff = {.cutoff_a = 9.0, .ewald_tolerance = 5e-4};
    CHECK_OK(vkmd_ff_settings_resolve(&ff, sys));
    const vkmd_md_desc d = {.settings = &ff,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = 2.0,
                            .seed = 5,
                            .max_batch_steps = 10,
                            .unfused = unfused ? 1 : -1};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    if (!md)
        return -1;
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 3));
    CHECK_OK(vkmd_md_step(ctx, md, MD_STEPS));
    vkmd_md_report r;
    CHECK_OK(vkmd_md_read(ctx, md, &r, out_x, NULL));
    const int fused = vkmd_md_fused(md);
    vkmd_md_destroy(ctx, md);
    return fused;
}

static double max_diff(const double *a, const double *b, int n)
{
    double w = 0;
    for (int i = 0; i < n; ++i)
        w = fmax(w, fabs(a[i] - b[i]));
    return w;
}

static void fused_md(vkmd_vk_context *ctx, vkmd_system *sys)
{
    const int n3 = 3 * sys->atom_count;
    double *xa = calloc((size_t)n3, sizeof *xa), *xb = calloc((size_t)n3, sizeof *xb),
           *xc = calloc((size_t)n3, sizeof *xc);
    const int unfused_fused = run_md(ctx, sys, 1, xa);
    const int fused = run_md(ctx, sys, 0, xb);
    const int32_t ncmap = sys->cmap_count;
    sys->cmap_count = 0;
    run_md(ctx, sys, 0, xc);
    sys->cmap_count = ncmap;
    const double d_ab = max_diff(xa, xb, n3), d_ac = max_diff(xa, xc, n3);
    printf("MD %d steps in water: fused %d (pass by pass %d); max |x_fused - x_pass| %.3g A; "
           "without CMAP %.3g A\n",
           MD_STEPS, fused, unfused_fused, d_ab, d_ac);
    CHECK(fused == 1 && unfused_fused == 0);
    if (test_same_bits_device(ctx))
        CHECK_MSG(d_ab == 0, "fused and pass-by-pass steps differ by %.3g A", d_ab);
    else
        CHECK(d_ab <= 1e-4);
    CHECK(d_ac > 0);
    free(xa);
    free(xb);
    free(xc);
}

static void run(vkmd_vk_context *ctx, const char *name)
{
    char prmtop[1024], inpcrd[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_GEN_DIR, name);
    snprintf(inpcrd, sizeof inpcrd, "%s/%s.inpcrd", VKMD_TEST_GEN_DIR, name);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys));
    if (sys.positions) {
        printf("%s: %d Urey-Bradley, %d harmonic impropers, %d CMAP terms (%d maps), 1-4 LJ "
               "tables %s\n",
               name, sys.urey_bradley_count, sys.improper_harmonic_count, sys.cmap_count,
               sys.cmap_map_count, sys.lj14_a ? "yes" : "no");
        const int chamber = strncmp(name, "ala2_charmm", 11) == 0;
        CHECK(sys.cmap_count > 0);
        if (chamber)
            CHECK(sys.urey_bradley_count > 0 && sys.improper_harmonic_count > 0 && sys.lj14_a);
        ff_compare(ctx, name, &sys, 0);
        if (sys.box.periodic)
            fused_md(ctx, &sys);
    }
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_cmap_generated", &ctx);
    if (early >= 0)
        return early;
    run(ctx, "ala2_charmm");
    run(ctx, "ala2_charmm_solv");
    run(ctx, "ala2_amber_cmap");
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_cmap_generated");
}
