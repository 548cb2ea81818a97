/* Stopping long calls (include/vkmd.h) over the engine's stop request
 * (core/stop.h). */
#include "vkmd.h"

#include "core/stop.h"

void vkmd_set_stop_callback(vkmd_stop_fn fn, void *user)
{
    vkmd_stop_set_callback(fn, user);
}

void vkmd_request_stop(void)
{
    vkmd_stop_request(VKMD_STOP_ASKED);
}

void vkmd_clear_stop(void)
{
    vkmd_stop_clear();
}
