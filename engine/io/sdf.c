/* SDF / MOL V2000 reader and record writer (see sdf.h). Fields are cut by column as the
 * V2000 format defines them; a line shorter than a field reads as blank. */
#include "io/sdf.h"

#include "system/element.h"
#include "io/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits a copy of `text` into lines the way vkmd_text_read does. */
static vkmd_result text_from_string(const char *text, const char *name, vkmd_text *out)
{
    memset(out, 0, sizeof *out);
    size_t n = strlen(text);
    int64_t count = 0;
    for (size_t i = 0; i < n; ++i)
        if (text[i] == '\n')
            ++count;
    if (n > 0 && text[n - 1] != '\n')
        ++count;
    out->buf = malloc(n + 1);
    out->lines = malloc((size_t)(count + 1) * sizeof *out->lines);
    out->lens = malloc((size_t)(count + 1) * sizeof *out->lens);
    if (!out->buf || !out->lines || !out->lens) {
        vkmd_text_free(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    }
    memcpy(out->buf, text, n + 1);
    out->size = n;
    size_t start = 0;
    for (size_t i = 0; i <= n && out->line_count < count; ++i) {
        if (i == n || out->buf[i] == '\n') {
            out->buf[i] = '\0';
            size_t len = i - start;
            while (len > 0 &&
                   (out->buf[start + len - 1] == '\r' || out->buf[start + len - 1] == ' ' ||
                    out->buf[start + len - 1] == '\t'))
                out->buf[start + --len] = '\0';
            out->lines[out->line_count] = out->buf + start;
            out->lens[out->line_count++] = (int32_t)len;
            start = i + 1;
        }
    }
    return VKMD_OK;
}

/* Columns c0..c1 (1-based, inclusive) of line l as an integer; `dflt` when
 * the line ends before c0 or the field is blank. 0 if malformed. */
static int column_int(const vkmd_text *t, int32_t l, int c0, int c1, int64_t dflt, int64_t *out)
{
    int len = t->lens[l];
    if (len < c0) {
        *out = dflt;
        return 1;
    }
    int n = (c1 <= len ? c1 : len) - c0 + 1;
    const char *f = t->lines[l] + c0 - 1;
    int blank = 1;
    for (int i = 0; i < n; ++i)
        if (f[i] != ' ')
            blank = 0;
    if (blank) {
        *out = dflt;
        return 1;
    }
    return vkmd_text_parse_int(f, n, out);
}

/* Columns c0..c1 of line l as a real number; 0 if missing or malformed. */
static int column_real(const vkmd_text *t, int32_t l, int c0, int c1, double *out)
{
    int len = t->lens[l];
    if (len < c0)
        return 0;
    int n = (c1 <= len ? c1 : len) - c0 + 1;
    return vkmd_text_parse_real(t->lines[l] + c0 - 1, n, out);
}

/* The text of columns c0..c1 of line l (for messages), at most 40 chars. */
static const char *column_text(const vkmd_text *t, int32_t l, int c0, int c1, char buf[48])
{
    int len = t->lens[l];
    if (len < c0) {
        strcpy(buf, "");
        return buf;
    }
    int n = (c1 <= len ? c1 : len) - c0 + 1;
    if (n > 40)
        n = 40;
    memcpy(buf, t->lines[l] + c0 - 1, (size_t)n);
    buf[n] = '\0';
    return buf;
}

/* Atomic number of an element symbol as V2000 writes it ("C", "Cl"); D and
 * T are hydrogen. 0 if unknown. */
static int is_query_symbol(const char *sym)
{
    static const char *const q[] = {"A", "Q", "L", "LP", "R#", "*", "R", "X", "M", NULL};
    for (int i = 0; q[i]; ++i)
        if (!strcmp(sym, q[i]))
            return 1;
    return 0;
}

/* Parses "M  CHG" / "M  RAD" entries: count then (atom, value) pairs. */
static vkmd_result parse_m_pairs(const vkmd_text *t, int32_t l, const char *name, const char *what,
                                 vkmd_uff_molecule *m, int32_t *dst)
{
    const char *line = t->lines[l] + 6;
    char *end = NULL;
    long n = strtol(line, &end, 10);
    if (end == line || n < 1 || n > 8)
        return vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: M  %s: expected an entry count 1..8, found '%s'",
                         name, l + 1, what, line);
    const char *p = end;
    for (long k = 0; k < n; ++k) {
        long v[2];
        for (int j = 0; j < 2; ++j) {
            v[j] = strtol(p, &end, 10);
            if (end == p)
                return vkmd_fail(VKMD_ERROR_PARSE,
                                 "%s:%d: M  %s: expected %ld (atom, value) pairs, found %ld", name,
                                 l + 1, what, n, k);
            p = end;
        }
        if (v[0] < 1 || v[0] > m->atom_count)
            return vkmd_fail(VKMD_ERROR_PARSE,
                             "%s:%d: M  %s: atom number %ld is out of range 1..%d", name, l + 1,
                             what, v[0], m->atom_count);
        dst[v[0] - 1] = (int32_t)v[1];
    }
    return VKMD_OK;
}

