/* The process-wide stop request (see stop.h). */
#include "core/stop.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

static volatile sig_atomic_t stop_why = 0;
/* Static storage starts as null pointers (clang rejects NULL as an atomic
 * pointer's initializer). */
static _Atomic(vkmd_stop_callback_fn) callback;
static void *_Atomic callback_user;

void vkmd_stop_request(int why)
{
    if (why == 0)
        why = VKMD_STOP_ASKED;
    if (stop_why == 0)
        stop_why = why;
}

static volatile sig_atomic_t deferred = 0;

int vkmd_stop_pending(void)
{
    if (stop_why == 0) {
        const vkmd_stop_callback_fn fn = atomic_load(&callback);
        if (fn && fn(atomic_load(&callback_user)))
            vkmd_stop_request(VKMD_STOP_ASKED);
    }
    return stop_why;
}

int vkmd_stop_requested(void)
{
    const int why = vkmd_stop_pending();
    return deferred ? 0 : why;
}

void vkmd_stop_defer(int on)
{
    deferred = on != 0;
}

void vkmd_stop_clear(void)
{
    stop_why = 0;
}

void vkmd_stop_set_callback(vkmd_stop_callback_fn fn, void *user)
{
    atomic_store(&callback_user, user);
    atomic_store(&callback, fn);
}

static void on_signal(int sig)
{
    if (stop_why != 0) { /* a second signal that came before the default was back */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    vkmd_stop_request(sig);
    /* The next one, either, kills: the default action (signal() is
     * async-signal-safe). */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

vkmd_result vkmd_stop_catch_signals(void)
{
    static const int sigs[2] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; ++k) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        if (sigaction(sigs[k], &sa, NULL) != 0)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "cannot catch %s: %s", vkmd_stop_name(sigs[k]),
                             strerror(errno));
    }
    return VKMD_OK;
}

int vkmd_stop_exit_code(int why)
{
    return why > 0 ? 128 + why : 130;
}

const char *vkmd_stop_name(int why)
{
    switch (why) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case 0:
        return "nothing";
    default:
        return why > 0 ? "a signal" : "a stop request";
    }
}
