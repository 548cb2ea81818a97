/* The public C API (include/vkmd.h, vkmd_vulkan.h) as a program sees it:
 * version, result strings, the errors of each handle (bad specs, too small
 * buffers, bad desc fields, a box too small for the cutoff, an unknown
 * device), and that vkmd_dynamics is the engine's MD set up as documented:
 * the same steps from sim/md.h directly give the same bits. */
#include "vkmd.h"
#include "vkmd_vulkan.h"
#include "testlib.h"
#include "forces/precision.h"
#include "io/load.h"
#include "sim/md.h"
#include "vk/context.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_fails(vkmd_result r, vkmd_result want, const char *what, const char *needle)
{
    CHECK_MSG(r == want, "%s: %s, expected %s", what, vkmd_result_str(r), vkmd_result_str(want));
    CHECK_MSG(strstr(vkmd_last_error(), needle) != NULL, "%s: message '%s' lacks '%s'", what,
              vkmd_last_error(), needle);
    printf("  %s -> %s: %s\n", what, vkmd_result_str(r), vkmd_last_error());
}

static void host_checks(void)
{
    int major = -1, minor = -1, patch = -1;
    const char *v = vkmd_version(&major, &minor, &patch);
    CHECK(!strcmp(v, VKMD_VERSION_STRING));
    CHECK(!strcmp(v, VKMD_VERSION)); /* the project version the engine was built with */
    CHECK(major == VKMD_VERSION_MAJOR && minor == VKMD_VERSION_MINOR &&
          patch == VKMD_VERSION_PATCH);
    CHECK(vkmd_version(NULL, NULL, NULL) == v);
    for (int r = 0; r < VKMD_RESULT_COUNT; ++r)
        CHECK_MSG(strcmp(vkmd_result_str((vkmd_result)r), "unknown error") != 0, "code %d", r);
    vkmd_fail(VKMD_ERROR_IO, "something");
    vkmd_error_clear();
    CHECK(vkmd_last_error()[0] == '\0');

    vkmd_sys *sys = (vkmd_sys *)1;
    check_fails(vkmd_sys_load("water:many", NULL, &sys), VKMD_ERROR_INVALID_ARGUMENT,
                "vkmd_sys_load(water:many)", "water:");
    CHECK(sys == NULL);
    check_fails(vkmd_sys_load("/nonexistent/x.prmtop", NULL, &sys), VKMD_ERROR_IO,
                "vkmd_sys_load(missing prmtop)", "/nonexistent/x.prmtop");
    check_fails(vkmd_sys_load(NULL, NULL, &sys), VKMD_ERROR_INVALID_ARGUMENT, "vkmd_sys_load(NULL)",
                "spec");
    CHECK(vkmd_sys_load("water:216", NULL, NULL) == VKMD_ERROR_INVALID_ARGUMENT);

    CHECK_OK(vkmd_sys_load("water:216", NULL, &sys));
    if (!sys)
        return;
    CHECK(vkmd_sys_atom_count(sys) == 648);
    double box[3] = {0};
    CHECK(vkmd_sys_box(sys, box) == 1 && box[0] > 18 && box[0] == box[1] && box[1] == box[2]);
    double *x = malloc(sizeof *x * 3 * 648);
    check_fails(vkmd_sys_get_positions(sys, 647, x), VKMD_ERROR_INVALID_ARGUMENT,
                "vkmd_sys_get_positions(647)", "648");
    CHECK_OK(vkmd_sys_get_positions(sys, 648, x));
    int finite = 1;
    for (int i = 0; i < 3 * 648; ++i)
        finite &= isfinite(x[i]);
    CHECK(finite);
    free(x);
    check_fails(vkmd_sys_repartition_hydrogen_mass(sys, -1.0), VKMD_ERROR_INVALID_ARGUMENT,
                "vkmd_sys_repartition_hydrogen_mass(-1)", "");
    vkmd_sys_destroy(sys);
    vkmd_sys_destroy(NULL);
    vkmd_context_destroy(NULL);
    vkmd_dynamics_destroy(NULL);
}

