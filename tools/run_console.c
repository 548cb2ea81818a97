/* The terminal side of a run (run_console.h). */
#include "run_console.h"

#include "core/clock.h"
#include "run/run.h"

#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t stop_signal = 0;

static void on_signal(int sig)
{
    stop_signal = sig;
    signal(sig, SIG_DFL);
}

void run_console_catch_signals(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
}

int run_console_signal(void)
{
    return stop_signal;
}

int run_console_stop_requested(void *user)
{
    (void)user;
    return stop_signal != 0;
}

void run_console_begin(run_console *c, const vkmd_run_info *info)
{
    const vkmd_progress_desc pd = {.last_step = info->desc->steps > 0 ? info->desc->steps : 1,
                                   .dt_fs = info->desc->md.dt_fs};
    vkmd_progress_init(&c->prog, &pd, vkmd_clock_now_s());
    c->on = 1;
}

void run_console_report(run_console *c, const vkmd_run_sample *s)
{
    if (s->start)
        return;
    c->on = 1;
    vkmd_progress_update(&c->prog, s->step, s->ns_per_day, s->report->temperature_k,
                         vkmd_clock_now_s());
}

void run_console_note(run_console *c, const char *text)
{
    if (c->on)
        vkmd_progress_finish(&c->prog);
    c->on = 0;
    if (text)
        fprintf(stderr, "vkmd %s: %s\n", c->command, text);
}