/* Parses the record starting at line *pl; on success *pl is the first line
 * after it ($$$$ consumed). */
static vkmd_result parse_record(const vkmd_text *t, const char *name, int32_t *pl,
                                vkmd_uff_molecule *m)
{
    int32_t l0 = *pl;
    char buf[48];
    memset(m, 0, sizeof *m);
    if (l0 + 3 >= t->line_count)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: expected a mol block (3 header lines and a counts line), the "
                         "file ends after %d line(s)",
                         name, t->line_count, t->line_count - l0);
    int32_t lc = l0 + 3;
    if (strstr(t->lines[lc], "V3000"))
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s:%d: V3000 mol blocks are not supported; write V2000", name, lc + 1);
    int64_t na = 0, nb = 0;
    if (t->lens[lc] < 6 || !column_int(t, lc, 1, 3, -1, &na) || !column_int(t, lc, 4, 6, -1, &nb) ||
        na < 1 || nb < 0 || na > 999 || nb > 999)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "%s:%d: expected a V2000 counts line (atoms in columns 1-3 >= 1, bonds "
                         "in columns 4-6), found '%s'",
                         name, lc + 1, t->lines[lc]);
    vkmd_result res = vkmd_uff_molecule_alloc((int32_t)na, (int32_t)nb, 1, m);
    if (res != VKMD_OK)
        return res;
    snprintf(m->name, sizeof m->name, "%s", t->lines[l0]);
    snprintf(m->source, sizeof m->source, "%s:%d", name, l0 + 1);
    int32_t l = lc + 1;
    for (int32_t a = 0; a < na; ++a, ++l) {
        if (l >= t->line_count || !strcmp(t->lines[l], "$$$$") ||
            !strncmp(t->lines[l], "M  END", 6)) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: expected %lld atom lines (the counts line), found %d", name,
                            l < t->line_count ? l + 1 : t->line_count, (long long)na, a);
            goto fail;
        }
        for (int k = 0; k < 3; ++k) {
            int c0 = 1 + 10 * k, c1 = 10 + 10 * k;
            if (!column_real(t, l, c0, c1, &m->positions[3 * a + k])) {
                res =
                    vkmd_fail(VKMD_ERROR_PARSE,
                              "%s:%d: atom %d: expected the %c coordinate in columns %d-%d, "
                              "found '%s'",
                              name, l + 1, a + 1, "xyz"[k], c0, c1, column_text(t, l, c0, c1, buf));
                goto fail;
            }
        }
        char sym[8];
        vkmd_text_field_str(t->lens[l] >= 32 ? t->lines[l] + 31 : "",
                            t->lens[l] >= 32 ? (t->lens[l] >= 34 ? 3 : t->lens[l] - 31) : 0, sym,
                            sizeof sym);
        if (is_query_symbol(sym)) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s:%d: atom %d: query or dummy atom '%s' is not supported", name,
                            l + 1, a + 1, sym);
            goto fail;
        }
        int32_t z = sym[0] ? vkmd_element_from_symbol(sym) : 0;
        if (!z) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: atom %d: expected an element symbol in columns 32-34, found "
                            "'%s'",
                            name, l + 1, a + 1, column_text(t, l, 32, 34, buf));
            goto fail;
        }
        m->z[a] = z;
        int64_t chg = 0;
        if (!column_int(t, l, 37, 39, 0, &chg) || chg < 0 || chg > 7) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: atom %d: expected a charge code 0-7 in columns 37-39, found "
                            "'%s'",
                            name, l + 1, a + 1, column_text(t, l, 37, 39, buf));
            goto fail;
        }
        /* V2000 charge codes: 1 +3, 2 +2, 3 +1, 4 doublet radical, 5 -1, 6 -2, 7 -3. */
        static const int32_t code_charge[8] = {0, 3, 2, 1, 0, -1, -2, -3};
        m->formal_charge[a] = code_charge[chg];
        m->radicals[a] = chg == 4 ? 1 : 0;
    }
    for (int32_t b = 0; b < nb; ++b, ++l) {
        if (l >= t->line_count || !strcmp(t->lines[l], "$$$$") || !strncmp(t->lines[l], "M  ", 3)) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: expected %lld bond lines (the counts line), found %d", name,
                            l < t->line_count ? l + 1 : t->line_count, (long long)nb, b);
            goto fail;
        }
        int64_t a1 = 0, a2 = 0, type = 0;
        if (!column_int(t, l, 1, 3, -1, &a1) || !column_int(t, l, 4, 6, -1, &a2) ||
            !column_int(t, l, 7, 9, -1, &type) || a1 < 1 || a2 < 1 || type < 0) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: bond %d: expected atom numbers in columns 1-3 and 4-6 and a "
                            "bond type in columns 7-9, found '%s'",
                            name, l + 1, b + 1, t->lines[l]);
            goto fail;
        }
        if (a1 > na || a2 > na || a1 == a2) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: bond %d: atoms %lld and %lld: expected two different atom "
                            "numbers 1..%lld",
                            name, l + 1, b + 1, (long long)a1, (long long)a2, (long long)na);
            goto fail;
        }
        if (type == 4) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s:%d: bond %d: aromatic bond type 4 is not supported: write Kekule "
                            "bonds (1 and 2); aromaticity is perceived",
                            name, l + 1, b + 1);
            goto fail;
        }
        if (type < 1 || type > 3) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s:%d: bond %d: bond type %lld is not supported (expected 1, 2 or 3)",
                            name, l + 1, b + 1, (long long)type);
            goto fail;
        }
        for (int32_t c = 0; c < b; ++c) {
            const vkmd_uff_bond *o = &m->bonds[c];
            if ((o->a == a1 - 1 && o->b == a2 - 1) || (o->a == a2 - 1 && o->b == a1 - 1)) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: bond %d joins atoms %lld and %lld again (bond %d)", name,
                                l + 1, b + 1, (long long)a1, (long long)a2, c + 1);
                goto fail;
            }
        }
        m->bonds[b].a = (int32_t)a1 - 1;
        m->bonds[b].b = (int32_t)a2 - 1;
        m->bonds[b].order = (int32_t)type;
    }
    int seen_chg = 0, seen_rad = 0, ended = 0;
    for (; l < t->line_count; ++l) {
        const char *line = t->lines[l];
        if (!strcmp(line, "$$$$"))
            break;
        if (!strncmp(line, "M  END", 6)) {
            ended = 1;
            ++l;
            break;
        }
        if (!strncmp(line, "M  CHG", 6)) {
            if (!seen_chg)
                memset(m->formal_charge, 0, (size_t)m->atom_count * sizeof *m->formal_charge);
            seen_chg = 1;
            if ((res = parse_m_pairs(t, l, name, "CHG", m, m->formal_charge)) != VKMD_OK)
                goto fail;
        } else if (!strncmp(line, "M  RAD", 6)) {
            if (!seen_rad)
                memset(m->radicals, 0, (size_t)m->atom_count * sizeof *m->radicals);
            seen_rad = 1;
            /* Values: 1 singlet (two unpaired), 2 doublet (one), 3 triplet (two). */
            if ((res = parse_m_pairs(t, l, name, "RAD", m, m->radicals)) != VKMD_OK)
                goto fail;
        }
    }
    if (!ended) {
        res =
            vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected 'M  END' to close the mol block, found %s",
                      name, l < t->line_count ? l + 1 : t->line_count,
                      l < t->line_count ? "'$$$$'" : "the end of the file");
        goto fail;
    }
    if (seen_rad)
        for (int32_t a = 0; a < m->atom_count; ++a) {
            int32_t r = m->radicals[a];
            if (r < 0 || r > 3) {
                res =
                    vkmd_fail(VKMD_ERROR_PARSE,
                              "%s: M  RAD: atom %d: radical code %d, expected 0-3", name, a + 1, r);
                goto fail;
            }
            m->radicals[a] = r == 2 ? 1 : r ? 2 : 0;
        }
    /* Data items up to the record separator. */
    while (l < t->line_count && strcmp(t->lines[l], "$$$$") != 0)
        ++l;
    *pl = l < t->line_count ? l + 1 : l;
    return VKMD_OK;