/* 20 fixed-precision steps through sim/md.h directly, as vkmd_dynamics sets
 * them up; positions and velocities into x, v; potential into *epot. */
static vkmd_result engine_steps(vkmd_vk_context *vk, const vkmd_dynamics_desc *d, double *x,
                                double *v, double *epot)
{
    vkmd_result res = VKMD_OK;
    vkmd_system s;
    memset(&s, 0, sizeof s);
    vkmd_md *md = NULL;
    vkmd_ff_settings ff = {0};
    vkmd_precision_choice choice;
    VKMD_TRY(vkmd_system_load("water:216", NULL, &s));
    VKMD_TRY(vkmd_ff_settings_resolve(&ff, &s));
    VKMD_TRY(vkmd_precision_choose(vk, &s, VKMD_PRECISION_FIXED, &ff, &choice));
    vkmd_precision_apply(&choice, &ff);
    const vkmd_md_desc m = {.settings = &ff, .seed = d->seed, .temperature_k = d->temperature_k};
    VKMD_TRY(vkmd_md_create(vk, &s, &m, &md));
    VKMD_TRY(vkmd_md_init_velocities(vk, md, d->temperature_k, d->seed));
    VKMD_TRY(vkmd_md_step(vk, md, 20));
    vkmd_md_report rep;
    VKMD_TRY(vkmd_md_read(vk, md, &rep, x, v));
    *epot = rep.potential.total;
cleanup:
    vkmd_md_destroy(vk, md);
    vkmd_system_destroy(&s);
    return res;
}

