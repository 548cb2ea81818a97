/* XSF data-grid writer and reader (see xsf.h). The reader walks
 * whitespace-separated tokens over the lines of the file, since XSF puts
 * grid values any number to a line. */
#include "io/xsf.h"
#include "io/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_xsf_write(const char *path, const vkmd_xsf *x)
{
    for (int32_t g = 0; g < x->grid_count; ++g) {
        const vkmd_xsf_grid *gr = &x->grids[g];
        if (strpbrk(gr->name, " \t\n") || gr->name[0] == '\0')
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: grid name '%s' is empty or has spaces", path, gr->name);
        if (gr->n[0] < 2 || gr->n[1] < 2 || gr->n[2] < 2)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: grid '%s' has fewer than 2 points",
                             path, gr->name);
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    if (x->comment[0])
        fprintf(f, "# %s\n", x->comment);
    fprintf(f, "CRYSTAL\nPRIMVEC\n");
    for (int i = 0; i < 3; ++i)
        fprintf(f, " %.10f %.10f %.10f\n", x->primvec[i][0], x->primvec[i][1], x->primvec[i][2]);
    fprintf(f, "BEGIN_BLOCK_DATAGRID_3D\n vkmd\n");
    for (int32_t g = 0; g < x->grid_count; ++g) {
        const vkmd_xsf_grid *gr = &x->grids[g];
        fprintf(f, " BEGIN_DATAGRID_3D_%s\n  %d %d %d\n", gr->name, gr->n[0], gr->n[1], gr->n[2]);
        fprintf(f, "  %.10f %.10f %.10f\n", gr->origin[0], gr->origin[1], gr->origin[2]);
        for (int i = 0; i < 3; ++i)
            fprintf(f, "  %.10f %.10f %.10f\n", gr->span[i][0], gr->span[i][1], gr->span[i][2]);
        const int64_t count = (int64_t)gr->n[0] * gr->n[1] * gr->n[2];
        for (int64_t i = 0; i < count; ++i)
            fprintf(f, "%s%.9g", i % 6 == 0 ? "  " : " ", (double)gr->values[i]);
        if (count % 6 != 0 || count == 0)
            fputc('\n', f);
        fprintf(f, " END_DATAGRID_3D\n");
    }
    fprintf(f, "END_BLOCK_DATAGRID_3D\n");
    return vkmd_text_close_written(f, path, 1, NULL);
}

/* A cursor over the tokens of the text. */
typedef struct cursor {
    const vkmd_text *t;
    const char *path;
    int32_t line; /* 0-based */
    const char *p;
} cursor;

/* The next token (start, length) or 0 at the end of the file. */
static int next_token(cursor *c, const char **out_tok, int *out_len)
{
    while (c->line < c->t->line_count) {
        if (!c->p)
            c->p = c->t->lines[c->line];
        while (*c->p && isspace((unsigned char)*c->p))
            ++c->p;
        if (*c->p && *c->p != '#') {
            const char *s = c->p;
            while (*c->p && !isspace((unsigned char)*c->p))
                ++c->p;
            *out_tok = s;
            *out_len = (int)(c->p - s);
            return 1;
        }
        ++c->line;
        c->p = NULL;
    }
    return 0;
}

static vkmd_result expect_real(cursor *c, const char *what, double *out)
{
    const char *tok;
    int len;
    if (!next_token(c, &tok, &len))
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: end of file, expected %s", c->path, what);
    if (!vkmd_text_parse_real(tok, len, out))
        return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected %s, found '%.*s'", c->path, c->line + 1,
                         what, len > 40 ? 40 : len, tok);
    return VKMD_OK;
}

static vkmd_result expect_float(cursor *c, float *out)
{
    const char *tok;
    int len;
    char buf[64];
    if (!next_token(c, &tok, &len))
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: end of file inside a grid's values", c->path);
    if (len >= (int)sizeof buf)
        len = (int)sizeof buf - 1;
    memcpy(buf, tok, (size_t)len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    *out = strtof(buf, &end);
    if (end == buf || *end != '\0')
        return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected a grid value, found '%s'", c->path,
                         c->line + 1, buf);
    return VKMD_OK;
}