fail:
    vkmd_uff_molecule_destroy(m);
    return res;
}

static vkmd_result read_all(const vkmd_text *t, const char *name, vkmd_uff_molecule **out_records,
                            int32_t *out_count)
{
    *out_records = NULL;
    *out_count = 0;
    vkmd_uff_molecule *recs = NULL;
    int32_t count = 0, cap = 0;
    int32_t l = 0;
    vkmd_result res = VKMD_OK;
    for (;;) {
        int32_t rest = l;
        while (rest < t->line_count && t->lens[rest] == 0)
            ++rest;
        if (rest >= t->line_count)
            break; /* only blank lines left */
        if (count == cap) {
            int32_t ncap = cap ? 2 * cap : 8;
            vkmd_uff_molecule *r = realloc(recs, (size_t)ncap * sizeof *r);
            if (!r) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
                goto cleanup;
            }
            recs = r;
            cap = ncap;
        }
        res = parse_record(t, name, &l, &recs[count]);
        if (res != VKMD_OK)
            goto cleanup;
        ++count;
    }
    if (count == 0) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s:1: the file is empty (expected a V2000 mol block)",
                        name);
        goto cleanup;
    }
    *out_records = recs;
    *out_count = count;
    return VKMD_OK;
cleanup:
    vkmd_uff_molecule_array_free(recs, count);
    return res;
}

