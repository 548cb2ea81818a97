/* run_water: 100 steps of water:216 through libvkmd's run API, exactly as
 * `vkmd run water:216 --steps 100 --report-every 10` runs them: energy.csv,
 * traj.dcd, final.pdb and checkpoint.chk in OUT_DIR, a line per report. The
 * checkpoint continues with the vkmd command (the same settings, more steps):
 *
 *   vkmd run water:216 --steps 200 --report-every 10 --out OUT_DIR \
 *            --restart OUT_DIR/checkpoint.chk
 *
 *   cc run_water.c -o run_water $(pkg-config --cflags --libs vkmd)
 *   ./run_water OUT_DIR [DEVICE]   (DEVICE as `vkmd run --device`) */
#include <vkmd.h>

#include <stdio.h>

static vkmd_result on_report(void *user, const vkmd_mdrun_state *s)
{
    (void)user;
    printf("%6lld %9.3f %16.4f %16.4f %16.4f %10.2f\n", (long long)s->step, s->time_ps,
           s->potential_kcal_mol, s->kinetic_kcal_mol, s->total_kcal_mol, s->temperature_k);
    return VKMD_OK;
}

static vkmd_result on_checkpoint(void *user, int64_t step, const char *path)
{
    (void)user;
    printf("checkpoint at step %lld: %s\n", (long long)step, path);
    return VKMD_OK;
}

static void on_note(void *user, const char *text)
{
    (void)user;
    fprintf(stderr, "run_water: %s\n", text);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: run_water OUT_DIR [DEVICE]\n");
        return 2;
    }
    vkmd_context *ctx = NULL;
    vkmd_mdrun *run = NULL;
    const vkmd_context_desc cdesc = {.device = argc > 2 ? argv[2] : NULL};
    vkmd_result r = vkmd_context_create(&cdesc, &ctx);
    /* Every other field zero: vkmd run's defaults (Langevin middle, 2 fs,
     * 300 K, seed 1, H-bond constraints, rigid water, 9 A cutoff, PME). */
    const vkmd_mdrun_desc desc = {
        .system = "water:216", .steps = 100, .report_every = 10, .out_dir = argv[1]};
    if (r == VKMD_OK)
        r = vkmd_mdrun_create(&desc, &run);
    if (r == VKMD_OK) {
        printf("run_water on %s\n", vkmd_context_device_name(ctx));
        printf("%6s %9s %16s %16s %16s %10s\n", "step", "time_ps", "potential_kcal/mol",
               "kinetic_kcal/mol", "total_kcal/mol", "T_K");
        const vkmd_mdrun_reporter rep = {
            .report = on_report, .checkpoint = on_checkpoint, .note = on_note};
        vkmd_mdrun_summary s;
        r = vkmd_mdrun_execute(run, ctx, &rep, &s);
        if (r == VKMD_OK)
            printf("done: %lld steps, %.3f ns/day, mean T %.2f K\n",
                   (long long)(s.last_step - s.first_step), s.ns_per_day, s.mean_temperature_k);
    }
    if (r != VKMD_OK)
        fprintf(stderr, "run_water: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    vkmd_mdrun_destroy(run);
    vkmd_context_destroy(ctx);
    return r == VKMD_OK ? 0 : 1;
}
