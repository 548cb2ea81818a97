/* Atom-list files (see atom_list.h). */
#include "io/atom_list.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_atom_list_read(const char *path, int32_t atom_count, uint8_t *out_selected,
                                int32_t *out_count)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
    memset(out_selected, 0, (size_t)atom_count);
    vkmd_result res = VKMD_OK;
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = line;
        while (isspace((unsigned char)*s))
            ++s;
        if (*s == '\0')
            continue;
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        int ok = end != s && isdigit((unsigned char)*s);
        if (ok && *end == '-') {
            char *start = end + 1;
            ok = isdigit((unsigned char)*start);
            hi = strtol(start, &end, 10);
        }
        while (ok && isspace((unsigned char)*end))
            ++end;
        if (!ok || *end != '\0') {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected a 1-based atom index or a range a-b",
                            path, lineno);
            break;
        }
        if (lo < 1 || hi > atom_count || hi < lo) {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: atoms %ld-%ld: outside 1..%d or going down",
                            path, lineno, lo, hi, atom_count);
            break;
        }
        for (long a = lo; a <= hi; ++a)
            out_selected[a - 1] = 1;
    }
    if (res == VKMD_OK && ferror(f))
        res = vkmd_fail(VKMD_ERROR_IO, "%s: read error", path);
    fclose(f);
    if (res == VKMD_OK && out_count) {
        int32_t n = 0;
        for (int32_t a = 0; a < atom_count; ++a)
            n += out_selected[a];
        *out_count = n;
    }
    return res;
}
