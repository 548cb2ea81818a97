/* water:N from the pre-equilibrated tile (see water_tile.h).
 *
 * The tile is parsed once per build from the embedded PDB (fixed columns:
 * CRYST1 edge, then O, H1, H2 per molecule). Only the oxygens are replicated
 * and cut; the hydrogens ride along as the tile's ideal offsets. Close pairs
 * across a face are found on a cell grid of the molecules within
 * FACE_REACH_A of a face, so a build is O(N log N) (the sort by key). */
#include "system/water_tile.h"

#include "core/log.h"
#include "system/uff_assets.h"
#include "system/water_box.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FACE_REACH_A     3.6 /* A: oxygens farther apart across a face are not in contact */
#define CONTACT_MARGIN_A 1.1 /* A: atoms closer than MIN_OO - this count as oxygens at MIN_OO */
#define MAX_ROUNDS       200

typedef struct tile {
    double edge;                           /* A, vkmd_water_box_edge_a(216) */
    double o[VKMD_WATER_TILE_WATERS][3];   /* oxygens wrapped into [0, edge) */
    double off[VKMD_WATER_TILE_WATERS][6]; /* H1 - O, H2 - O (ideal geometry) */
} tile;

static int pdb_field(const char *line, size_t len, size_t from, size_t to, double *out)
{
    char buf[32];
    if (len < to || to - from >= sizeof buf)
        return 0;
    memcpy(buf, line + from, to - from);
    buf[to - from] = '\0';
    char *end = NULL;
    *out = strtod(buf, &end);
    return end != buf;
}

static void normalise(double v[3])
{
    const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; ++k)
        v[k] /= n;
}

/* Reads the embedded tile; rebuilds each molecule rigid with O-H r0 and
 * H-O-H theta0 around its oxygen, bisector and plane. */
static vkmd_result tile_read(double r0, double theta0, tile *t)
{
    size_t size = 0;
    const char *text = vkmd_asset_find(VKMD_WATER_TILE_ASSET, &size);
    if (!text)
        return vkmd_fail(VKMD_ERROR_PARSE, "assets/%s is not embedded in this build",
                         VKMD_WATER_TILE_ASSET);
    double cryst = 0, x[3 * VKMD_WATER_TILE_WATERS][3];
    int32_t atoms = 0, line_no = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const size_t len = nl ? (size_t)(nl - p) : strlen(p);
        ++line_no;
        if (len >= 6 && strncmp(p, "CRYST1", 6) == 0) {
            if (!pdb_field(p, len, 6, 15, &cryst))
                return vkmd_fail(VKMD_ERROR_PARSE, "assets/%s:%d: expected the box edge",
                                 VKMD_WATER_TILE_ASSET, line_no);
        } else if (len >= 6 && (strncmp(p, "ATOM  ", 6) == 0 || strncmp(p, "HETATM", 6) == 0)) {
            const char want = atoms % 3 == 0 ? 'O' : 'H';
            if (atoms >= 3 * VKMD_WATER_TILE_WATERS || len < 54 || p[13] != want ||
                !pdb_field(p, len, 30, 38, &x[atoms][0]) ||
                !pdb_field(p, len, 38, 46, &x[atoms][1]) ||
                !pdb_field(p, len, 46, 54, &x[atoms][2]))
                return vkmd_fail(
                    VKMD_ERROR_PARSE, "assets/%s:%d: expected atom %d of %d (%c), in O H1 H2 order",
                    VKMD_WATER_TILE_ASSET, line_no, atoms + 1, 3 * VKMD_WATER_TILE_WATERS, want);
            ++atoms;
        }
        p += len + (nl != NULL);
    }
    t->edge = vkmd_water_box_edge_a(VKMD_WATER_TILE_WATERS);
    if (atoms != 3 * VKMD_WATER_TILE_WATERS || fabs(cryst - t->edge) > 2e-3)
        return vkmd_fail(VKMD_ERROR_PARSE,
                         "assets/%s: expected %d atoms in a %.3f A cube, found %d in %.3f A",
                         VKMD_WATER_TILE_ASSET, 3 * VKMD_WATER_TILE_WATERS, t->edge, atoms, cryst);
    const double c = r0 * cos(0.5 * theta0), s = r0 * sin(0.5 * theta0);
    for (int32_t m = 0; m < VKMD_WATER_TILE_WATERS; ++m) {
        const double *o = x[3 * m];
        double a[3], b[3], u[3], w[3];
        for (int k = 0; k < 3; ++k) {
            /* Whole molecule under the file's box, then the bisector u and
             * the in-plane unit w orthogonal to it. */
            a[k] = x[3 * m + 1][k] - o[k];
            b[k] = x[3 * m + 2][k] - o[k];
            a[k] -= cryst * nearbyint(a[k] / cryst);
            b[k] -= cryst * nearbyint(b[k] / cryst);
            u[k] = a[k] + b[k];
            w[k] = a[k] - b[k];
        }
        normalise(u);
        const double wu = w[0] * u[0] + w[1] * u[1] + w[2] * u[2];
        for (int k = 0; k < 3; ++k)
            w[k] -= wu * u[k];
        normalise(w);
        for (int k = 0; k < 3; ++k) {
            double ok = o[k] * (t->edge / cryst);
            ok -= t->edge * floor(ok / t->edge);
            t->o[m][k] = ok < t->edge ? ok : 0;
            t->off[m][k] = c * u[k] + s * w[k];
            t->off[m][3 + k] = c * u[k] - s * w[k];
        }
    }
    return VKMD_OK;
}

