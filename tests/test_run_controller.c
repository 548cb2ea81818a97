/* The run controller (engine/run/run.h) driven as a library client does,
 * with a reporter of its own, on water:216:
 *   1. a run stopped by its reporter at a report step writes a checkpoint
 *      there; continuing it gives energy.csv (all but ns_per_day), traj.dcd,
 *      final.pdb and the final checkpoint's state bit for bit those of the
 *      run that did not stop; reporters see every report, frame and
 *      checkpoint once, in order;
 *   2. a continuation with another setting is refused, naming it;
 *   3. a run that blows up (10 fs steps from an unminimised box) fails with
 *      VKMD_ERROR_NUMERIC naming the step, the term and the atoms, reports
 *      no bad state to any reporter, writes no final.pdb, and its checkpoint
 *      holds the last good, finite state. */
#include "io/checkpoint.h"
#include "run/run.h"
#include "testlib.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DIR VKMD_TEST_GEN_DIR "/run_controller"

typedef struct watcher {
    int64_t stop_after; /* ask to stop after the report of this step (0: never) */
    int stop;
    int begins, reports, frames, checkpoints, ends, finishes;
    int64_t last_report, last_frame, last_checkpoint;
    int bad_seen;         /* a report or frame with a non-finite value */
    int32_t stage_of[16]; /* the stage of the report at step 10 k (staged runs) */
} watcher;

static vkmd_result w_begin(void *user, const vkmd_run_info *info)
{
    watcher *w = user;
    ++w->begins;
    w->last_report = w->last_frame = info->first_step;
    CHECK(info->system && info->md && info->ctx && info->dof > 0 && info->summary);
    return VKMD_OK;
}

static vkmd_result w_report(void *user, const vkmd_run_sample *s)
{
    watcher *w = user;
    if (!isfinite(s->report->total) || !isfinite(s->report->temperature_k))
        w->bad_seen = 1;
    if (!s->start) {
        CHECK_MSG(s->step > w->last_report, "report at %lld after %lld", (long long)s->step,
                  (long long)w->last_report);
        w->last_report = s->step;
        ++w->reports;
    }
    if (w->stop_after > 0 && s->step >= w->stop_after)
        w->stop = 1;
    if (s->step % 10 == 0 && s->step / 10 < 16)
        w->stage_of[s->step / 10] = s->stage;
    return VKMD_OK;
}

static vkmd_result w_frame(void *user, const vkmd_run_sample *s)
{
    watcher *w = user;
    for (int k = 0; k < 3 * 648; ++k)
        if (!isfinite(s->positions[k]))
            w->bad_seen = 1;
    CHECK(s->step > w->last_frame);
    w->last_frame = s->step;
    ++w->frames;
    return VKMD_OK;
}

static vkmd_result w_checkpoint(void *user, int64_t step, const char *path)
{
    watcher *w = user;
    w->last_checkpoint = step;
    ++w->checkpoints;
    return VKMD_OK;
}

static int w_stop(void *user)
{
    return ((watcher *)user)->stop;
}

static vkmd_result w_end(void *user, const vkmd_run_sample *final, const vkmd_run_summary *s)
{
    ++((watcher *)user)->ends;
    return VKMD_OK;
}

static vkmd_result w_finish(void *user)
{
    ++((watcher *)user)->finishes;
    return VKMD_OK;
}

static vkmd_reporter reporter(watcher *w)
{
    return (vkmd_reporter){.user = w,
                           .begin = w_begin,
                           .report = w_report,
                           .frame = w_frame,
                           .checkpoint = w_checkpoint,
                           .stop_requested = w_stop,
                           .end = w_end,
                           .finish = w_finish};
}

static vkmd_run_desc base_desc(const char *out_dir)
{
    return (vkmd_run_desc){.system = "water:216",
                           .md = {.seed = 3},
                           .precision = {.precision = VKMD_PRECISION_SINGLE},
                           .steps = 60,
                           .report_every = 10,
                           .traj_every = 5,
                           .checkpoint_every = 20,
                           .out_dir = out_dir};
}

static vkmd_result run_once(vkmd_vk_context *ctx, const vkmd_run_desc *d, watcher *w,
                            vkmd_run_summary *s)
{
    vkmd_run *run = NULL;
    vkmd_result res = vkmd_run_create(d, &run);
    if (res == VKMD_OK) {
        const vkmd_reporter r = reporter(w);
        res = vkmd_run_execute(run, ctx, &r, 1, s);
    }
    vkmd_run_destroy(run);
    return res;
}

static int same_file(const char *a, const char *b, int csv_columns)
{
    size_t na = 0, nb = 0;
    char *ta = test_read_file(a, &na), *tb = test_read_file(b, &nb);
    int same = ta && tb;
    if (same && csv_columns) {
        /* Every line, up to its csv_columns-th comma (ns_per_day is measured). */
        char *sa = NULL, *sb = NULL;
        for (char *la = strtok_r(ta, "\n", &sa), *lb = strtok_r(tb, "\n", &sb); same && (la || lb);
             la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
            if (!la || !lb) {
                same = 0;
                break;
            }
            size_t n = 0;
            for (int c = 0; la[n] && !(la[n] == ',' && ++c == csv_columns); ++n)
                ;
            same = strncmp(la, lb, n) == 0;
        }
    } else if (same) {
        same = na == nb && memcmp(ta, tb, na) == 0;
    }
    free(ta);
    free(tb);
    return same;
}