static int token_is(const char *tok, int len, const char *word)
{
    return (int)strlen(word) == len && strncmp(tok, word, (size_t)len) == 0;
}

static vkmd_result read_grid(cursor *c, const char *tok, int len, vkmd_xsf_grid *g)
{
    vkmd_result res = VKMD_OK;
    const int prefix = (int)strlen("BEGIN_DATAGRID_3D_");
    int name_len = len - prefix;
    if (name_len >= (int)sizeof g->name)
        name_len = (int)sizeof g->name - 1;
    memcpy(g->name, tok + prefix, (size_t)(name_len > 0 ? name_len : 0));
    g->name[name_len > 0 ? name_len : 0] = '\0';
    double v;
    for (int i = 0; i < 3; ++i) {
        VKMD_TRY(expect_real(c, "a grid size", &v));
        if (v < 2 || v > 1e6 || v != (int32_t)v)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: grid '%s': size %g is not 2 .. 1e6", c->path,
                             c->line + 1, g->name, v);
        g->n[i] = (int32_t)v;
    }
    for (int i = 0; i < 3; ++i)
        VKMD_TRY(expect_real(c, "the grid origin", &g->origin[i]));
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            VKMD_TRY(expect_real(c, "a spanning vector", &g->span[i][k]));
    const int64_t count = (int64_t)g->n[0] * g->n[1] * g->n[2];
    if (count > (int64_t)1 << 31)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s: grid '%s' of %lld points is too large", c->path,
                         g->name, (long long)count);
    g->values = malloc((size_t)count * sizeof *g->values);
    if (!g->values)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: grid of %lld points", c->path,
                         (long long)count);
    for (int64_t i = 0; i < count; ++i)
        VKMD_TRY(expect_float(c, &g->values[i]));
    const char *end;
    int end_len;
    if (!next_token(c, &end, &end_len) || !token_is(end, end_len, "END_DATAGRID_3D"))
        return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected END_DATAGRID_3D after %lld values",
                         c->path, c->line + 1, (long long)count);
cleanup:
    return res;
}

vkmd_result vkmd_xsf_read(const char *path, vkmd_xsf *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    vkmd_text t = {0};
    VKMD_TRY(vkmd_text_read(path, &t));
    if (t.line_count > 0 && t.lines[0][0] == '#') {
        const char *s = t.lines[0] + 1;
        while (*s == ' ')
            ++s;
        snprintf(out->comment, sizeof out->comment, "%s", s);
    }
    cursor c = {.t = &t, .path = path};
    const char *tok;
    int len;
    int have_primvec = 0;
    while (next_token(&c, &tok, &len)) {
        if (token_is(tok, len, "PRIMVEC")) {
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < 3; ++k)
                    VKMD_TRY(expect_real(&c, "a PRIMVEC component", &out->primvec[i][k]));
            have_primvec = 1;
        } else if (len > 18 && strncmp(tok, "BEGIN_DATAGRID_3D_", 18) == 0) {
            vkmd_xsf_grid *grown =
                realloc(out->grids, (size_t)(out->grid_count + 1) * sizeof *grown);
            if (!grown) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: grids", path);
                goto cleanup;
            }
            out->grids = grown;
            memset(&out->grids[out->grid_count], 0, sizeof *grown);
            ++out->grid_count;
            VKMD_TRY(read_grid(&c, tok, len, &out->grids[out->grid_count - 1]));
        }
        /* other keywords and their numbers (CRYSTAL, PRIMCOORD, block names) are skipped */
    }
    if (!have_primvec)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s: no PRIMVEC section", path));
    if (out->grid_count == 0)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_PARSE, "%s: no BEGIN_DATAGRID_3D_<name> grid", path));
    vkmd_text_free(&t);
    return VKMD_OK;
cleanup:
    vkmd_text_free(&t);
    vkmd_xsf_free(out);
    return res;
}

void vkmd_xsf_free(vkmd_xsf *x)
{
    for (int32_t g = 0; g < x->grid_count; ++g)
        free(x->grids[g].values);
    free(x->grids);
    memset(x, 0, sizeof *x);
}
