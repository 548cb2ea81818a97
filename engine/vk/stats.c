/* Recorded-work counters (see stats.h). */
#include "vk/stats.h"

static _Thread_local vkmd_vk_stats counters;

vkmd_vk_stats vkmd_vk_stats_get(void)
{
    return counters;
}

void vkmd_vk_stats_add_dispatches(uint64_t n)
{
    counters.dispatches += n;
}

void vkmd_vk_stats_add_barriers(uint64_t n)
{
    counters.barriers += n;
}

void vkmd_vk_stats_add_submits(uint64_t n)
{
    counters.submits += n;
}
