/* Reading the %FLAG sections of an AMBER prmtop (see prmtop_sections.h). */
#include "io/prmtop_sections.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vkmd_prmtop_values_free(vkmd_prmtop_values *v)
{
    free(v->i);
    free(v->d);
    free(v->s);
    free(v->line);
    memset(v, 0, sizeof *v);
}

const vkmd_prmtop_section *vkmd_prmtop_find_section(const vkmd_prmtop_file *p, const char *name)
{
    for (int32_t k = 0; k < p->sec_count; ++k)
        if (strcmp(p->secs[k].name, name) == 0)
            return &p->secs[k];
    return NULL;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Splits the file into sections. */
vkmd_result vkmd_prmtop_index_sections(vkmd_prmtop_file *p)
{
    const vkmd_text *t = &p->text;
    int32_t n = 0;
    for (int32_t l = 0; l < t->line_count; ++l)
        if (starts_with(t->lines[l], "%FLAG"))
            ++n;
    if (n == 0)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:1: not an AMBER prmtop: expected %%VERSION and %%FLAG sections, "
                         "found none",
                         p->path);
    p->secs = calloc((size_t)n, sizeof *p->secs);
    if (!p->secs)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", p->path);
    for (int32_t l = 0; l < t->line_count; ++l) {
        if (!starts_with(t->lines[l], "%FLAG"))
            continue;
        vkmd_prmtop_section *s = &p->secs[p->sec_count];
        const char *nm = t->lines[l] + 5;
        while (*nm == ' ')
            ++nm;
        size_t len = strcspn(nm, " \t");
        if (len == 0 || len >= sizeof s->name)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected a section name after %%FLAG",
                             p->path, l + 1);
        memcpy(s->name, nm, len);
        s->name[len] = '\0';
        const vkmd_prmtop_section *dup = vkmd_prmtop_find_section(p, s->name);
        if (dup)
            return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: %%FLAG %s appears twice (first at line %d)",
                             p->path, l + 1, s->name, dup->flag_line + 1);
        s->flag_line = l;
        s->fmt_line = -1;
        int32_t k = l + 1;
        while (k < t->line_count && starts_with(t->lines[k], "%COMMENT"))
            ++k;
        if (k < t->line_count && starts_with(t->lines[k], "%FORMAT")) {
            s->fmt_line = k;
            ++k;
        }
        s->begin = k;
        while (k < t->line_count && !starts_with(t->lines[k], "%FLAG"))
            ++k;
        s->end = k;
        ++p->sec_count;
    }
    return VKMD_OK;
}

static vkmd_result parse_format(const vkmd_prmtop_file *p, const vkmd_prmtop_section *s,
                                vkmd_prmtop_format *f)
{
    if (s->fmt_line < 0) {
        int32_t l = s->flag_line + 1;
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: %%FLAG %s: expected %%FORMAT(...), found '%.40s'", p->path, l + 1,
                         s->name, l < p->text.line_count ? p->text.lines[l] : "end of file");
    }
    const char *line = p->text.lines[s->fmt_line];
    const char *c = line + 7;
    int count = 1, width = 0, ok = 1;
    if (*c++ != '(')
        ok = 0;
    if (ok && *c >= '0' && *c <= '9') {
        count = 0;
        while (*c >= '0' && *c <= '9' && count < 100000)
            count = 10 * count + (*c++ - '0');
    }
    /* A repeat group after a count, e.g. 8(F9.5) in CMAP_PARAMETER sections. */
    int group = ok && c > line + 8 && *c == '(';
    if (group)
        ++c;
    char kind = ok ? *c++ : '\0';
    switch (kind) {
    case 'I':
    case 'i':
        f->kind = 'I';
        break;
    case 'E':
    case 'e':
    case 'F':
    case 'f':
    case 'D':
    case 'd':
    case 'G':
    case 'g':
        f->kind = 'E';
        break;
    case 'A':
    case 'a':
        f->kind = 'A';
        break;
    default:
        ok = 0;
    }
    if (ok && !(*c >= '0' && *c <= '9'))
        ok = 0;
    while (ok && *c >= '0' && *c <= '9' && width < 100000)
        width = 10 * width + (*c++ - '0');
    if (ok && *c == '.') {
        ++c;
        if (!(*c >= '0' && *c <= '9'))
            ok = 0;
        while (*c >= '0' && *c <= '9')
            ++c;
    }
    if (ok && group && *c++ != ')')
        ok = 0;
    if (ok && *c++ != ')')
        ok = 0;
    if (!ok || count < 1 || count > 1000 || width < 1 || width > 80)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: %%FLAG %s: expected a Fortran format such as %%FORMAT(10I8), "
                         "%%FORMAT(5E16.8) or %%FORMAT(20a4), found '%.60s'",
                         p->path, s->fmt_line + 1, s->name, line);
    f->per_line = count;
    f->width = width;
    return VKMD_OK;
}

