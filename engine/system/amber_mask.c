/* AMBER mask evaluation (see amber_mask.h): a recursive-descent parser that
 * evaluates as it parses, every sub-expression a byte per atom.
 *
 *   or      := and ('|' and)*
 *   and     := unary ('&' unary)*
 *   unary   := '!' unary | primary distance*
 *   distance:= ('<' | '>') (':' | '@') NUMBER
 *   primary := '(' or ')' | '*' | ':' items ['@' items] | '@' ['%' | '/'] items
 *
 * Residues come from the system's res_index (a prmtop's RESIDUE_POINTER) and
 * res_name; residue numbers are res_index + 1, atom numbers index + 1. */
#include "system/amber_mask.h"
#include "system/element.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const vkmd_system *sys;
    const char *mask;
    size_t pos;
    int32_t n;
} parser;

/* "mask 'M': character N: what". A mask that holds quote characters (quoted
 * twice on its way: the shell's quotes and its own) is shown in the other
 * kind of quotes, once, with what to do. */
static vkmd_result syntax(const parser *p, const char *what)
{
    if (!strchr(p->mask, '\'') && !strchr(p->mask, '"'))
        return vkmd_fail(VKMD_ERROR_PARSE, "mask '%s': character %zu: %s", p->mask, p->pos + 1,
                         what);
    const char q = strchr(p->mask, '\'') ? '"' : '\'';
    return vkmd_fail(VKMD_ERROR_PARSE,
                     "mask %c%s%c: character %zu: %s (the mask holds quote characters: quote "
                     "it once, for the shell only)",
                     q, p->mask, q, p->pos + 1, what);
}

static void skip_blanks(parser *p)
{
    while (p->mask[p->pos] == ' ' || p->mask[p->pos] == '\t')
        ++p->pos;
}

static int item_char(char c)
{
    return c != '\0' && !strchr(",&|!()<>:@ \t", c);
}

/* Glob match, `*` / `=` any run, `?` one character. */
static int glob(const char *pat, const char *s)
{
    if (*pat == '\0')
        return *s == '\0';
    if (*pat == '*' || *pat == '=') {
        for (;; ++s) {
            if (glob(pat + 1, s))
                return 1;
            if (*s == '\0')
                return 0;
        }
    }
    if (*s == '\0')
        return 0;
    if (*pat == '?' || *pat == *s)
        return glob(pat + 1, s + 1);
    return 0;
}

int vkmd_amber_mask_match(const char *pattern, const char *name)
{
    char buf[64];
    while (*name == ' ')
        ++name;
    size_t len = strlen(name);
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, name, len);
    while (len > 0 && buf[len - 1] == ' ')
        --len;
    buf[len] = '\0';
    return glob(pattern, buf);
}

