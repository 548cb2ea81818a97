/* Loading UFF molecules: built-in names, SDF/MOL and XYZ files, partial
 * charges (see uff_load.h). */
#include "io/uff_load.h"

#include "io/sdf.h"
#include "io/text.h"
#include "io/xyz.h"
#include "system/uff_assets.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const builtin_names[] = {"formic-acid", "xylitol", NULL};

const char *const *vkmd_uff_builtin_names(void)
{
    return builtin_names;
}

/* 1 if `path` ends with `ext` (".sdf"), ignoring case. */
static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

int vkmd_uff_molecule_spec(const char *spec)
{
    for (const char *const *b = builtin_names; *b; ++b)
        if (!strcmp(spec, *b))
            return 1;
    return has_ext(spec, ".sdf") || has_ext(spec, ".sd") || has_ext(spec, ".mol") ||
           has_ext(spec, ".xyz");
}

vkmd_result vkmd_uff_molecule_load(const char *spec, vkmd_uff_molecule **out_records,
                                   int32_t *out_count)
{
    *out_records = NULL;
    *out_count = 0;
    for (const char *const *b = builtin_names; *b; ++b) {
        if (strcmp(spec, *b) != 0)
            continue;
        char asset[96], name[96];
        snprintf(asset, sizeof asset, "molecules/%s.sdf", *b);
        snprintf(name, sizeof name, "builtin:%s", *b);
        const char *text = vkmd_asset_find(asset, NULL);
        if (!text)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "built-in molecule %s is missing", *b);
        return vkmd_sdf_read_string(text, name, out_records, out_count);
    }
    if (has_ext(spec, ".sdf") || has_ext(spec, ".sd") || has_ext(spec, ".mol"))
        return vkmd_sdf_read(spec, out_records, out_count);
    if (has_ext(spec, ".xyz")) {
        vkmd_uff_molecule *m = calloc(1, sizeof *m);
        if (!m)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", spec);
        vkmd_result res = vkmd_xyz_read(spec, m);
        if (res != VKMD_OK) {
            free(m);
            return res;
        }
        *out_records = m;
        *out_count = 1;
        return VKMD_OK;
    }
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                     "'%s': expected a built-in molecule (formic-acid, xylitol) or a file ending "
                     ".sdf, .sd, .mol or .xyz",
                     spec);
}

vkmd_result vkmd_uff_molecule_read_charges(const char *path, vkmd_uff_molecule *m)
{
    vkmd_text t;
    vkmd_result res = vkmd_text_read(path, &t);
    if (res != VKMD_OK)
        return res;
    double *q = calloc((size_t)m->atom_count, sizeof *q);
    int32_t n = 0;
    if (!q) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    for (int32_t l = 0; l < t.line_count; ++l) {
        char *hash = strchr(t.lines[l], '#');
        if (hash)
            *hash = '\0';
        char *save = NULL;
        for (char *tok = strtok_r(t.lines[l], " \t,", &save); tok;
             tok = strtok_r(NULL, " \t,", &save)) {
            char *end = NULL;
            errno = 0;
            double v = strtod(tok, &end);
            if (end == tok || *end || errno || !isfinite(v)) {
                res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected a charge (a number), found '%s'",
                                path, l + 1, tok);
                goto cleanup;
            }
            if (n == m->atom_count) {
                res =
                    vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: more charges than the molecule's %d atoms",
                              path, l + 1, m->atom_count);
                goto cleanup;
            }
            q[n++] = v;
        }
    }
    if (n != m->atom_count) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected %d charges (one per atom), found %d",
                        path, t.line_count, m->atom_count, n);
        goto cleanup;
    }
    free(m->partial_charges);
    m->partial_charges = q;
    q = NULL;
cleanup:
    free(q);
    vkmd_text_free(&t);
    return res;
}
