/* Stopping a run from the terminal, for `vkmd run` and `vkmd equilibrate`:
 * the first SIGINT or SIGTERM asks the run to stop at its next report step
 * (with a checkpoint); the default action is restored, so a second one
 * stops at once. The progress line and notes are the engine's
 * (run/progress_line.h: vkmd_progress_reporter). */
#ifndef VKMD_TOOLS_RUN_CONSOLE_H
#define VKMD_TOOLS_RUN_CONSOLE_H

void run_console_catch_signals(void);
/* 0, or the signal received. */
int run_console_signal(void);
/* A reporter's stop_requested (user unused). */
int run_console_stop_requested(void *user);

#endif