static int match_nocase(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

typedef enum field { F_RESIDUE, F_ATOM, F_TYPE, F_ELEMENT } field;

/* One item of a list (number, range or name pattern) ORed into sel. */
static vkmd_result apply_item(parser *p, field f, const char *item, size_t start, uint8_t *sel)
{
    const vkmd_system *sys = p->sys;
    if (isdigit((unsigned char)item[0])) {
        if (f == F_TYPE || f == F_ELEMENT) {
            p->pos = start;
            return syntax(p, "expected a name after % or / (not a number)");
        }
        char *end;
        long lo = strtol(item, &end, 10), hi = lo;
        if (*end == '-') {
            if (!isdigit((unsigned char)end[1])) {
                p->pos = start + (size_t)(end - item) + 1;
                return syntax(p, "expected a number after '-' in a range");
            }
            hi = strtol(end + 1, &end, 10);
        }
        if (*end != '\0') {
            p->pos = start + (size_t)(end - item);
            return syntax(p, "expected a number, a range a-b or a name");
        }
        if (lo < 1 || hi < lo) {
            p->pos = start;
            return syntax(p, "numbers start at 1 and ranges go upwards");
        }
        for (int32_t a = 0; a < p->n; ++a) {
            long v = f == F_RESIDUE ? (long)sys->atoms[a].res_index + 1 : (long)a + 1;
            if (v >= lo && v <= hi)
                sel[a] = 1;
        }
        return VKMD_OK;
    }
    for (int32_t a = 0; a < p->n; ++a) {
        const vkmd_atom *at = &sys->atoms[a];
        int hit = 0;
        switch (f) {
        case F_RESIDUE:
            hit = vkmd_amber_mask_match(item, at->res_name);
            break;
        case F_ATOM:
            hit = vkmd_amber_mask_match(item, at->name);
            break;
        case F_TYPE:
            hit = vkmd_amber_mask_match(item, at->type_name);
            break;
        case F_ELEMENT:
            hit = strcmp(item, "*") == 0 || strcmp(item, "=") == 0 ||
                  match_nocase(item, vkmd_element_symbol(at->element));
            break;
        }
        if (hit)
            sel[a] = 1;
    }
    return VKMD_OK;
}

/* A comma-separated list after ':' / '@' / '@%' / '@/'. */
static vkmd_result parse_list(parser *p, field f, uint8_t *sel)
{
    memset(sel, 0, (size_t)p->n);
    for (;;) {
        skip_blanks(p);
        size_t start = p->pos;
        while (item_char(p->mask[p->pos]))
            ++p->pos;
        if (p->pos == start)
            return syntax(p, f == F_RESIDUE ? "expected a residue number, range or name"
                                            : "expected an atom number, range or name");
        char item[64];
        size_t len = p->pos - start;
        if (len >= sizeof item) {
            p->pos = start;
            return syntax(p, "item longer than 63 characters");
        }
        memcpy(item, p->mask + start, len);
        item[len] = '\0';
        vkmd_result res = apply_item(p, f, item, start, sel);
        if (res != VKMD_OK)
            return res;
        skip_blanks(p);
        if (p->mask[p->pos] != ',')
            return VKMD_OK;
        ++p->pos;
    }
}

static vkmd_result parse_or(parser *p, uint8_t *sel, int depth);

static vkmd_result parse_atoms(parser *p, uint8_t *sel)
{
    field f = F_ATOM;
    if (p->mask[p->pos] == '%') {
        f = F_TYPE;
        ++p->pos;
    } else if (p->mask[p->pos] == '/') {
        f = F_ELEMENT;
        ++p->pos;
    }
    return parse_list(p, f, sel);
}

static vkmd_result parse_primary(parser *p, uint8_t *sel, int depth)
{
    skip_blanks(p);
    char c = p->mask[p->pos];
    if (c == '(') {
        size_t open = p->pos;
        ++p->pos;
        vkmd_result res = parse_or(p, sel, depth + 1);
        if (res != VKMD_OK)
            return res;
        skip_blanks(p);
        if (p->mask[p->pos] != ')') {
            if (p->mask[p->pos] == '\0') {
                p->pos = open;
                return syntax(p, "unclosed '('");
            }
            return syntax(p, "expected ')' or an operator");
        }
        ++p->pos;
        return VKMD_OK;
    }
    if (c == '*') {
        ++p->pos;
        memset(sel, 1, (size_t)p->n);
        return VKMD_OK;
    }
    if (c == ':') {
        ++p->pos;
        vkmd_result res = parse_list(p, F_RESIDUE, sel);
        if (res != VKMD_OK || p->mask[p->pos] != '@')
            return res;
        ++p->pos;
        uint8_t *atoms = malloc((size_t)p->n);
        if (!atoms)
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "mask '%s'", p->mask);
        res = parse_atoms(p, atoms);
        for (int32_t a = 0; a < p->n; ++a)
            sel[a] &= atoms[a];
        free(atoms);
        return res;
    }
    if (c == '@') {
        ++p->pos;
        return parse_atoms(p, sel);
    }
    if (c == '\0')
        return syntax(p, "unexpected end: expected ':', '@', '*', '!' or '('");
    if (c == ')')
        return syntax(p, "unexpected ')'");
    return syntax(p, "expected ':', '@', '*', '!' or '('");
}

