/* md_water: 216 TIP3P waters, 100 steps of Langevin dynamics at 300 K
 * through libvkmd's public API, energies every 10 steps.
 *
 *   cc md_water.c -o md_water $(pkg-config --cflags --libs vkmd)
 *   ./md_water [DEVICE]        (DEVICE as `vkmd run --device`) */
#include <vkmd.h>

#include <stdio.h>
#include <stdlib.h>

/* Prints the failed call with vkmd's message and ends the program. */
static void check(vkmd_result r, const char *what)
{
    if (r == VKMD_OK)
        return;
    fprintf(stderr, "md_water: %s: %s: %s\n", what, vkmd_result_str(r), vkmd_last_error());
    exit(1);
}

int main(int argc, char **argv)
{
    int major = 0, minor = 0, patch = 0;
    const char *version = vkmd_version(&major, &minor, &patch);
    if (major != VKMD_VERSION_MAJOR) {
        fprintf(stderr, "md_water: libvkmd %s, built for %s\n", version, VKMD_VERSION_STRING);
        return 1;
    }
    vkmd_context *ctx = NULL;
    const vkmd_context_desc cdesc = {.device = argc > 1 ? argv[1] : NULL};
    check(vkmd_context_create(&cdesc, &ctx), "vkmd_context_create");
    printf("libvkmd %s on %s\n", version, vkmd_context_device_name(ctx));

    vkmd_sys *sys = NULL;
    check(vkmd_sys_load("water:216", NULL, &sys), "vkmd_sys_load");
    double box[3];
    vkmd_sys_box(sys, box);
    printf("water:216: %d atoms, box %.3f x %.3f x %.3f A\n", (int)vkmd_sys_atom_count(sys), box[0],
           box[1], box[2]);

    /* vkmd run's defaults (Langevin, 2 fs, 300 K, 9 A cutoff, PME). */
    const vkmd_dynamics_desc ddesc = {.temperature_k = 300.0, .dt_fs = 2.0, .seed = 1};
    vkmd_dynamics *dyn = NULL;
    check(vkmd_dynamics_create(ctx, sys, &ddesc, &dyn), "vkmd_dynamics_create");

    printf("%6s %9s %16s %16s %16s %10s\n", "step", "time_ps", "potential_kcal/mol",
           "kinetic_kcal/mol", "total_kcal/mol", "T_K");
    for (int block = 0; block <= 10; ++block) {
        if (block > 0)
            check(vkmd_dynamics_step(dyn, 10), "vkmd_dynamics_step");
        vkmd_dynamics_report rep;
        check(vkmd_dynamics_get_report(dyn, &rep), "vkmd_dynamics_get_report");
        printf("%6lld %9.3f %16.4f %16.4f %16.4f %10.2f\n", (long long)rep.step, rep.time_ps,
               rep.potential_kcal_mol, rep.kinetic_kcal_mol, rep.total_kcal_mol, rep.temperature_k);
    }

    const int32_t n = vkmd_sys_atom_count(sys);
    double *x = malloc(sizeof *x * 3 * (size_t)n);
    if (!x)
        return 1;
    check(vkmd_dynamics_get_positions(dyn, n, x), "vkmd_dynamics_get_positions");
    printf("atom 1 (O) at %.4f %.4f %.4f A\n", x[0], x[1], x[2]);
    free(x);

    vkmd_dynamics_destroy(dyn);
    vkmd_sys_destroy(sys);
    const uint32_t errors = vkmd_context_validation_errors(ctx);
    vkmd_context_destroy(ctx);
    if (errors) {
        fprintf(stderr, "md_water: %u Vulkan validation errors\n", errors);
        return 1;
    }
    printf("done: 100 steps\n");
    return 0;
}
