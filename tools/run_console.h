/* What `vkmd run` and `vkmd equilibrate` show on the terminal while a run
 * goes: the progress line, the run's notes (each ends the progress line
 * first), and stopping at the next report on SIGINT/SIGTERM. */
#ifndef VKMD_TOOLS_RUN_CONSOLE_H
#define VKMD_TOOLS_RUN_CONSOLE_H

#include "run/progress_line.h"
#include "run/reporter.h"

typedef struct run_console {
    const char *command; /* "run": notes print as "vkmd run: ..." */
    vkmd_progress prog;
    int on; /* the progress line is drawn (a note ends it first) */
} run_console;

/* The first SIGINT or SIGTERM asks the run to stop at its next report step
 * (with a checkpoint); the default action is restored, so a second one stops
 * at once. */
void run_console_catch_signals(void);
/* 0, or the signal received. */
int run_console_signal(void);
/* A reporter's stop_requested (user unused). */
int run_console_stop_requested(void *user);

void run_console_begin(run_console *c, const vkmd_run_info *info);
void run_console_report(run_console *c, const vkmd_run_sample *s);
/* Ends the progress line; prints "vkmd COMMAND: text" unless text is NULL. */
void run_console_note(run_console *c, const char *text);

#endif
