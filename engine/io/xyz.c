/* XYZ reader with bond perception (see xyz.h). */
#include "io/xyz.h"

#include "system/element.h"
#include "io/text.h"
#include "system/uff_bond_orders.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Single-bond covalent radii, A (Cordero et al., Dalton Trans. 2008, 2832;
 * sp3 carbon). 0: no radius here. */
static double covalent_radius(int32_t z)
{
    switch (z) {
    case 1:
        return 0.31;
    case 5:
        return 0.84;
    case 6:
        return 0.76;
    case 7:
        return 0.71;
    case 8:
        return 0.66;
    case 9:
        return 0.57;
    case 14:
        return 1.11;
    case 15:
        return 1.07;
    case 16:
        return 1.05;
    case 17:
        return 1.02;
    case 34:
        return 1.20;
    case 35:
        return 1.20;
    case 53:
        return 1.39;
    default:
        return 0.0;
    }
}

static int32_t element_from_token(const char *tok)
{
    if (isdigit((unsigned char)tok[0])) {
        char *end = NULL;
        long z = strtol(tok, &end, 10);
        return (*end || z < 1 || z > 118) ? 0 : (int32_t)z;
    }
    char sym[4] = {0};
    size_t n = strlen(tok);
    if (n > 2)
        return 0;
    sym[0] = (char)toupper((unsigned char)tok[0]);
    if (n == 2)
        sym[1] = (char)tolower((unsigned char)tok[1]);
    return vkmd_element_from_symbol(sym);
}

vkmd_result vkmd_xyz_perceive_bonds(vkmd_uff_molecule *m, const char *what)
{
    const double *x = m->positions;
    int32_t n = m->atom_count;
    for (int32_t i = 0; i < n; ++i)
        if (covalent_radius(m->z[i]) == 0.0)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "%s: atom %d (%s): no covalent radius for this element to perceive "
                             "bonds; give the bonds in an SDF file",
                             what, i + 1, vkmd_element_symbol(m->z[i]));
    int32_t cap = 16, count = 0;
    vkmd_uff_bond *bonds = malloc((size_t)cap * sizeof *bonds);
    int32_t *h_bonds = calloc(n > 0 ? (size_t)n : 1, sizeof *h_bonds);
    vkmd_result res = VKMD_OK;
    if (!bonds || !h_bonds) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
        goto cleanup;
    }
    for (int32_t i = 0; i < n; ++i) {
        for (int32_t j = i + 1; j < n; ++j) {
            double d2 = 0;
            for (int k = 0; k < 3; ++k)
                d2 += (x[3 * j + k] - x[3 * i + k]) * (x[3 * j + k] - x[3 * i + k]);
            double d = sqrt(d2);
            if (d < 0.4) {
                res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                                "%s: atoms %d and %d are %.3f A apart (less than 0.4 A)", what,
                                i + 1, j + 1, d);
                goto cleanup;
            }
            double lim =
                covalent_radius(m->z[i]) + covalent_radius(m->z[j]) + VKMD_XYZ_BOND_TOLERANCE_A;
            if (d > lim)
                continue;
            if (count == cap) {
                cap *= 2;
                vkmd_uff_bond *nb = realloc(bonds, (size_t)cap * sizeof *nb);
                if (!nb) {
                    res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
                    goto cleanup;
                }
                bonds = nb;
            }
            bonds[count].a = i;
            bonds[count].b = j;
            bonds[count].order = 1;
            ++count;
            for (int32_t e = 0; e < 2; ++e) {
                int32_t a = e ? j : i;
                if (m->z[a] == 1 && ++h_bonds[a] > 1) {
                    res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                                    "%s: hydrogen atom %d is within bonding distance of two "
                                    "atoms; give the bonds in an SDF file",
                                    what, a + 1);
                    goto cleanup;
                }
            }
        }
    }
    free(m->bonds);
    m->bonds = bonds;
    m->bond_count = count;
    bonds = NULL;
cleanup:
    free(bonds);
    free(h_bonds);
    return res;
}

