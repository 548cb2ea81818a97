/* The stop request (core/stop.h) in the MD steps and the minimiser: a stop
 * asked before vkmd_md_step ends it at once with VKMD_ERROR_STOPPED and the
 * step counter unchanged; the stop callback asking at its third poll ends a
 * long call after two batches (of at most max_batch_steps: the neighbour
 * list may halt one sooner), at a whole step; once cleared, the steps go
 * on. The minimiser stopped by the callback reports stopped, not converged,
 * its iterations a whole number of batches. water:216.
 *
 * The energies a report reads are those of the current positions, after a
 * stopped call too: only the last batch of a call (and a barostat step's)
 * sums them (sim/md_impl.h energy_step), so a stopped call left none and
 * the report evaluates them again. Checked against a second MD set to the
 * positions read (within 1e-6 of the total), after the stop and after a
 * call of three batches. */
#include "testlib.h"
#include "core/stop.h"
#include "sim/md.h"
#include "system/water_box.h"
#include "vk/context.h"

#include <math.h>
#include <stdlib.h>

/* The report of md against a fresh evaluation of the positions it reads. */
static void check_energies(vkmd_vk_context *ctx, vkmd_md *md, vkmd_md *other, int32_t atoms,
                           const char *when)
{
    double *x = malloc(sizeof *x * 3 * (size_t)atoms);
    vkmd_md_report rep, ref;
    CHECK(x != NULL);
    if (!x)
        return;
    CHECK_OK(vkmd_md_read(ctx, md, &rep, x, NULL));
    CHECK_OK(vkmd_md_set_state(ctx, other, x, NULL));
    CHECK_OK(vkmd_md_read(ctx, other, &ref, NULL, NULL));
    const double diff = fabs(rep.potential.total - ref.potential.total);
    printf("%s, step %lld: potential %.6f kcal/mol, the positions evaluated again %.6f "
           "(difference %.2e, limit 1e-6 of it)\n",
           when, (long long)rep.step, rep.potential.total, ref.potential.total, diff);
    CHECK(diff <= 1e-6 * fabs(ref.potential.total));
    free(x);
}

static int polls;
static int ask_at_third_poll(void *user)
{
    (void)user;
    return ++polls >= 3;
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_stop", &ctx);
    if (rc >= 0)
        return rc;
    vkmd_system water = {0};
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &water));
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &water));
    const vkmd_md_desc d = {.settings = &s, .seed = 3, .max_batch_steps = 10};
    vkmd_md *md = NULL;
    CHECK_OK(vkmd_md_create(ctx, &water, &d, &md));
    if (md) {
        CHECK_OK(vkmd_md_step(ctx, md, 3));
        vkmd_stop_request(VKMD_STOP_ASKED);
        vkmd_result r = vkmd_md_step(ctx, md, 1000);
        printf("a stop requested before 1000 steps: %s (%s), step %lld\n", vkmd_result_str(r),
               vkmd_last_error(), (long long)vkmd_md_steps_done(md));
        CHECK(r == VKMD_ERROR_STOPPED);
        CHECK(vkmd_md_steps_done(md) == 3);
        vkmd_stop_clear();
        CHECK(vkmd_stop_requested() == 0);

        vkmd_stop_set_callback(ask_at_third_poll, NULL);
        r = vkmd_md_step(ctx, md, 1000);
        vkmd_stop_set_callback(NULL, NULL);
        const int64_t at = vkmd_md_steps_done(md);
        printf("the callback asking at its third poll: %s at step %lld (two batches of at most "
               "10 steps after step 3)\n",
               vkmd_result_str(r), (long long)at);
        CHECK(r == VKMD_ERROR_STOPPED);
        CHECK(at > 4 && at <= 23);
        CHECK(vkmd_stop_requested() == VKMD_STOP_ASKED);
        vkmd_stop_clear();
        vkmd_md *other = NULL;
        CHECK_OK(vkmd_md_create(ctx, &water, &d, &other));
        if (other)
            check_energies(ctx, md, other, water.atom_count, "after the stopped call");
        CHECK_OK(vkmd_md_step(ctx, md, 7));
        CHECK(vkmd_md_steps_done(md) == at + 7);
        CHECK_OK(vkmd_md_step(ctx, md, 25)); /* batches of 10, 10 and 5 */
        CHECK(vkmd_md_steps_done(md) == at + 32);
        if (other)
            check_energies(ctx, md, other, water.atom_count, "after a call of three batches");
        vkmd_md_destroy(ctx, other);

        polls = 0;
        vkmd_stop_set_callback(ask_at_third_poll, NULL);
        const vkmd_minimize_desc md_min = {.check_interval = 4, .max_iterations = 1000};
        vkmd_minimize_result m;
        CHECK_OK(vkmd_md_minimize(ctx, md, &md_min, &m));
        vkmd_stop_set_callback(NULL, NULL);
        vkmd_stop_clear();
        printf("minimiser stopped at the third poll: stopped %d, converged %d, %d iterations, "
               "max force %.3g\n",
               m.stopped, m.converged, m.iterations, m.max_force);
        CHECK(m.stopped == 1 && m.converged == 0);
        CHECK(m.iterations == 8);
        vkmd_md_destroy(ctx, md);
    }
    CHECK(vkmd_stop_exit_code(2) == 130 && vkmd_stop_exit_code(15) == 143);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_system_destroy(&water);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_stop");
}