static int values_grow(vkmd_prmtop_values *v, char kind, int with_lines)
{
    if (v->count < v->cap)
        return 1;
    int64_t cap = v->cap ? 2 * v->cap : 256;
    if (kind == 'I') {
        int64_t *ni = realloc(v->i, (size_t)cap * sizeof *ni);
        if (!ni)
            return 0;
        v->i = ni;
        if (with_lines) {
            int32_t *nl = realloc(v->line, (size_t)cap * sizeof *nl);
            if (!nl)
                return 0;
            v->line = nl;
        }
    } else if (kind == 'E') {
        double *nd = realloc(v->d, (size_t)cap * sizeof *nd);
        if (!nd)
            return 0;
        v->d = nd;
    } else {
        char(*ns)[8] = realloc(v->s, (size_t)cap * sizeof *ns);
        if (!ns)
            return 0;
        v->s = ns;
    }
    v->cap = cap;
    return 1;
}

static const char *kind_name(char kind)
{
    return kind == 'I' ? "integer" : kind == 'E' ? "real number" : "string";
}

/* Reads section `name` as `kind` values. `want` (or `alt`, if >= 0) is the
 * count the pointers promise; want < 0 accepts any count. A missing section is
 * an error only if `required` and the promised count is not zero. */
vkmd_result vkmd_prmtop_read_section(const vkmd_prmtop_file *p, const char *name, char kind,
                                     int required, int64_t want, int64_t alt, vkmd_prmtop_values *v)
{
    memset(v, 0, sizeof *v);
    const vkmd_prmtop_section *s = vkmd_prmtop_find_section(p, name);
    if (!s) {
        if (required && want != 0)
            return want < 0 ? vkmd_fail(VKMD_ERROR_PARSE,
                                        "%s: %%FLAG %s: required section is missing", p->path, name)
                            : vkmd_fail(VKMD_ERROR_PARSE,
                                        "%s: %%FLAG %s: required section is missing (expected "
                                        "%lld values)",
                                        p->path, name, (long long)want);
        return VKMD_OK;
    }
    v->present = 1;
    vkmd_prmtop_format f = {0};
    vkmd_result res = parse_format(p, s, &f);
    if (res != VKMD_OK)
        return res;
    if (f.kind != kind)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: %%FLAG %s: expected a %s format, found '%.40s'",
                         p->path, s->fmt_line + 1, name, kind_name(kind),
                         p->text.lines[s->fmt_line]);
    const vkmd_text *t = &p->text;
    for (int32_t l = s->begin; l < s->end; ++l) {
        if (starts_with(t->lines[l], "%COMMENT"))
            continue;
        const char *line = t->lines[l];
        const int len = t->lens[l];
        if (kind == 'A') {
            /* Strings: blank-padded fields; only as many as still expected. */
            if (want >= 0 && v->count >= want)
                break;
            for (int k = 0; k < f.per_line; ++k) {
                if (want >= 0 && v->count >= want)
                    break;
                int a = k * f.width;
                if (want < 0 && a >= len)
                    break;
                if (!values_grow(v, kind, 0))
                    return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", p->path);
                int n = a >= len ? 0 : (len - a < f.width ? len - a : f.width);
                vkmd_text_field_str(line + (a < len ? a : 0), n, v->s[v->count], 8);
                ++v->count;
            }
            continue;
        }
        int nfields = (len + f.width - 1) / f.width;
        if (nfields > f.per_line)
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: %%FLAG %s: expected at most %d values of width %d on a line, "
                             "found %d characters",
                             p->path, l + 1, name, f.per_line, f.width, len);
        for (int k = 0; k < nfields; ++k) {
            int a = k * f.width;
            int n = len - a < f.width ? len - a : f.width;
            if (!values_grow(v, kind, 1))
                return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", p->path);
            int ok;
            if (kind == 'I') {
                ok = vkmd_text_parse_int(line + a, n, &v->i[v->count]);
                v->line[v->count] = l + 1;
            } else {
                ok = vkmd_text_parse_real(line + a, n, &v->d[v->count]);
            }
            if (!ok)
                return vkmd_fail(VKMD_ERROR_PARSE,
                                 "%s:%d: %%FLAG %s: expected %s %lld in columns %d-%d, found "
                                 "'%.*s'",
                                 p->path, l + 1, name, kind_name(kind), (long long)v->count + 1,
                                 a + 1, a + n, n, line + a);
            ++v->count;
        }
    }
    if (want >= 0 && v->count != want && v->count != alt) {
        if (v->count < want && s->end >= t->line_count)
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: %%FLAG %s: expected %lld values, file ends after %lld",
                             p->path, t->line_count, name, (long long)want, (long long)v->count);
        if (v->count < want)
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: %%FLAG %s: expected %lld values, section ends after %lld",
                             p->path, s->end + 1, name, (long long)want, (long long)v->count);
        return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: %%FLAG %s: expected %lld values, found %lld",
                         p->path, s->end, name, (long long)want, (long long)v->count);
    }
    return VKMD_OK;
}

