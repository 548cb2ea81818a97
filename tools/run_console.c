/* Stopping a run on SIGINT/SIGTERM (run_console.h). */
#include "run_console.h"

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