int main(void)
{
    host_checks();

    vkmd_context *ctx = (vkmd_context *)1;
    const vkmd_context_desc nowhere = {.device = "no-such-device-anywhere"};
    vkmd_result r = vkmd_context_create(&nowhere, &ctx);
    CHECK(ctx == NULL);
    CHECK_MSG(r == VKMD_ERROR_NO_DEVICE, "unknown device: %s", vkmd_result_str(r));
    r = vkmd_context_create(NULL, &ctx);
    if (r == VKMD_ERROR_NO_DEVICE) {
        printf("no Vulkan device: %s\n", vkmd_last_error());
        return test_no_device("test_api");
    }
    CHECK_OK(r);
    if (r != VKMD_OK)
        return test_finish("test_api");
    printf("device: %s\n", vkmd_context_device_name(ctx));
    uint32_t family = UINT32_MAX;
    CHECK(vkmd_context_vk_instance(ctx) != VK_NULL_HANDLE);
    CHECK(vkmd_context_vk_physical_device(ctx) != VK_NULL_HANDLE);
    CHECK(vkmd_context_vk_device(ctx) != VK_NULL_HANDLE);
    CHECK(vkmd_context_vk_queue(ctx, &family) != VK_NULL_HANDLE && family != UINT32_MAX);
    CHECK(vkmd_context_vk_graphics_queue(ctx, &family) == VK_NULL_HANDLE && family == UINT32_MAX);

    vkmd_sys *sys = NULL;
    CHECK_OK(vkmd_sys_load("water:216", NULL, &sys));
    vkmd_dynamics *dyn = (vkmd_dynamics *)1;
    const vkmd_dynamics_desc bad_dt = {.dt_fs = -1};
    check_fails(vkmd_dynamics_create(ctx, sys, &bad_dt, &dyn), VKMD_ERROR_INVALID_ARGUMENT,
                "vkmd_dynamics_create(dt_fs -1)", "dt_fs");
    CHECK(dyn == NULL);
    const vkmd_dynamics_desc long_cutoff = {.cutoff_a = 10};
    check_fails(vkmd_dynamics_create(ctx, sys, &long_cutoff, &dyn), VKMD_ERROR_INVALID_ARGUMENT,
                "vkmd_dynamics_create(cutoff 10 A)", "cutoff");

    const vkmd_dynamics_desc d = {
        .precision = VKMD_PRECISION_MODE_FIXED, .seed = 5, .temperature_k = 300};
    CHECK_OK(vkmd_dynamics_create(ctx, sys, &d, &dyn));
    const size_t n3 = 3 * 648;
    double *x = calloc(n3, sizeof *x), *v = calloc(n3, sizeof *v);
    double *xe = calloc(n3, sizeof *xe), *ve = calloc(n3, sizeof *ve);
    if (dyn && x && v && xe && ve) {
        VkDeviceSize bytes = 0;
        CHECK(vkmd_dynamics_vk_positions(dyn, &bytes) != VK_NULL_HANDLE && bytes >= 16 * 648);
        CHECK(vkmd_dynamics_vk_velocities(dyn, &bytes) != VK_NULL_HANDLE && bytes >= 16 * 648);
        CHECK(vkmd_dynamics_step(dyn, -1) == VKMD_ERROR_INVALID_ARGUMENT);
        CHECK_OK(vkmd_dynamics_step(dyn, 0));
        CHECK_OK(vkmd_dynamics_step(dyn, 20));
        vkmd_dynamics_report rep;
        CHECK_OK(vkmd_dynamics_get_report(dyn, &rep));
        printf("  after 20 steps: step %lld, %.3f ps, potential %.6f, kinetic %.6f, T %.2f K\n",
               (long long)rep.step, rep.time_ps, rep.potential_kcal_mol, rep.kinetic_kcal_mol,
               rep.temperature_k);
        CHECK(rep.step == 20 && fabs(rep.time_ps - 0.04) < 1e-12);
        CHECK(fabs(rep.potential_kcal_mol + rep.kinetic_kcal_mol - rep.total_kcal_mol) < 1e-9);
        CHECK(rep.temperature_k > 100 && rep.temperature_k < 5000);
        const double parts = rep.bond_kcal_mol + rep.angle_kcal_mol + rep.dihedral_kcal_mol +
                             rep.lj_kcal_mol + rep.coulomb_kcal_mol;
        CHECK_MSG(fabs(parts - rep.potential_kcal_mol) < 1e-6 * fabs(rep.potential_kcal_mol),
                  "terms %.6f, potential %.6f", parts, rep.potential_kcal_mol);
        CHECK(vkmd_dynamics_get_positions(dyn, 100, x) == VKMD_ERROR_INVALID_ARGUMENT);
        CHECK_OK(vkmd_dynamics_get_positions(dyn, 648, x));
        CHECK_OK(vkmd_dynamics_get_velocities(dyn, 648, v));

        vkmd_vk_context *vk = NULL;
        double epot = 0;
        CHECK_OK(vkmd_vk_context_create(NULL, &vk));
        if (vk) {
            CHECK_OK(engine_steps(vk, &d, xe, ve, &epot));
            CHECK_MSG(!memcmp(x, xe, n3 * sizeof *x), "positions differ from sim/md.h's");
            CHECK_MSG(!memcmp(v, ve, n3 * sizeof *v), "velocities differ from sim/md.h's");
            CHECK_MSG(epot == rep.potential_kcal_mol, "potential %.9f, sim/md.h %.9f",
                      rep.potential_kcal_mol, epot);
            printf("  sim/md.h directly: potential %.6f (same bits: %s)\n", epot,
                   !memcmp(x, xe, n3 * sizeof *x) ? "yes" : "no");
            CHECK_OK(vkmd_vk_context_check_validation(vk));
            vkmd_vk_context_destroy(vk);
        }
    }
    free(x);
    free(v);
    free(xe);
    free(ve);
    vkmd_dynamics_destroy(dyn);
    vkmd_sys_destroy(sys);
    CHECK(vkmd_context_validation_errors(ctx) == 0);
    vkmd_context_destroy(ctx);
    return test_finish("test_api");
}