/* Candidates: every oxygen of the k^3 replicas, by index c = cell * 216 + m. */
typedef struct cand {
    double key; /* largest coordinate of the oxygen: in [0, s)^3 iff key < s */
    int64_t index;
} cand;

static int cand_cmp(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static void cand_oxygen(const tile *t, int32_t k, int64_t index, double out[3])
{
    const int32_t m = (int32_t)(index % VKMD_WATER_TILE_WATERS);
    const int64_t cell = index / VKMD_WATER_TILE_WATERS;
    const int64_t c[3] = {cell % k, (cell / k) % k, cell / ((int64_t)k * k)};
    for (int d = 0; d < 3; ++d)
        out[d] = t->o[m][d] + (double)c[d] * t->edge;
}

/* The molecules near a face of the box [0, edge)^3, on a periodic cell grid
 * over their oxygens (nc >= 3 cells a side, or one cell and every image). */
typedef struct faces {
    int32_t count;   /* molecules near a face */
    int32_t *member; /* [count] index into the kept set */
    double *x;       /* [count * 9] their O, H1, H2 */
    double *d;       /* [count] closest contact across a face (contact(); FACE_REACH_A if none) */
    uint8_t *alive;  /* [count] */
    int32_t *cellof; /* [count] */
    int32_t *head;   /* [nc^3] */
    int32_t *next;   /* [count] */
    int32_t nc;
    double edge;
} faces;

/* How close molecule b, shifted by `shift` (A), comes to molecule a: the O-O
 * distance, or the closest atom pair plus CONTACT_MARGIN_A if that is less,
 * so that "contact >= VKMD_WATER_TILE_MIN_OO_A" means oxygens that far apart
 * and no atoms closer than VKMD_WATER_TILE_MIN_OO_A - CONTACT_MARGIN_A.
 * FACE_REACH_A when the oxygens are that far apart. */
static double contact(const double *a, const double *b, const double shift[3])
{
    double best2 = 1e30, oo2 = 0;
    for (int u = 0; u < 3; ++u)
        for (int v = 0; v < 3; ++v) {
            double r2 = 0;
            for (int k = 0; k < 3; ++k) {
                const double d = b[3 * v + k] + shift[k] - a[3 * u + k];
                r2 += d * d;
            }
            if (u == 0 && v == 0) {
                if (r2 >= FACE_REACH_A * FACE_REACH_A)
                    return FACE_REACH_A;
                oo2 = r2;
            }
            best2 = r2 < best2 ? r2 : best2;
        }
    const double any = sqrt(best2) + CONTACT_MARGIN_A, oo = sqrt(oo2);
    return fmin(FACE_REACH_A, fmin(oo, any));
}

/* recompute 0: f->d[i] = the closest contact of alive molecules to molecule
 * i across a face (images shifted by a non-zero multiple of the edge; j == i
 * included for small boxes). recompute 1 (i just removed): every alive j in
 * contact with i gets its d recomputed. */
static void visit_neighbours(faces *f, int32_t i, int recompute)
{
    const double *xi = &f->x[9 * i];
    double best = FACE_REACH_A;
    const double e = f->edge;
    const int32_t nc = f->nc, ci = f->cellof[i];
    const int32_t cx = ci % nc, cy = (ci / nc) % nc, cz = ci / nc / nc;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                /* One cell (small box): every molecule, every non-zero image. */
                int32_t cc = 0;
                double shift[3] = {dx * e, dy * e, dz * e};
                if (nc > 1) {
                    const int32_t g[3] = {cx + dx, cy + dy, cz + dz};
                    for (int k = 0; k < 3; ++k)
                        shift[k] = g[k] < 0 ? -e : g[k] >= nc ? e : 0;
                    cc = (((g[2] + nc) % nc) * nc + (g[1] + nc) % nc) * nc + (g[0] + nc) % nc;
                }
                if (shift[0] == 0 && shift[1] == 0 && shift[2] == 0)
                    continue; /* same side of every face: not across one */
                for (int32_t j = f->head[cc]; j >= 0; j = f->next[j]) {
                    if (!f->alive[j])
                        continue;
                    const double c = contact(xi, &f->x[9 * j], shift);
                    if (c >= FACE_REACH_A)
                        continue;
                    if (recompute && j != i)
                        visit_neighbours(f, j, 0);
                    best = c < best ? c : best;
                }
            }
    if (!recompute)
        f->d[i] = best;
}

