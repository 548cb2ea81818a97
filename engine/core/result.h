/* Result codes and error messages for every fallible vkmd call.
 *
 * A fallible function returns a vkmd_result. When it fails it also records a
 * human-readable detail (file:line of the input, the Vulkan call, what was
 * expected) with vkmd_fail(); the caller prints vkmd_last_error(). The detail is
 * thread-local and is overwritten by the next failure. The engine never calls
 * exit(): tools decide what to do with an error. */
#ifndef VKMD_CORE_RESULT_H
#define VKMD_CORE_RESULT_H

typedef enum vkmd_result {
    VKMD_OK = 0,
    VKMD_ERROR_INVALID_ARGUMENT, /* impossible parameter from the caller or the user */
    VKMD_ERROR_OUT_OF_MEMORY,    /* host allocation failed */
    VKMD_ERROR_IO,               /* file cannot be opened, read or written */
    VKMD_ERROR_PARSE,            /* malformed input file */
    VKMD_ERROR_UNSUPPORTED,      /* valid input that vkmd does not handle (e.g. triclinic box) */
    VKMD_ERROR_NO_DEVICE,        /* no usable Vulkan device */
    VKMD_ERROR_VULKAN,           /* a Vulkan call failed */
    VKMD_ERROR_DEVICE_LOST,      /* VK_ERROR_DEVICE_LOST */
    VKMD_ERROR_DEVICE_MEMORY,    /* out of device memory */
    VKMD_ERROR_VALIDATION,       /* the validation layer reported an error */
    VKMD_ERROR_NUMERIC,          /* non-finite or runaway numbers */
    VKMD_ERROR_CAPACITY,         /* a device-side list outgrew its buffer (grow and repeat) */
    VKMD_RESULT_COUNT
} vkmd_result;

/* Short name of a result code ("parse error", ...). Never NULL. */
const char *vkmd_result_str(vkmd_result r);

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

/* Detail of the last failure on this thread ("" if none). */
const char *vkmd_last_error(void);

/* Clears the detail message. */
void vkmd_error_clear(void);

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