static void test_stop_and_continue(vkmd_vk_context *ctx)
{
    printf("stop at a report step, continue, compare with the run that did not stop:\n");
    vkmd_run_summary s;
    watcher wa = {0};
    vkmd_run_desc a = base_desc(DIR "/a");
    CHECK_OK(run_once(ctx, &a, &wa, &s));
    CHECK(s.ended == VKMD_RUN_COMPLETE && s.last_step == 60 && s.first_step == 0);
    printf("  uninterrupted: %d reports, %d frames, %d checkpoints; %.3f ns/day, mean T %.1f K\n",
           wa.reports, wa.frames, wa.checkpoints, s.ns_per_day, s.mean_temperature_k);
    CHECK(wa.begins == 1 && wa.ends == 1 && wa.finishes == 1);
    CHECK(wa.reports == 6 && wa.frames == 12);
    /* step 0 (the start), 20, 40 and 60 */
    CHECK(wa.checkpoints == 4 && wa.last_checkpoint == 60);

    watcher wb = {.stop_after = 30};
    vkmd_run_desc b = base_desc(DIR "/b");
    CHECK_OK(run_once(ctx, &b, &wb, &s));
    printf("  stopped: at step %lld, checkpoint at step %lld\n", (long long)s.last_step,
           (long long)s.last_checkpoint_step);
    CHECK(s.ended == VKMD_RUN_INTERRUPTED && s.last_step == 30 && s.last_checkpoint_step == 30);
    CHECK(wb.ends == 0 && wb.finishes == 1);
    struct stat st;
    CHECK(stat(DIR "/b/final.pdb", &st) != 0);

    watcher wc = {0};
    b.restart = DIR "/b/checkpoint.chk";
    CHECK_OK(run_once(ctx, &b, &wc, &s));
    CHECK(s.ended == VKMD_RUN_COMPLETE && s.first_step == 30 && s.last_step == 60);
    CHECK(wc.reports == 3 && wc.frames == 6);
    CHECK_MSG(same_file(DIR "/a/energy.csv", DIR "/b/energy.csv", 6),
              "energy.csv differs from the uninterrupted run's");
    CHECK_MSG(same_file(DIR "/a/traj.dcd", DIR "/b/traj.dcd", 0), "traj.dcd differs");
    CHECK_MSG(same_file(DIR "/a/final.pdb", DIR "/b/final.pdb", 0), "final.pdb differs");
    vkmd_checkpoint ca = {0}, cb = {0};
    CHECK_OK(vkmd_checkpoint_read(DIR "/a/checkpoint.chk", &ca));
    CHECK_OK(vkmd_checkpoint_read(DIR "/b/checkpoint.chk", &cb));
    if (ca.positions && cb.positions) {
        const size_t n = 3 * (size_t)ca.atom_count * sizeof(double);
        const int same = ca.step == 60 && cb.step == 60 && ca.md_step == cb.md_step &&
                         memcmp(ca.positions, cb.positions, n) == 0 &&
                         memcmp(ca.velocities, cb.velocities, n) == 0;
        printf("  final checkpoints: step %lld and %lld, state %s\n", (long long)ca.step,
               (long long)cb.step, same ? "bitwise the same" : "DIFFERENT");
        CHECK(same);
    }
    vkmd_checkpoint_free(&ca);
    vkmd_checkpoint_free(&cb);

    printf("continue with another time step:\n");
    watcher wd = {0};
    vkmd_run_desc c = base_desc(DIR "/b");
    c.md.dt_fs = 1.0;
    c.restart = DIR "/a/checkpoint.chk";
    c.steps = 80;
    const vkmd_result res = run_once(ctx, &c, &wd, &s);
    printf("  %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "dt_fs"));
    CHECK(wd.begins == 0 && wd.finishes == 1);
}

/* A staged run (an equilibration's schedule): stages change the bath at
 * steps that are not report steps (25) and that are (40); a run stopped in the
 * middle and continued equals the one that did not stop, bit for bit; a
 * restart with another schedule is refused. */
static void test_stages(vkmd_vk_context *ctx)
{
    printf("a staged run (100 K, 400 K, 600 K baths), stopped and continued:\n");
    static const vkmd_run_stage stages[] = {{.name = "cold", .steps = 25, .temperature_k = 100},
                                            {.name = "warm", .steps = 15, .temperature_k = 400},
                                            {.name = "hot", .steps = 20, .temperature_k = 600}};
    vkmd_run_summary s;
    watcher wa = {0};
    vkmd_run_desc a = base_desc(DIR "/sa");
    a.steps = 0;
    a.stages = stages;
    a.stage_count = 3;
    CHECK_OK(run_once(ctx, &a, &wa, &s));
    CHECK(s.ended == VKMD_RUN_COMPLETE && s.last_step == 60);
    printf("  stages of the reports at 0, 10 .. 60: %d %d %d %d %d %d %d\n", wa.stage_of[0],
           wa.stage_of[1], wa.stage_of[2], wa.stage_of[3], wa.stage_of[4], wa.stage_of[5],
           wa.stage_of[6]);
    CHECK(wa.stage_of[0] == 0 && wa.stage_of[2] == 0 && wa.stage_of[3] == 1 &&
          wa.stage_of[4] == 1 && wa.stage_of[5] == 2 && wa.stage_of[6] == 2);

    watcher wb = {.stop_after = 30};
    vkmd_run_desc b = base_desc(DIR "/sb");
    b.steps = 0;
    b.stages = stages;
    b.stage_count = 3;
    CHECK_OK(run_once(ctx, &b, &wb, &s));
    CHECK(s.ended == VKMD_RUN_INTERRUPTED && s.last_step == 30);
    watcher wc = {0};
    b.restart = DIR "/sb/checkpoint.chk";
    CHECK_OK(run_once(ctx, &b, &wc, &s));
    CHECK(s.ended == VKMD_RUN_COMPLETE && s.first_step == 30 && s.last_step == 60);
    vkmd_checkpoint ca = {0}, cb = {0};
    CHECK_OK(vkmd_checkpoint_read(DIR "/sa/checkpoint.chk", &ca));
    CHECK_OK(vkmd_checkpoint_read(DIR "/sb/checkpoint.chk", &cb));
    if (ca.positions && cb.positions) {
        const size_t n = 3 * (size_t)ca.atom_count * sizeof(double);
        const int same = ca.step == 60 && cb.step == 60 &&
                         memcmp(ca.positions, cb.positions, n) == 0 &&
                         memcmp(ca.velocities, cb.velocities, n) == 0;
        printf("  final checkpoints: %s\n", same ? "bitwise the same" : "DIFFERENT");
        CHECK(same);
    }
    vkmd_checkpoint_free(&ca);
    vkmd_checkpoint_free(&cb);
    CHECK_MSG(same_file(DIR "/sa/energy.csv", DIR "/sb/energy.csv", 6),
              "energy.csv of the staged run differs from the uninterrupted run's");

    vkmd_run_stage other[3];
    memcpy(other, stages, sizeof other);
    other[2].temperature_k = 500;
    b.stages = other;
    watcher wd = {0};
    const vkmd_result res = run_once(ctx, &b, &wd, &s);
    printf("  another schedule: %s: %s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "stage_3"));

    vkmd_run_desc bad = base_desc(DIR "/sb");
    bad.stages = stages;
    bad.stage_count = 3;
    bad.steps = 50;
    vkmd_run_desc out;
    CHECK(vkmd_run_desc_resolve(&bad, &out) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  --steps 50 with 60 steps of stages: %s\n", vkmd_last_error());
}

static void test_blowup(vkmd_vk_context *ctx)
{
    printf("a run that blows up:\n");
    watcher w = {0};
    vkmd_run_desc d = base_desc(DIR "/blowup");
    d.md.dt_fs = 10;
    d.steps = 2000;
    d.report_every = 20;
    d.traj_every = 20;
    d.checkpoint_every = 20;
    vkmd_run_summary s;
    const vkmd_result res = run_once(ctx, &d, &w, &s);
    printf("  %s: %.300s\n", vkmd_result_str(res), vkmd_last_error());
    CHECK(res == VKMD_ERROR_NUMERIC && s.blown_up);
    CHECK(strstr(vkmd_last_error(), "blew up at step") && strstr(vkmd_last_error(), "atom"));
    CHECK_MSG(!w.bad_seen, "a reporter was given a non-finite state");
    CHECK(w.ends == 0 && w.finishes == 1);
    struct stat st;
    CHECK(stat(DIR "/blowup/final.pdb", &st) != 0);
    vkmd_checkpoint ck = {0};
    CHECK_OK(vkmd_checkpoint_read(DIR "/blowup/checkpoint.chk", &ck));
    int finite = ck.positions != NULL;
    for (int k = 0; finite && k < 3 * ck.atom_count; ++k)
        finite = isfinite(ck.positions[k]) && isfinite(ck.velocities[k]);
    printf("  last checkpoint: step %lld (the run's last good report: %lld), finite: %s\n",
           (long long)ck.step, (long long)w.last_report, finite ? "yes" : "NO");
    CHECK(finite && ck.step == w.last_report && ck.step == s.last_checkpoint_step);
    vkmd_checkpoint_free(&ck);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_run_controller", &ctx);
    if (rc >= 0)
        return rc;
    mkdir(DIR, 0777);
    /* Outputs of an earlier run of this test would hide missing ones. */
    static const char *const dirs[] = {"a", "b", "blowup", "sa", "sb"};
    static const char *const files[] = {"energy.csv", "traj.dcd", "final.pdb", "checkpoint.chk"};
    for (int d = 0; d < 5; ++d)
        for (int f = 0; f < 4; ++f) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s/%s", DIR, dirs[d], files[f]);
            remove(path);
        }
    test_stop_and_continue(ctx);
    test_stages(ctx);
    test_blowup(ctx);
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_run_controller");
}