static void faces_free(faces *f)
{
    free(f->member);
    free(f->x);
    free(f->d);
    free(f->alive);
    free(f->cellof);
    free(f->head);
    free(f->next);
    memset(f, 0, sizeof *f);
}

/* Keeps the first `kept` candidates (oxygens in [0, edge)^3), removes
 * kept - n of them near the faces, and writes the survivors' candidate
 * indices (in candidate order) to out_index and their closest O-O across a
 * face to *out_min_oo. Returns 0 on out-of-memory or too few molecules near
 * the faces. */
static int trim(const tile *t, int32_t k, const cand *cands, int32_t kept, int32_t n, double edge,
                int64_t *out_index, double *out_min_oo)
{
    faces f = {0};
    f.edge = edge;
    f.nc = (int32_t)floor(edge / FACE_REACH_A);
    if (f.nc < 3)
        f.nc = 1;
    const int all = f.nc == 1;
    uint8_t *removed = calloc((size_t)kept, 1);
    f.member = malloc((size_t)kept * sizeof *f.member);
    f.x = malloc((size_t)kept * 9 * sizeof *f.x);
    f.d = malloc((size_t)kept * sizeof *f.d);
    f.alive = malloc((size_t)kept);
    f.cellof = malloc((size_t)kept * sizeof *f.cellof);
    f.next = malloc((size_t)kept * sizeof *f.next);
    f.head = malloc((size_t)f.nc * f.nc * f.nc * sizeof *f.head);
    int ok = removed && f.member && f.x && f.d && f.alive && f.cellof && f.next && f.head;
    if (!ok)
        goto done;
    for (int64_t c = 0; c < (int64_t)f.nc * f.nc * f.nc; ++c)
        f.head[c] = -1;
    for (int32_t i = 0; i < kept; ++i) {
        double o[3];
        cand_oxygen(t, k, cands[i].index, o);
        int near = all;
        for (int d = 0; d < 3; ++d)
            near |= o[d] < FACE_REACH_A || o[d] >= edge - FACE_REACH_A;
        if (!near)
            continue;
        const int32_t j = f.count++;
        f.member[j] = i;
        const int32_t tm = (int32_t)(cands[i].index % VKMD_WATER_TILE_WATERS);
        for (int d = 0; d < 3; ++d) {
            f.x[9 * j + d] = o[d];
            f.x[9 * j + 3 + d] = o[d] + t->off[tm][d];
            f.x[9 * j + 6 + d] = o[d] + t->off[tm][3 + d];
        }
        f.alive[j] = 1;
        int32_t c[3];
        for (int d = 0; d < 3; ++d) {
            c[d] = (int32_t)floor(o[d] / edge * f.nc);
            c[d] = c[d] < 0 ? 0 : c[d] >= f.nc ? f.nc - 1 : c[d];
        }
        f.cellof[j] = (c[2] * f.nc + c[1]) * f.nc + c[0];
        f.next[j] = f.head[f.cellof[j]];
        f.head[f.cellof[j]] = j;
    }
    if (f.count < kept - n) {
        ok = 0;
        goto done;
    }
    for (int32_t j = 0; j < f.count; ++j)
        visit_neighbours(&f, j, 0);
    for (int32_t r = 0; r < kept - n; ++r) {
        /* The most crowded across a face; ties: the outermost (largest key). */
        int32_t pick = -1;
        for (int32_t j = 0; j < f.count; ++j)
            if (f.alive[j] && (pick < 0 || f.d[j] < f.d[pick] ||
                               (f.d[j] == f.d[pick] && f.member[j] > f.member[pick])))
                pick = j;
        f.alive[pick] = 0;
        removed[f.member[pick]] = 1;
        visit_neighbours(&f, pick, 1);
    }
    double best = edge;
    for (int32_t j = 0; j < f.count; ++j)
        if (f.alive[j]) {
            visit_neighbours(&f, j, 0);
            best = f.d[j] < FACE_REACH_A && f.d[j] < best ? f.d[j] : best;
        }
    *out_min_oo = best;
    int32_t w = 0;
    for (int32_t i = 0; i < kept; ++i)
        if (!removed[i])
            out_index[w++] = cands[i].index;
done:
    free(removed);
    faces_free(&f);
    return ok;
}

