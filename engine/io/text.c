/* Whole-file text input and fixed-width field helpers (see text.h). */
#include "io/text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_text_read(const char *path, vkmd_text *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        fclose(f);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    for (;;) {
        if (n == cap) {
            if (cap > ((size_t)1 << 40)) {
                free(buf);
                fclose(f);
                return vkmd_fail(VKMD_ERROR_IO, "%s: file too large", path);
            }
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int read_error = ferror(f);
    fclose(f);
    if (read_error) {
        free(buf);
        return vkmd_fail(VKMD_ERROR_IO, "%s: read error", path);
    }
    buf[n] = '\0';

    int64_t count = 0;
    for (size_t i = 0; i < n; ++i)
        if (buf[i] == '\n')
            ++count;
    if (n > 0 && buf[n - 1] != '\n')
        ++count;
    if (count > INT32_MAX - 1) {
        free(buf);
        return vkmd_fail(VKMD_ERROR_IO, "%s: too many lines", path);
    }
    char **lines = malloc((size_t)(count + 1) * sizeof *lines);
    int32_t *lens = malloc((size_t)(count + 1) * sizeof *lens);
    if (!lines || !lens) {
        free(buf);
        free(lines);
        free(lens);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    int32_t li = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n && li < count; ++i) {
        if (i == n || buf[i] == '\n') {
            buf[i] = '\0';
            size_t len = i - start;
            while (len > 0 && (buf[start + len - 1] == '\r' || buf[start + len - 1] == ' ' ||
                               buf[start + len - 1] == '\t'))
                buf[start + --len] = '\0';
            lines[li] = buf + start;
            lens[li] = len > INT32_MAX ? INT32_MAX : (int32_t)len;
            ++li;
            start = i + 1;
        }
    }
    out->buf = buf;
    out->size = n;
    out->lines = lines;
    out->lens = lens;
    out->line_count = li;
    return VKMD_OK;
}

void vkmd_text_free(vkmd_text *t)
{
    if (!t)
        return;
    free(t->buf);
    free(t->lines);
    free(t->lens);
    memset(t, 0, sizeof *t);
}

int vkmd_text_is_netcdf(const vkmd_text *t)
{
    if (t->size >= 3 && memcmp(t->buf, "CDF", 3) == 0)
        return 1;
    return t->size >= 4 && memcmp(t->buf, "\x89HDF", 4) == 0;
}

/* Copies the trimmed field into dst (size >= 64); 0 if blank or too long. */
static int trimmed(const char *field, int len, char *dst, size_t dst_size)
{
    int a = 0, b = len;
    while (a < b && (field[a] == ' ' || field[a] == '\t'))
        ++a;
    while (b > a && (field[b - 1] == ' ' || field[b - 1] == '\t' || field[b - 1] == '\0'))
        --b;
    if (b == a || (size_t)(b - a) >= dst_size)
        return 0;
    for (int i = a; i < b; ++i)
        if (field[i] == '\0')
            return 0;
    memcpy(dst, field + a, (size_t)(b - a));
    dst[b - a] = '\0';
    return 1;
}

int vkmd_text_parse_int(const char *field, int len, int64_t *out)
{
    char tmp[64];
    if (!trimmed(field, len, tmp, sizeof tmp))
        return 0;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(tmp, &end, 10);
    if (errno || end == tmp || *end != '\0')
        return 0;
    *out = v;
    return 1;
}

int vkmd_text_parse_real(const char *field, int len, double *out)
{
    char tmp[64];
    if (!trimmed(field, len, tmp, sizeof tmp))
        return 0;
    for (char *c = tmp; *c; ++c) {
        if (*c == 'D' || *c == 'd')
            *c = 'E';
        /* strtod would accept "inf", "nan" and hex floats; a data file has none. */
        if (!strchr("0123456789+-.Ee", *c))
            return 0;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(tmp, &end);
    if (end == tmp || *end != '\0' || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

void vkmd_text_field_str(const char *field, int len, char *dst, size_t dst_size)
{
    int a = 0, b = len;
    while (a < b && field[a] == ' ')
        ++a;
    while (b > a && (field[b - 1] == ' ' || field[b - 1] == '\0'))
        --b;
    size_t n = (size_t)(b - a);
    if (n >= dst_size)
        n = dst_size - 1;
    memcpy(dst, field + a, n);
    dst[n] = '\0';
}

int vkmd_text_format_fixed(char *dst, int width, int max_decimals, double v)
{
    if (!isfinite(v))
        return 0;
    for (int d = max_decimals; d >= 0; --d) {
        char tmp[400];
        int n = snprintf(tmp, sizeof tmp, "%*.*f", width, d, v);
        if (n == width) {
            memcpy(dst, tmp, (size_t)width + 1);
            return 1;
        }
    }
    return 0;
}

vkmd_result vkmd_text_close_written(FILE *f, const char *path, int values_fit,
                                    const char *why_not_fit)
{
    int io_err = ferror(f);
    if (fclose(f) != 0)
        io_err = 1;
    if (!values_fit) {
        remove(path);
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %s", path, why_not_fit);
    }
    if (io_err)
        return vkmd_fail(VKMD_ERROR_IO, "%s: write failed", path);
    return VKMD_OK;
}
