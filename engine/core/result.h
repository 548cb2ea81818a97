/* Result codes and error messages for every fallible vkmd call.
 *
 * A fallible function returns a vkmd_result. When it fails it also records a
 * human-readable detail (file:line of the input, the Vulkan call, what was
 * expected) with vkmd_fail(); the caller prints vkmd_last_error(). The detail is
 * thread-local and is overwritten by the next failure. The engine never calls
 * exit(): tools decide what to do with an error. */
#ifndef VKMD_CORE_RESULT_H
#define VKMD_CORE_RESULT_H

/* The codes, vkmd_result_str(), vkmd_last_error() and vkmd_error_clear() are
 * public: the first part of include/vkmd.h (the API above it stays out of the
 * engine's modules). */
#define VKMD_RESULT_ONLY
#include "vkmd.h"
#undef VKMD_RESULT_ONLY

/* Records a printf-style detail message for this thread and returns `code`, so
 * a failure site reads `return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: ...", ...)`. */
vkmd_result vkmd_fail(vkmd_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
/* Returns the result of `call` from the enclosing function unless it is
 * VKMD_OK (for functions with nothing to clean up). */
#define VKMD_TRY_RETURN(call)                                                                      \
    do {                                                                                           \
        const vkmd_result try_res_ = (call);                                                       \
        if (try_res_ != VKMD_OK)                                                                   \
            return try_res_;                                                                       \
    } while (0)

#endif
    ;

/* Evaluates a vkmd call once; on failure stores the code in `res` and jumps to
 * the function's `cleanup` label. Requires `vkmd_result res` in scope. */
#define VKMD_TRY(call)                                                                             \
    do {                                                                                           \
        res = (call);                                                                              \
        if (res != VKMD_OK)                                                                        \
            goto cleanup;                                                                          \
    } while (0)

/* Returns the result of `call` from the enclosing function unless it is
 * VKMD_OK (for functions with nothing to clean up). */
#define VKMD_TRY_RETURN(call)                                                                      \
    do {                                                                                           \
        const vkmd_result try_res_ = (call);                                                       \
        if (try_res_ != VKMD_OK)                                                                   \
            return try_res_;                                                                       \
    } while (0)

#endif
