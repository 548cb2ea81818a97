/* Strict parsing of option values and option tables (see options.h). */
#include "core/options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vkmd_option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "option %s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

vkmd_result vkmd_option_double(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not a number", opt, s);
    if (v < lo || v > hi)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %g is outside [%g, %g]", opt, v, lo, hi);
    *out = v;
    return VKMD_OK;
}

vkmd_result vkmd_option_list(const char *opt, const char *s, double lo, double hi, double *out,
                             int max, int *out_count)
{
    *out_count = 0;
    char item[64];
    for (const char *p = s;; ++p) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof item)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: '%s' should be a list of numbers like 1,2,3", opt, s);
        if (*out_count == max)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' has more than %d items", opt, s,
                             max);
        memcpy(item, p, len);
        item[len] = 0;
        VKMD_TRY_RETURN(vkmd_option_double(opt, item, lo, hi, &out[*out_count]));
        ++*out_count;
        if (!comma)
            return VKMD_OK;
        p = comma;
    }
}

vkmd_result vkmd_option_int(const char *opt, const char *s, long lo, long hi, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not an integer", opt, s);
    if (v < lo || v > hi)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %ld is outside [%ld, %ld]", opt, v, lo,
                         hi);
    *out = (int)v;
    return VKMD_OK;
}

vkmd_result vkmd_option_grid(const char *opt, const char *s, int out[3])
{
    char buf[64];
    if (strlen(s) >= sizeof buf)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is too long", opt, s);
    strcpy(buf, s);
    char *parts[3] = {buf, NULL, NULL};
    int count = 1;
    for (char *p = buf; *p; ++p) {
        if (*p == 'x' || *p == 'X') {
            if (count == 3)
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "%s: '%s' should be NXxNYxNZ, e.g. 32x32x32", opt, s);
            *p = '\0';
            parts[count++] = p + 1;
        }
    }
    if (count != 1 && count != 3)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' should be NXxNYxNZ, e.g. 32x32x32",
                         opt, s);
    for (int d = 0; d < 3; ++d) {
        vkmd_result r = vkmd_option_int(opt, parts[count == 1 ? 0 : d], 3, 4096, &out[d]);
        if (r != VKMD_OK)
            return r;
    }
    return VKMD_OK;
}

vkmd_result vkmd_option_whole(const char *opt, const char *s, int64_t zero_as, int64_t *out)
{
    double dv = 0;
    VKMD_TRY_RETURN(vkmd_option_double(opt, s, 0, 1e15, &dv));
    if (dv != floor(dv))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not a whole number", opt, s);
    *out = dv > 0 ? (int64_t)dv : zero_as;
    return VKMD_OK;
}

static vkmd_result option_choice(const char *opt, const char *s, const char *choices, int *out)
{
    const size_t n = strlen(s);
    int index = 0;
    for (const char *c = choices; *c; ++index) {
        const char *bar = strchr(c, '|');
        const size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && !strncmp(c, s, n)) {
            *out = index;
            return VKMD_OK;
        }
        c += len + (bar != NULL);
    }
    char expect[256];
    snprintf(expect, sizeof expect, "%s", choices);
    char *last = strrchr(expect, '|');
    for (char *p = expect; *p; ++p)
        if (*p == '|' && p != last)
            *p = ',';
    if (last)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not %.*s or %s", opt, s,
                         (int)(last - expect), expect, last + 1);
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not %s", opt, s, expect);
}

int vkmd_options_parse(int argc, char **argv, int *i, const vkmd_option *opts, size_t count,
                       vkmd_result *r)
{
    const char *a = argv[*i];
    for (size_t k = 0; k < count; ++k) {
        const vkmd_option *o = &opts[k];
        if (strcmp(a, o->name))
            continue;
        if (o->kind == VKMD_OPTION_FLAG) {
            *(int *)o->out = 1;
            *r = VKMD_OK;
            return 1;
        }
        const char *v = vkmd_option_value(argc, argv, i);
        if (!v) {
            *r = VKMD_ERROR_INVALID_ARGUMENT;
            return 1;
        }
        switch (o->kind) {
        case VKMD_OPTION_DOUBLE:
            *r = vkmd_option_double(a, v, o->lo, o->hi, o->out);
            break;
        case VKMD_OPTION_INT:
            *r = vkmd_option_int(a, v, (long)o->lo, (long)o->hi, o->out);
            break;
        case VKMD_OPTION_WHOLE:
            *r = vkmd_option_whole(a, v, (int64_t)o->lo, o->out);
            break;
        case VKMD_OPTION_STRING:
            *(const char **)o->out = v;
            *r = VKMD_OK;
            break;
        case VKMD_OPTION_CHOICE:
        default:
            *r = option_choice(a, v, o->choices, o->out);
            break;
        }
        return 1;
    }
    return 0;
}
