/* Minimal leveled logging to stderr. The level is process-wide, read once from
 * VKMD_LOG (error|warn|info|debug; default warn). */
#ifndef VKMD_CORE_LOG_H
#define VKMD_CORE_LOG_H

typedef enum vkmd_log_level {
    VKMD_LOG_ERROR = 0,
    VKMD_LOG_WARN,
    VKMD_LOG_INFO,
    VKMD_LOG_DEBUG
} vkmd_log_level;

vkmd_log_level vkmd_log_get_level(void);
void vkmd_log(vkmd_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#define vkmd_log_error(...) vkmd_log(VKMD_LOG_ERROR, __VA_ARGS__)
#define vkmd_log_warn(...)  vkmd_log(VKMD_LOG_WARN, __VA_ARGS__)
#define vkmd_log_info(...)  vkmd_log(VKMD_LOG_INFO, __VA_ARGS__)
#define vkmd_log_debug(...) vkmd_log(VKMD_LOG_DEBUG, __VA_ARGS__)

#endif
