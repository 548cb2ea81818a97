/* The process-wide stop request: how a signal (SIGINT, SIGTERM), a library
 * client's callback or a call asks every long loop of the engine to end at
 * its next consistent state.
 *
 * The loops that can run for more than a second (MD batches, the
 * minimisers, UFF relaxation and dynamics batches, the run controller,
 * benchmarks) poll vkmd_stop_requested() between pieces of device work sized
 * to finish within VKMD_STOP_PIECE_S, and end with their state consistent
 * (a step counter exact, a structure whole), returning VKMD_ERROR_STOPPED or
 * saying in their result that they stopped. What is written on a stop is
 * each caller's (run/run.h: a checkpoint).
 *
 * vkmd_stop_request is async-signal-safe. vkmd_stop_catch_signals installs
 * handlers for command-line programs: the first SIGINT or SIGTERM requests a
 * stop and restores the default action of both, so a second one kills at
 * once. A
 * library never installs them itself: a host program (Python) keeps its
 * signals and polls through vkmd_stop_set_callback. */
#ifndef VKMD_CORE_STOP_H
#define VKMD_CORE_STOP_H

#include "core/result.h"

/* Seconds of device work between two polls that the loops aim at: a stop is
 * seen within about a second even when one piece takes four times longer. */
#define VKMD_STOP_PIECE_S 0.25

/* What asked for the stop when no signal did (vkmd_stop_requested). */
#define VKMD_STOP_ASKED (-1)

/* Requests a stop; `why` is the signal number, or VKMD_STOP_ASKED. The first
 * request's reason is kept. Async-signal-safe. */
void vkmd_stop_request(int why);

/* 0 while no stop is requested; else the first request's signal number or
 * VKMD_STOP_ASKED. Also polls the callback (vkmd_stop_set_callback): a
 * nonzero return of it becomes a request (VKMD_STOP_ASKED). */
int vkmd_stop_requested(void);

/* Deferred requests (on = 1): vkmd_stop_requested() answers 0, so no loop
 * stops by itself, and vkmd_stop_pending() (the same, not deferred) says
 * what was requested. For a client that stops several processes at one
 * agreed point: vkmd-mpi's ranks share their requests at each round and
 * stop together through a reporter's stop_requested (run/reporter.h). */
void vkmd_stop_defer(int on);
int vkmd_stop_pending(void);

/* Forgets the request (a client that handled a stop and goes on). */
void vkmd_stop_clear(void);

/* Polled by vkmd_stop_requested while set (NULL: none): nonzero asks for a
 * stop. Process-wide; the last call wins. */
typedef int (*vkmd_stop_callback_fn)(void *user);
void vkmd_stop_set_callback(vkmd_stop_callback_fn fn, void *user);

/* SIGINT and SIGTERM request a stop (the first one; the default actions are
 * restored then, so the second kills). Errors: VKMD_ERROR_UNSUPPORTED when
 * sigaction fails (named). */
vkmd_result vkmd_stop_catch_signals(void);

/* The exit status of a program that stopped on `why` (vkmd_stop_requested):
 * 128 + the signal (130 SIGINT, 143 SIGTERM), 130 for VKMD_STOP_ASKED. */
int vkmd_stop_exit_code(int why);

/* "SIGINT", "SIGTERM", "a stop request" ... for messages. */
const char *vkmd_stop_name(int why);

#endif