vkmd_result vkmd_sdf_read(const char *path, vkmd_uff_molecule **out_records, int32_t *out_count)
{
    *out_records = NULL;
    *out_count = 0;
    vkmd_text t;
    vkmd_result res = vkmd_text_read(path, &t);
    if (res != VKMD_OK)
        return res;
    res = read_all(&t, path, out_records, out_count);
    vkmd_text_free(&t);
    return res;
}

vkmd_result vkmd_sdf_read_string(const char *text, const char *name,
                                 vkmd_uff_molecule **out_records, int32_t *out_count)
{
    *out_records = NULL;
    *out_count = 0;
    vkmd_text t;
    vkmd_result res = text_from_string(text, name, &t);
    if (res != VKMD_OK)
        return res;
    res = read_all(&t, name, out_records, out_count);
    vkmd_text_free(&t);
    return res;
}

vkmd_result vkmd_sdf_write_record(FILE *f, const vkmd_uff_molecule *m, const char *title,
                                  const double *xyz, const vkmd_sdf_item *items, int32_t item_count)
{
    fprintf(f, "%s\n     vkmd          3D\n\n", title);
    fprintf(f, "%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", m->atom_count, m->bond_count);
    for (int32_t a = 0; a < m->atom_count; ++a)
        fprintf(f, "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", xyz[3 * a],
                xyz[3 * a + 1], xyz[3 * a + 2], vkmd_element_symbol(m->z[a]));
    for (int32_t b = 0; b < m->bond_count; ++b)
        fprintf(f, "%3d%3d%3d  0\n", m->bonds[b].a + 1, m->bonds[b].b + 1, m->bonds[b].order);
    for (int32_t a = 0; a < m->atom_count; ++a) {
        if (m->formal_charge[a])
            fprintf(f, "M  CHG  1 %3d %3d\n", a + 1, m->formal_charge[a]);
        if (m->radicals[a])
            fprintf(f, "M  RAD  1 %3d %3d\n", a + 1, m->radicals[a] == 1 ? 2 : 3);
    }
    fprintf(f, "M  END\n");
    for (int32_t k = 0; k < item_count; ++k)
        fprintf(f, "> <%s>\n%s\n\n", items[k].name, items[k].value);
    fprintf(f, "$$$$\n");
    if (ferror(f))
        return vkmd_fail(VKMD_ERROR_IO, "writing SDF record '%s' failed", title);
    return VKMD_OK;
}