static double min_image_dist2(const vkmd_box *box, const double *a, const double *b)
{
    double x[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    vkmd_box_min_image(box, x);
    return x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
}

/* sel := atoms (or residues) within / beyond r of the atoms of sel. */
static vkmd_result apply_distance(parser *p, uint8_t *sel, int within, int by_residue, double r)
{
    const vkmd_system *sys = p->sys;
    if (!sys->positions)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "mask '%s': distance operators need coordinates", p->mask);
    uint8_t *near = calloc((size_t)p->n, 1);
    int32_t *centres = malloc(sizeof *centres * (size_t)(p->n > 0 ? p->n : 1));
    if (!near || !centres) {
        free(near);
        free(centres);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "mask '%s'", p->mask);
    }
    int32_t nc = 0;
    for (int32_t a = 0; a < p->n; ++a)
        if (sel[a])
            centres[nc++] = a;
    const double r2 = r * r;
    for (int32_t a = 0; a < p->n; ++a)
        for (int32_t c = 0; c < nc; ++c)
            if (min_image_dist2(&sys->box, &sys->positions[3 * centres[c]],
                                &sys->positions[3 * a]) <= r2) {
                near[a] = 1;
                break;
            }
    if (by_residue) /* a residue with one atom near is near as a whole */
        for (int32_t a = 0; a < p->n; ++a)
            if (near[a])
                for (int32_t b = 0; b < p->n; ++b)
                    if (sys->atoms[b].res_index == sys->atoms[a].res_index && !near[b])
                        near[b] = 2;
    for (int32_t a = 0; a < p->n; ++a)
        sel[a] = within ? (near[a] != 0) : (near[a] == 0);
    free(near);
    free(centres);
    return VKMD_OK;
}

static vkmd_result parse_unary(parser *p, uint8_t *sel, int depth)
{
    skip_blanks(p);
    if (p->mask[p->pos] == '!') {
        ++p->pos;
        vkmd_result res = parse_unary(p, sel, depth);
        for (int32_t a = 0; a < p->n; ++a)
            sel[a] = !sel[a];
        return res;
    }
    vkmd_result res = parse_primary(p, sel, depth);
    for (;;) {
        if (res != VKMD_OK)
            return res;
        skip_blanks(p);
        char c = p->mask[p->pos];
        if (c != '<' && c != '>')
            return VKMD_OK;
        ++p->pos;
        char kind = p->mask[p->pos];
        if (kind != ':' && kind != '@')
            return syntax(p, "expected ':' or '@' after a distance operator");
        ++p->pos;
        const char *start = p->mask + p->pos;
        char *end;
        double r = strtod(start, &end);
        if (end == start || !(r >= 0) || !isfinite(r))
            return syntax(p, "expected a distance in A");
        p->pos += (size_t)(end - start);
        res = apply_distance(p, sel, c == '<', kind == ':', r);
    }
}

static vkmd_result parse_and(parser *p, uint8_t *sel, int depth)
{
    vkmd_result res = parse_unary(p, sel, depth);
    uint8_t *rhs = NULL;
    while (res == VKMD_OK) {
        skip_blanks(p);
        if (p->mask[p->pos] != '&')
            break;
        ++p->pos;
        if (!rhs && !(rhs = malloc((size_t)p->n)))
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "mask '%s'", p->mask);
        res = parse_unary(p, rhs, depth);
        for (int32_t a = 0; a < p->n; ++a)
            sel[a] &= rhs[a];
    }
    free(rhs);
    return res;
}

static vkmd_result parse_or(parser *p, uint8_t *sel, int depth)
{
    if (depth > 64)
        return syntax(p, "parentheses nested deeper than 64");
    vkmd_result res = parse_and(p, sel, depth);
    uint8_t *rhs = NULL;
    while (res == VKMD_OK) {
        skip_blanks(p);
        if (p->mask[p->pos] != '|')
            break;
        ++p->pos;
        if (!rhs && !(rhs = malloc((size_t)p->n)))
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "mask '%s'", p->mask);
        res = parse_and(p, rhs, depth);
        for (int32_t a = 0; a < p->n; ++a)
            sel[a] |= rhs[a];
    }
    free(rhs);
    return res;
}

vkmd_result vkmd_amber_mask_select(const vkmd_system *sys, const char *mask, uint8_t *out_selected,
                                   int32_t *out_count)
{
    if (!mask)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "mask: none given");
    parser p = {.sys = sys, .mask = mask, .pos = 0, .n = sys->atom_count};
    vkmd_result res = parse_or(&p, out_selected, 0);
    if (res != VKMD_OK)
        return res;
    skip_blanks(&p);
    if (p.mask[p.pos] == ')')
        return syntax(&p, "unmatched ')'");
    if (p.mask[p.pos] != '\0')
        return syntax(&p, "expected '&', '|' or the end of the mask");
    int32_t count = 0;
    for (int32_t a = 0; a < p.n; ++a)
        count += out_selected[a] != 0;
    if (out_count)
        *out_count = count;
    return VKMD_OK;
}