vkmd_result vkmd_water_tile_build(int32_t n_waters, vkmd_system *out,
                                  vkmd_water_tile_stats *out_stats)
{
    memset(out, 0, sizeof *out);
    if (out_stats)
        memset(out_stats, 0, sizeof *out_stats);
    if (n_waters < 1 || n_waters > VKMD_WATER_BOX_MAX_WATERS)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "water:%d: the number of waters must be 1..%d", n_waters,
                         VKMD_WATER_BOX_MAX_WATERS);
    const int32_t n = n_waters;
    vkmd_system s = {0};
    tile *t = malloc(sizeof *t);
    cand *cands = NULL;
    int64_t *pick = NULL;
    vkmd_result res =
        t ? VKMD_OK : vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "water:%d: out of memory", n);
    if (res != VKMD_OK)
        goto cleanup;
    VKMD_TRY(vkmd_water_box_topology(n, &s));
    VKMD_TRY(tile_read(s.bonds[0].r0, s.angles[0].theta0, t));
    snprintf(s.title, sizeof s.title, "water:%d (TIP3P, 0.997 g/cm^3, from the 300 K tile)", n);
    const double len = vkmd_water_box_edge_a(n);
    vkmd_box_set_rect(&s.box, (const double[3]){len, len, len});

    const int32_t k = (int32_t)ceil((len + FACE_REACH_A) / t->edge);
    const int64_t total = (int64_t)k * k * k * VKMD_WATER_TILE_WATERS;
    cands = malloc((size_t)total * sizeof *cands);
    pick = malloc((size_t)n * sizeof *pick);
    if (!cands || !pick) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "water:%d: out of memory", n);
        goto cleanup;
    }
    for (int64_t c = 0; c < total; ++c) {
        double o[3];
        cand_oxygen(t, k, c, o);
        cands[c] = (cand){fmax(o[0], fmax(o[1], o[2])), c};
    }
    qsort(cands, (size_t)total, sizeof *cands, cand_cmp);
    int64_t inside = 0;
    while (inside < total && cands[inside].key < len)
        ++inside;
    int64_t kept = inside > n ? inside : n;
    double cut = len, min_oo = 0;
    int done = 0;
    for (int round = 0; round < MAX_ROUNDS && kept < total && !done; ++round) {
        cut = kept <= inside ? len : 0.5 * (cands[kept - 1].key + cands[kept].key);
        if (!trim(t, k, cands, (int32_t)kept, n, cut, pick, &min_oo)) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "water:%d: out of memory", n);
            goto cleanup;
        }
        done = min_oo * (len / cut) >= VKMD_WATER_TILE_MIN_OO_A;
        if (!done)
            kept += 1 + kept / 200;
    }
    if (!done) {
        res = vkmd_fail(VKMD_ERROR_NUMERIC,
                        "water:%d: no cut of the tile keeps oxygens %.1f A apart across the faces",
                        n, VKMD_WATER_TILE_MIN_OO_A);
        goto cleanup;
    }
    const double scale = len / cut;
    for (int32_t m = 0; m < n; ++m) {
        const int32_t tm = (int32_t)(pick[m] % VKMD_WATER_TILE_WATERS);
        double o[3];
        cand_oxygen(t, k, pick[m], o);
        double *x = &s.positions[9 * m];
        for (int d = 0; d < 3; ++d) {
            x[d] = o[d] * scale;
            x[d] = x[d] < len ? x[d] : 0;
            x[3 + d] = x[d] + t->off[tm][d];
            x[6 + d] = x[d] + t->off[tm][3 + d];
        }
    }
    vkmd_log_info("water:%d from the tile: %d^3 tiles, %lld kept in a %.4f A cube, %lld removed "
                  "at the faces, scaled by %.6f; closest O-O across a face %.3f A",
                  n, k, (long long)kept, cut, (long long)(kept - n), scale, min_oo * scale);
    if (out_stats)
        *out_stats = (vkmd_water_tile_stats){.tiles_per_edge = k,
                                             .kept_before_trim = (int32_t)kept,
                                             .removed = (int32_t)(kept - n),
                                             .cut_edge_a = cut,
                                             .scale = scale,
                                             .min_face_oo_a = fmin(min_oo * scale, len)};
    VKMD_TRY(vkmd_system_finalize(&s, "water box"));
    *out = s;
    memset(&s, 0, sizeof s);

cleanup:
    free(t);
    free(cands);
    free(pick);
    vkmd_system_destroy(&s);
    return res;
}
