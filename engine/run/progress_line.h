/* The progress line of a run (vkmd run's on stderr): a bar redrawn with '\r' on a
 * terminal, plain lines otherwise; and a ready-made run reporter that draws it
 * and prints the run's notes, what vkmd run and vkmd equilibrate show. */
#ifndef VKMD_RUN_PROGRESS_LINE_H
#define VKMD_RUN_PROGRESS_LINE_H

#include "core/clock.h"
#include "run/reporter.h"

#include <stdint.h>
#include <stdio.h>

typedef struct vkmd_progress_desc {
    int64_t first_step;    /* step the run starts from (default 0) */
    int64_t last_step;     /* step the run ends at (required, > first_step) */
    double dt_fs;          /* time step, for the simulated time shown */
    FILE *out;             /* default stderr */
    int mode;              /* VKMD_PROGRESS_AUTO (default): bar if isatty(out), else lines */
    double min_interval_s; /* bar redraws at most this often (default 0.2) */
} vkmd_progress_desc;

enum { VKMD_PROGRESS_AUTO = 0, VKMD_PROGRESS_BAR = 1, VKMD_PROGRESS_LINES = 2 };

typedef struct vkmd_progress {
    vkmd_progress_desc d;
    int bar;            /* resolved mode: 1 bar, 0 lines */
    double start_s;     /* monotonic seconds at init */
    double last_draw_s; /* monotonic seconds of the last bar redraw (-1: none yet) */
    int drawn_len;      /* length of the bar line last drawn (to blank leftovers) */
    int pending;        /* 1: the latest update was not drawn yet */
    int64_t step;       /* latest update */
    double ns_per_day, temperature_k;
    double now_s;
} vkmd_progress;

/* Starts a reporter at time now_s (vkmd_clock_now_s()). */
void vkmd_progress_init(vkmd_progress *p, const vkmd_progress_desc *desc, double now_s);

/* Reports reaching `step`. Bar mode: redraws the line with '\r' (percent,
 * step, ns/day, temperature, ETA) unless the last redraw was less than
 * min_interval_s ago; the last step is always drawn. Line mode: prints one
 * line per call. ns_per_day <= 0 means unknown: the ETA then comes from the
 * wall time since init. */
void vkmd_progress_update(vkmd_progress *p, int64_t step, double ns_per_day, double temperature_k,
                          double now_s);

/* Draws a pending update and, in bar mode, ends the line. */
void vkmd_progress_finish(vkmd_progress *p);

/* Formats the progress text of `p`'s latest update into buf (no '\r' or
 * '\n'); the bar and the lines both use it. Returns the length. */
int vkmd_progress_format(const vkmd_progress *p, char *buf, size_t size);

/* A run reporter (run/reporter.h) for a terminal: the progress line from
 * the run's first step to its last, and each note as "<prefix>: text" on
 * stderr, ending the line first. vkmd_progress_reporter_make gives its
 * callbacks with `p` as user (stop_requested left NULL); a client that
 * adds its own (a viewer) calls them from its own. Call
 * vkmd_progress_reporter_note(p, NULL) after the run to end the line. */
typedef struct vkmd_progress_reporter {
    const char *prefix; /* "vkmd run" */
    vkmd_progress prog;
    int on; /* the line is drawn (a note ends it first) */
} vkmd_progress_reporter;

vkmd_reporter vkmd_progress_reporter_make(vkmd_progress_reporter *p, const char *prefix);
vkmd_result vkmd_progress_reporter_begin(void *user, const vkmd_run_info *info);
vkmd_result vkmd_progress_reporter_report(void *user, const vkmd_run_sample *s);
void vkmd_progress_reporter_note(void *user, const char *text);

#endif
