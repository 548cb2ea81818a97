/* Leveled logging; the initial level comes from VKMD_LOG if set, else warn. */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int current_level = -1;

static vkmd_log_level level_from_env(void)
{
    const char *s = getenv("VKMD_LOG");
    if (!s)
        return VKMD_LOG_WARN;
    if (!strcmp(s, "error"))
        return VKMD_LOG_ERROR;
    if (!strcmp(s, "info"))
        return VKMD_LOG_INFO;
    if (!strcmp(s, "debug"))
        return VKMD_LOG_DEBUG;
    return VKMD_LOG_WARN;
}

vkmd_log_level vkmd_log_get_level(void)
{
    if (current_level < 0)
        current_level = (int)level_from_env();
    return (vkmd_log_level)current_level;
}

void vkmd_log(vkmd_log_level level, const char *fmt, ...)
{
    static const char *names[] = {"error", "warning", "info", "debug"};
    if (level > vkmd_log_get_level())
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "vkmd: %s: ", names[level]);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