vkmd_result vkmd_xyz_read(const char *path, vkmd_uff_molecule *out)
{
    memset(out, 0, sizeof *out);
    vkmd_text t;
    vkmd_result res = vkmd_text_read(path, &t);
    if (res != VKMD_OK)
        return res;
    int32_t frames = 0, l = 0, cap = 1; /* conformers out->positions holds room for */
    vkmd_uff_molecule frame;
    memset(&frame, 0, sizeof frame);
    while (l < t.line_count) {
        int32_t rest = l;
        while (rest < t.line_count && t.lens[rest] == 0)
            ++rest;
        if (rest >= t.line_count && frames > 0)
            break;
        int64_t n = 0;
        if (l >= t.line_count || !vkmd_text_parse_int(t.lines[l], t.lens[l], &n) || n < 1 ||
            n > 10000000) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: expected the atom count of frame %d (a whole number >= 1), "
                            "found '%s'",
                            path, l < t.line_count ? l + 1 : 1, frames + 1,
                            l < t.line_count ? t.lines[l] : "");
            goto cleanup;
        }
        if (l + 2 + n > t.line_count) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: frame %d: expected a comment line and %lld atom lines, the "
                            "file ends after %d atom line(s)",
                            path, t.line_count, frames + 1, (long long)n,
                            t.line_count - l - 2 > 0 ? t.line_count - l - 2 : 0);
            goto cleanup;
        }
        if ((res = vkmd_uff_molecule_alloc((int32_t)n, 0, 1, &frame)) != VKMD_OK)
            goto cleanup;
        snprintf(frame.name, sizeof frame.name, "%s", t.lines[l + 1]);
        snprintf(frame.source, sizeof frame.source, "%s:%d", path, l + 1);
        for (int32_t a = 0; a < n; ++a) {
            int32_t li = l + 2 + a;
            char *line = t.lines[li];
            char *save = NULL, *tok[4];
            int nt = 0;
            for (char *s = strtok_r(line, " \t", &save); s && nt < 4;
                 s = strtok_r(NULL, " \t", &save))
                tok[nt++] = s;
            if (nt < 4) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: atom %d: expected 'element x y z', found %d field(s)", path,
                                li + 1, a + 1, nt);
                goto cleanup;
            }
            frame.z[a] = element_from_token(tok[0]);
            if (!frame.z[a]) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: atom %d: expected an element symbol or number, found '%s'",
                                path, li + 1, a + 1, tok[0]);
                goto cleanup;
            }
            for (int k = 0; k < 3; ++k) {
                char *end = NULL;
                errno = 0;
                double v = strtod(tok[k + 1], &end);
                if (end == tok[k + 1] || *end || errno || !isfinite(v)) {
                    res = vkmd_fail(VKMD_ERROR_PARSE,
                                    "%s:%d: atom %d: expected the %c coordinate (a number), found "
                                    "'%s'",
                                    path, li + 1, a + 1, "xyz"[k], tok[k + 1]);
                    goto cleanup;
                }
                frame.positions[3 * a + k] = v;
            }
        }
        if (frames == 0) {
            *out = frame;
        } else {
            int32_t diff = frame.atom_count != out->atom_count ? 0 : -1;
            for (int32_t a = 0; diff < 0 && a < out->atom_count; ++a)
                if (frame.z[a] != out->z[a])
                    diff = a;
            if (diff >= 0) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: frame %d: %d atoms, atom %d %s; frame 1 has %d atoms, "
                                "atom %d %s: frames must be conformers of one molecule",
                                path, l + 1, frames + 1, frame.atom_count, diff + 1,
                                vkmd_element_symbol(frame.z[diff]), out->atom_count, diff + 1,
                                vkmd_element_symbol(out->z[diff]));
                goto cleanup;
            }
            /* Frame 1's atoms and charges (none in XYZ) and no bonds yet: append
             * the coordinates, the array grown geometrically so that a file of
             * many frames loads in linear time (a realloc per frame copied the
             * whole array each time where realloc cannot grow in place). */
            const size_t per = 3 * (size_t)out->atom_count;
            if (out->conformer_count == cap) {
                double *p = realloc(out->positions, 2 * (size_t)cap * per * sizeof *p);
                if (!p) {
                    res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: no memory for %d conformers",
                                    path, 2 * cap);
                    goto cleanup;
                }
                out->positions = p;
                cap *= 2;
            }
            memcpy(out->positions + (size_t)out->conformer_count * per, frame.positions,
                   per * sizeof *frame.positions);
            ++out->conformer_count;
            vkmd_uff_molecule_destroy(&frame);
        }
        memset(&frame, 0, sizeof frame);
        ++frames;
        l += 2 + (int32_t)n;
    }
    if (frames == 0) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s:1: the file is empty (expected an XYZ atom count)",
                        path);
        goto cleanup;
    }
    if (cap > out->conformer_count) { /* exactly sized, as every molecule's array */
        double *p =
            realloc(out->positions, 3 * (size_t)out->atom_count * out->conformer_count * sizeof *p);
        if (p)
            out->positions = p;
    }
    if ((res = vkmd_xyz_perceive_bonds(out, path)) != VKMD_OK)
        goto cleanup;
    res = vkmd_uff_assign_bond_orders(out, path);
cleanup:
    if (res != VKMD_OK) {
        if (frames > 0)
            vkmd_uff_molecule_destroy(out);
        vkmd_uff_molecule_destroy(&frame);
        memset(out, 0, sizeof *out);
    }
    vkmd_text_free(&t);
    return res;
}