/* POINTERS, by position. */

/* Converts a stored atom index (3 * (atom - 1), sign = flag) to 0-based. */
vkmd_result vkmd_prmtop_atom_index(const vkmd_prmtop_file *p, const char *sec, const char *what,
                                   int64_t entry, int32_t line, int64_t raw, int32_t natom,
                                   int32_t *out)
{
    int64_t a = raw < 0 ? -raw : raw;
    if (a % 3 != 0 || a / 3 >= natom)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: %%FLAG %s: %s %lld: atom index %lld is out of range (expected "
                         "3*(atom-1), a multiple of 3 in 0..%lld for %d atoms)",
                         p->path, line, sec, what, (long long)entry + 1, (long long)raw,
                         3 * (long long)(natom - 1), natom);
    *out = (int32_t)(a / 3);
    return VKMD_OK;
}

vkmd_result vkmd_prmtop_type_index(const vkmd_prmtop_file *p, const char *sec, const char *what,
                                   int64_t entry, int32_t line, int64_t raw, int64_t ntypes,
                                   int32_t *out)
{
    if (raw < 1 || raw > ntypes)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: %%FLAG %s: %s %lld: parameter type %lld is out of range 1..%lld",
                         p->path, line, sec, what, (long long)entry + 1, (long long)raw,
                         (long long)ntypes);
    *out = (int32_t)(raw - 1);
    return VKMD_OK;
}

vkmd_result vkmd_prmtop_plain_atom(const vkmd_prmtop_file *p, const char *sec, const char *what,
                                   int64_t entry, int32_t line, int64_t raw, int32_t natom,
                                   int32_t *out)
{
    if (raw < 1 || raw > natom)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: %%FLAG %s: %s %lld: atom %lld is out of range 1..%d", p->path,
                         line, sec, what, (long long)entry + 1, (long long)raw, natom);
    *out = (int32_t)(raw - 1);
    return VKMD_OK;
}

/* The 1-based line of the first data line of section `name` (or its %FLAG). */
int32_t vkmd_prmtop_section_line(const vkmd_prmtop_file *p, const char *name)
{
    const vkmd_prmtop_section *s = vkmd_prmtop_find_section(p, name);
    if (!s)
        return 0;
    return s->begin < s->end ? s->begin + 1 : s->flag_line + 1;
}

/* A two-value count section ("terms, types"), each in 0..MAX_COUNT. */
vkmd_result vkmd_prmtop_read_counts(const vkmd_prmtop_file *p, const char *name, int64_t n,
                                    int64_t *out)
{
    vkmd_prmtop_values v;
    vkmd_result res = vkmd_prmtop_read_section(p, name, 'I', 1, n, -1, &v);
    if (res == VKMD_OK)
        for (int64_t k = 0; k < n; ++k) {
            if (v.i[k] < 0 || v.i[k] > MAX_COUNT) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %%FLAG %s: value %lld = %lld, expected "
                                "0..%d",
                                p->path, v.line[k], name, (long long)k + 1, (long long)v.i[k],
                                MAX_COUNT);
                break;
            }
            out[k] = v.i[k];
        }
    vkmd_prmtop_values_free(&v);
    return res;
}
