/* PDB coordinate reader and writer (see pdb.h). */
#include "io/pdb.h"

#include "core/log.h"
#include "system/element.h"
#include "io/text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses columns [c0, c1] (1-based, inclusive) of a line; 0 if missing/bad. */
static int column_real(const char *line, int len, int c0, int c1, double *out)
{
    if (len < c0)
        return 0;
    int n = (c1 <= len ? c1 : len) - c0 + 1;
    return vkmd_text_parse_real(line + c0 - 1, n, out);
}

vkmd_result vkmd_pdb_read_coords(const char *path, vkmd_system *sys)
{
    vkmd_text t;
    vkmd_result res = vkmd_text_read(path, &t);
    if (res != VKMD_OK)
        return res;
    double *pos = NULL;
    vkmd_box box = sys->box;
    int64_t count = 0;
    if (t.size == 0) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s:1: the file is empty (expected a PDB)", path);
        goto cleanup;
    }
    pos = malloc(((size_t)sys->atom_count + 1) * 3 * sizeof *pos);
    if (!pos) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    for (int32_t l = 0; l < t.line_count; ++l) {
        const char *line = t.lines[l];
        const int len = t.lens[l];
        if (strncmp(line, "ENDMDL", 6) == 0)
            break;
        if (strncmp(line, "CRYST1", 6) == 0) {
            double v[6];
            static const int cols[6][2] = {{7, 15},  {16, 24}, {25, 33},
                                           {34, 40}, {41, 47}, {48, 54}};
            for (int k = 0; k < 6; ++k) {
                if (!column_real(line, len, cols[k][0], cols[k][1], &v[k])) {
                    res = vkmd_fail(VKMD_ERROR_PARSE,
                                    "%s:%d: CRYST1: expected a number in columns %d-%d, found "
                                    "'%.*s'",
                                    path, l + 1, cols[k][0], cols[k][1],
                                    len >= cols[k][0] ? cols[k][1] - cols[k][0] + 1 : 0,
                                    len >= cols[k][0] ? line + cols[k][0] - 1 : "");
                    goto cleanup;
                }
            }
            if (fabs(v[0] - 1) < 1e-6 && fabs(v[1] - 1) < 1e-6 && fabs(v[2] - 1) < 1e-6) {
                vkmd_log_debug("%s:%d: CRYST1 1 1 1 is a placeholder; no box", path, l + 1);
                continue;
            }
            char where[600];
            snprintf(where, sizeof where, "%s:%d: CRYST1", path, l + 1);
            VKMD_TRY(vkmd_box_set(&box, v, &v[3], where));
            continue;
        }
        if (strncmp(line, "ATOM  ", 6) != 0 && strncmp(line, "HETATM", 6) != 0)
            continue;
        if (count >= sys->atom_count) {
            ++count;
            continue; /* counted for the message below */
        }
        for (int k = 0; k < 3; ++k) {
            int c0 = 31 + 8 * k, c1 = 38 + 8 * k;
            if (!column_real(line, len, c0, c1, &pos[3 * count + k])) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: expected the %c coordinate of atom %lld in columns "
                                "%d-%d, found '%.*s'",
                                path, l + 1, "xyz"[k], (long long)count + 1, c0, c1,
                                len >= c0 ? (c1 <= len ? c1 : len) - c0 + 1 : 0,
                                len >= c0 ? line + c0 - 1 : "");
                goto cleanup;
            }
        }
        ++count;
    }
    if (count != sys->atom_count) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:%d: expected %d ATOM/HETATM records (the topology's atoms), found "
                        "%lld",
                        path, t.line_count, sys->atom_count, (long long)count);
        goto cleanup;
    }
    free(sys->positions);
    sys->positions = pos;
    pos = NULL;
    sys->box = box;

cleanup:
    free(pos);
    vkmd_text_free(&t);
    return res;
}

vkmd_result vkmd_pdb_write(const char *path, const vkmd_system *sys)
{
    if (!sys->positions || sys->atom_count <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the system has no coordinates to write",
                         path);
    FILE *f = fopen(path, "w");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create: %s", path, strerror(errno));
    int ok = 1;
    if (sys->title[0])
        fprintf(f, "REMARK   1 %.68s\n", sys->title);
    if (sys->box.periodic) {
        const int tri = sys->box.triclinic; /* rectangular boxes may leave angle_deg unset */
        fprintf(f, "CRYST1%9.3f%9.3f%9.3f%7.2f%7.2f%7.2f P 1           1\n", sys->box.len[0],
                sys->box.len[1], sys->box.len[2], tri ? sys->box.angle_deg[0] : 90.0,
                tri ? sys->box.angle_deg[1] : 90.0, tri ? sys->box.angle_deg[2] : 90.0);
    }
    int32_t last = 0;
    for (int32_t a = 0; a < sys->atom_count && ok; ++a) {
        const vkmd_atom *at = &sys->atoms[a];
        const char *sym = vkmd_element_symbol(at->element);
        char name[8];
        /* Names shorter than 4 characters start in column 14 when the element
         * symbol has one letter (PDB alignment rule). */
        if (strlen(at->name) < 4 && strlen(sym) <= 1)
            snprintf(name, sizeof name, " %-3.3s", at->name);
        else
            snprintf(name, sizeof name, "%-4.4s", at->name);
        char xyz[3][9];
        for (int k = 0; k < 3; ++k)
            ok = ok && vkmd_text_format_fixed(xyz[k], 8, 3, sys->positions[3 * a + k]);
        if (!ok)
            break;
        char elem[3];
        snprintf(elem, sizeof elem, "%.2s", sym);
        if (elem[0] && elem[1])
            elem[1] = (char)(elem[1] >= 'a' && elem[1] <= 'z' ? elem[1] - 'a' + 'A' : elem[1]);
        fprintf(f, "ATOM  %5d %s %-4.4s%c%4d    %s%s%s%6.2f%6.2f          %2s\n", (a + 1) % 100000,
                name, at->res_name, 'A', (at->res_index + 1) % 10000, xyz[0], xyz[1], xyz[2], 1.0,
                0.0, elem);
        last = a;
    }
    if (ok)
        fprintf(f, "TER   %5d      %-4.4sA%4d\nEND\n", (last + 2) % 100000,
                sys->atoms[last].res_name, (sys->atoms[last].res_index + 1) % 10000);
    return vkmd_text_close_written(
        f, path, ok, "a coordinate does not fit the PDB 8-column field (|x| >= 1e7 or not finite)");
}
