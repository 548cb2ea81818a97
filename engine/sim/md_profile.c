/* Timed batches of MD steps (vkmd_md_profile_steps, see md.h): GPU
 * timestamps between the passes of a few steps, and the dispatches and
 * barriers a batch records. */
#include "sim/md_impl.h"

#include "vk/stats.h"

#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_md_profile_steps(vkmd_vk_context *ctx, vkmd_md *md, int32_t steps,
                                  vkmd_md_profile *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    if (steps < 1 || steps > MD_PROFILE_MAX_STEPS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "md: profile of %d steps (1..%d)", steps,
                         MD_PROFILE_MAX_STEPS);
    vkmd_vk_timer timer = {0};
    vkmd_vk_cmd cmd = {0};
    md_marks *m = calloc(1, sizeof *m);
    if (!m)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "md: out of memory");
    VKMD_TRY(vkmd_vk_timer_create(ctx, MD_PROFILE_SLOTS, &timer));
    VKMD_TRY(vkmd_vk_cmd_create(ctx, &cmd));
    m->timer = &timer;

    /* What a normal batch records, per step: one whose steps record no
     * rebuild (gated), and the more a batch whose first step rebuilds
     * records. */
    int32_t bs = md->desc.max_batch_steps;
    const int32_t fit = vkmd_md_batch_fit(ctx, md->atom_count); /* as vkmd_md_step cuts them */
    if (bs > fit)
        bs = fit;
    if (md->gated && bs > VKMD_NL_GATE_WORDS)
        bs = VKMD_NL_GATE_WORDS;
    const int com = md->desc.com_every > 0;
    const vkmd_vk_stats s0 = vkmd_vk_stats_get();
    VKMD_TRY(md_record_batch(ctx, md, &cmd, bs, com, MD_REBUILD_NONE, 0, NULL));
    const vkmd_vk_stats s1 = vkmd_vk_stats_get();
    VKMD_TRY(md_record_batch(ctx, md, &cmd, bs, com, MD_REBUILD_FIRST, 0, NULL));
    const vkmd_vk_stats s2 = vkmd_vk_stats_get();
    out->batch_steps = bs;
    out->gated = md->gated;
    out->dispatches_per_step = (double)(s1.dispatches - s0.dispatches) / bs;
    out->barriers_per_step = (double)(s1.barriers - s0.barriers) / bs;
    out->rebuild_dispatches =
        (double)(s2.dispatches - s1.dispatches) - (double)(s1.dispatches - s0.dispatches);
    out->rebuild_barriers =
        (double)(s2.barriers - s1.barriers) - (double)(s1.barriers - s0.barriers);

    int32_t run = 0;
    VKMD_TRY(md_run_batch(ctx, md, steps, 0, 1, m, &cmd, &run));

    double ff_total = 0;
    /* Walk the marks in order: each closes its own interval. */
    for (uint32_t k = 1; k < m->next; ++k) {
        int is_mark = 0;
        for (int i = 0; i < m->ff_count && !is_mark; ++i)
            is_mark = k >= m->ff_slot[i] && k < m->ff_slot[i] + VKMD_FORCEFIELD_TIMER_SLOTS;
        if (is_mark)
            continue; /* the force field's own slots */
        double ns = 0;
        VKMD_TRY(vkmd_vk_timer_elapsed_ns(ctx, &timer, m->from[k], k, &ns));
        out->step_ns += ns;
        if (m->pass[k] == MD_PASS_FF_TOTAL)
            ff_total += ns;
        else
            out->pass_ns[m->pass[k]] += ns;
    }
    double ff_parts = 0;
    for (int i = 0; i < m->ff_count; ++i) {
        double ns[VKMD_FF_PASS_COUNT];
        VKMD_TRY(vkmd_forcefield_pass_times(ctx, md->ff, &timer, m->ff_slot[i], ns));
        for (int p = 0; p < VKMD_FF_PASS_COUNT; ++p) {
            out->pass_ns[p] += ns[p];
            ff_parts += ns[p];
        }
    }
    /* The accumulator clears and barriers inside the force field. */
    out->pass_ns[VKMD_MD_PASS_REDUCE] += ff_total - ff_parts;
    /* Steps after a halt ran nothing (their marks hold empty intervals). */
    out->steps = run;
    out->step_ns /= run;
    for (int p = 0; p < VKMD_MD_PASS_COUNT; ++p)
        out->pass_ns[p] /= run;
cleanup:
    vkmd_vk_cmd_destroy(ctx, &cmd);
    vkmd_vk_timer_destroy(ctx, &timer);
    free(m);
    return res;
}
