/* Parsing of the UFF parameter table (see uff_params.h). */
#include "system/uff_params.h"

#include "system/uff_assets.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS 12

/* Splits one line (without its '\n') into at most `max` fields; returns the
 * count, or max + 1 when there are more. A '#' ends the line. */
static int split_fields(char *line, char **fields, int max)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
        if (n == max)
            return max + 1;
        fields[n++] = tok;
    }
    return n;
}

vkmd_result vkmd_uff_params_parse(const char *text, const char *name, vkmd_uff_param_table *out)
{
    memset(out, 0, sizeof *out);
    vkmd_result res = VKMD_OK;
    int32_t cap = 0;
    char *copy = strdup(text);
    if (!copy)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    int lineno = 0;
    char *next = copy;
    while (next) {
        char *line = next;
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        ++lineno;
        char *f[FIELDS];
        int n = split_fields(line, f, FIELDS);
        if (n == 0)
            continue;
        if (n != FIELDS) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: expected %d fields (label r1 theta0 ...), "
                            "found %s%d",
                            name, lineno, FIELDS, n > FIELDS ? "more than " : "",
                            n > FIELDS ? FIELDS : n);
            goto cleanup;
        }
        if (strlen(f[0]) >= VKMD_UFF_LABEL_MAX) {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: label '%s' is longer than %d characters",
                            name, lineno, f[0], VKMD_UFF_LABEL_MAX - 1);
            goto cleanup;
        }
        if (vkmd_uff_params_find(out, f[0]) >= 0) {
            res =
                vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: label '%s' appears twice", name, lineno, f[0]);
            goto cleanup;
        }
        double v[FIELDS - 1];
        for (int k = 1; k < FIELDS; ++k) {
            char *end = NULL;
            errno = 0;
            v[k - 1] = strtod(f[k], &end);
            if (end == f[k] || *end || errno || !isfinite(v[k - 1])) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %s: field %d: expected a number, found "
                                "'%s'",
                                name, lineno, f[0], k + 1, f[k]);
                goto cleanup;
            }
        }
        if (out->count == cap) {
            int32_t ncap = cap ? 2 * cap : 64;
            vkmd_uff_atom_params *t = realloc(out->types, (size_t)ncap * sizeof *t);
            if (!t) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
                goto cleanup;
            }
            out->types = t;
            cap = ncap;
        }
        vkmd_uff_atom_params *p = &out->types[out->count++];
        memset(p, 0, sizeof *p);
        strcpy(p->label, f[0]);
        p->r1 = v[0];
        p->theta0 = v[1] * M_PI / 180.0;
        p->x1 = v[2];
        p->d1 = v[3];
        p->zeta = v[4];
        p->z1 = v[5];
        p->v1 = v[6];
        p->u1 = v[7];
        p->xi = v[8];
        p->hard = v[9];
        p->radius = v[10];
    }
    if (out->count == 0)
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: no parameter rows", name, lineno);
cleanup:
    free(copy);
    if (res != VKMD_OK)
        vkmd_uff_params_destroy(out);
    return res;
}

vkmd_result vkmd_uff_params_load_default(vkmd_uff_param_table *out)
{
    const char *text = vkmd_asset_find("uff_params.txt", NULL);
    if (!text) {
        memset(out, 0, sizeof *out);
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "the built-in UFF table (assets/uff_params.txt) is missing");
    }
    return vkmd_uff_params_parse(text, "builtin:uff_params.txt", out);
}

void vkmd_uff_params_destroy(vkmd_uff_param_table *t)
{
    free(t->types);
    memset(t, 0, sizeof *t);
}

int32_t vkmd_uff_params_find(const vkmd_uff_param_table *t, const char *label)
{
    for (int32_t i = 0; i < t->count; ++i)
        if (strcmp(t->types[i].label, label) == 0)
            return i;
    return -1;
}
