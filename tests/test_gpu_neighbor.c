/* Device neighbour list (engine/forces/pass_neighbor.c, shaders/nl_*.comp):
 *   - after a build the outer list holds every non-excluded pair within the
 *     outer radius (cutoff + skin + outer skin) under the minimum image and
 *     the inner list every pair within the inner radius (cutoff + skin),
 *     each pair of atoms once (a half list of cluster-pair tiles), no self
 *     or excluded pair, the inner pairs a subset of the outer ones (brute
 *     force, positions rounded to float; pairs within 1e-4 A of a radius are
 *     not judged): water:216 (18.6 A box, radii above half the box), the
 *     same with a coarse grid of 1-3 cells per dimension, water:2000, and a
 *     random gas in a 19 x 27 x 41 A box with coordinates outside the box;
 *   - two builds from scratch give the same lists, bit for bit;
 *   - 1,000 random displacements below half the skin (batched, 100 per
 *     submission): no prune and no rebuild on the device, no pair within
 *     the cutoff missing from the inner list; 20 below half the outer skin,
 *     one per submission: prunes but no rebuild, no pair within the cutoff
 *     missing; the non-bonded pass on the stale list agrees with the
 *     reference at three of the displaced configurations;
 *   - one atom moved past half the skin prunes; past half the outer skin, a
 *     changed box and an explicit invalidation each rebuild;
 *   - strides forced too small set the overflow flag and report the need; a
 *     list created with that capacity is complete;
 *   - device memory: the formula of the header against the buffers, and the
 *     planned figure for 1.1 M atoms of water;
 *   - no validation error.
 * With VKMD_TEST_QUICK=1 (the sanitizer build: the same host code, fewer
 * repeats of it) 100 displacements instead of 1,000 and 2 instead of 20.
 * The trials' own check visits every pair where the box is under 3 cutoffs
 * wide, else the pairs of neighbouring cells of a grid at least a cutoff
 * wide (the same pairs within the cutoff: the counts printed did not change
 * from the all-pairs loop); excluded and listed pairs are bit matrices. The
 * test took 100 s on lavapipe, 87% of it in these host checks. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/pass_neighbor.h"
#include "forces/pass_nonbonded.h"
#include "io/load.h"
#include "ref/ref.h"
#include "vk/barrier.h"
#include "vk/command.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CUTOFF 9.0
#define SKIN   1.0
#define OUTER  3.0

#define EDGE 1e-4 /* A: pairs this close to a threshold are not judged */

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static double rnd(void) /* uniform [0, 1) */
{
    return test_uniform(&rng_state);
}

static void round_to_float(vkmd_system *sys)
{
    for (int i = 0; i < 3 * sys->atom_count; ++i)
        sys->positions[i] = (double)(float)sys->positions[i];
}

/* Squared minimum-image distance, as ref_delta (inlined: the brute-force
 * loops call it 10^8 times). */
static inline double dist2(const vkmd_box *box, const double *x, int32_t i, int32_t j)
{
    double r2 = 0;
    for (int c = 0; c < 3; ++c) {
        double d = x[3 * j + c] - x[3 * i + c];
        d -= box->len[c] * floor(d / box->len[c] + 0.5);
        r2 += d * d;
    }
    return r2;
}

static int pair_cmp(const void *a, const void *b)
{
    const vkmd_pair *p = a, *q = b;
    if (p->i != q->i)
        return p->i < q->i ? -1 : 1;
    return (p->j > q->j) - (p->j < q->j);
}

static int has_pair(const vkmd_pair *sorted, size_t n, int32_t i, int32_t j)
{
    vkmd_pair key = {i, j};
    return bsearch(&key, sorted, n, sizeof key, pair_cmp) != NULL;
}

/* Sorts directed pairs by (i, j) as pair_cmp orders them: two stable
 * counting passes, by j and then by i (the lists hold millions of pairs). */
static void sort_pairs(vkmd_pair *pairs, size_t n, int32_t atoms)
{
    vkmd_pair *tmp = malloc(sizeof *tmp * (n ? n : 1));
    size_t *at = malloc(sizeof *at * ((size_t)atoms + 1));
    for (int pass = 0; pass < 2; ++pass) {
        memset(at, 0, sizeof *at * ((size_t)atoms + 1));
        for (size_t k = 0; k < n; ++k)
            ++at[(pass ? pairs[k].i : pairs[k].j) + 1];
        for (int32_t a = 0; a < atoms; ++a)
            at[a + 1] += at[a];
        for (size_t k = 0; k < n; ++k)
            tmp[at[pass ? pairs[k].i : pairs[k].j]++] = pairs[k];
        memcpy(pairs, tmp, sizeof *pairs * n);
    }
    free(tmp);
    free(at);
}

/* Listed directed pairs as an N x N bit matrix, for the brute-force loops. */
typedef struct pair_bits {
    uint8_t *bits;
    int32_t n;
} pair_bits;

static pair_bits pair_bits_make(const vkmd_pair *pairs, size_t n_pairs, int32_t n)
{
    pair_bits b = {calloc(((size_t)n * n + 7) / 8, 1), n};
    for (size_t k = 0; k < n_pairs; ++k) {
        size_t at = (size_t)pairs[k].i * n + pairs[k].j;
        b.bits[at / 8] |= (uint8_t)(1u << (at % 8));
    }
    return b;
}

static int listed(const pair_bits *b, int32_t i, int32_t j)
{
    size_t at = (size_t)i * b->n + j;
    return (b->bits[at / 8] >> (at % 8)) & 1;
}

/* The system's excluded pairs, both orders, as a bit matrix: the brute-force
 * loops ask for every pair (vkmd_system_is_excluded is a binary search). */
static pair_bits excluded_bits(const vkmd_system *sys)
{
    pair_bits b = pair_bits_make(sys->exclusions, (size_t)sys->exclusion_count, sys->atom_count);
    for (int32_t k = 0; k < sys->exclusion_count; ++k) {
        size_t at = (size_t)sys->exclusions[k].j * b.n + sys->exclusions[k].i;
        b.bits[at / 8] |= (uint8_t)(1u << (at % 8));
    }
    return b;
}

/* A device position buffer with the system's coordinates. */
static void upload_positions(vkmd_vk_context *ctx, const vkmd_system *sys, vkmd_vk_buffer *buf)
{
    const int32_t n = sys->atom_count;
    float *p = calloc(4 * (size_t)n, sizeof(float));
    for (int32_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            p[4 * i + c] = (float)sys->positions[3 * i + c];
    if (!buf->buffer) {
        const vkmd_vk_buffer_desc d = {.size = 16 * (VkDeviceSize)n, .name = "positions"};
        CHECK_OK(vkmd_vk_buffer_create(ctx, &d, buf));
    }
    CHECK_OK(vkmd_vk_buffer_upload(ctx, buf, 0, p, 16 * (VkDeviceSize)n));
    free(p);
}

/* One submission: the list's check (and rebuild and prune if due). */
static void record_once(vkmd_vk_context *ctx, const vkmd_neighbor *nl, int invalidate)
{
    VkCommandBuffer cb;
    CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
    if (invalidate)
        vkmd_neighbor_record_invalidate(nl, cb);
    vkmd_neighbor_record(nl, cb, 0);
    CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
}

static vkmd_neighbor_stats stats_of(vkmd_vk_context *ctx, vkmd_neighbor *nl)
{
    vkmd_neighbor_stats s;
    CHECK_OK(vkmd_neighbor_stats_read(ctx, nl, &s));
    return s;
}

/* Reads a list back as directed pairs, sorted; checks that no pair of atoms
 * appears twice (in either order) and that none is a self or excluded pair. */
static vkmd_pair *read_sorted(vkmd_vk_context *ctx, const vkmd_neighbor *nl, const vkmd_system *sys,
                              int inner, size_t *out_n)
{
    vkmd_pair *pairs = NULL;
    size_t n = 0;
    CHECK_OK(vkmd_neighbor_pairs_read(ctx, nl, inner, &pairs, &n));
    sort_pairs(pairs, n, sys->atom_count);
    size_t dup = 0, both = 0, bad = 0;
    pair_bits bits = pair_bits_make(pairs, n, sys->atom_count), excl = excluded_bits(sys);
    for (size_t k = 0; k < n; ++k) {
        if (k > 0 && !pair_cmp(&pairs[k - 1], &pairs[k]))
            ++dup;
        int32_t i = pairs[k].i, j = pairs[k].j;
        if (i != j && listed(&bits, j, i))
            ++both;
        if (i == j || listed(&excl, i, j))
            ++bad;
    }
    free(bits.bits);
    free(excl.bits);
    printf("  %s list: %zu pairs, %zu duplicates, %zu also listed the other way round, %zu self "
           "or excluded\n",
           inner ? "inner" : "outer", n, dup, both, bad);
    CHECK(dup == 0 && both == 0 && bad == 0);
    *out_n = n;
    return pairs;
}

/* A list against brute force: every pair within `r` listed (in one order);
 * returns the listed pairs farther than r (tile granularity). */
static size_t check_complete(const vkmd_system *sys, const vkmd_pair *pairs, size_t n_pairs,
                             double r, const char *what)
{
    const int32_t n = sys->atom_count;
    pair_bits bits = pair_bits_make(pairs, n_pairs, n), excl = excluded_bits(sys);
    size_t missing = 0, beyond = 0, expected = 0, edge = 0;
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = i + 1; j < n; ++j) {
            if (listed(&excl, i, j))
                continue;
            double d = sqrt(dist2(&sys->box, sys->positions, i, j));
            int in_list = listed(&bits, i, j) || listed(&bits, j, i);
            if (fabs(d - r) < EDGE) {
                ++edge;
                continue;
            }
            if (d < r) {
                ++expected;
                missing += !in_list;
            } else {
                beyond += in_list;
            }
        }
    free(bits.bits);
    free(excl.bits);
    printf("  %s: brute force within %.1f A: %zu pairs, %zu missing; %zu listed pairs beyond "
           "(%zu within %.0e A of the radius not judged)\n",
           what, r, expected, missing, beyond, edge, EDGE);
    CHECK(missing == 0);
    return beyond;
}

/* Squared minimum-image distance of atoms i and j at x (len, inv: the box
 * lengths and their inverses). As dist2, but multiplying by the inverse
 * lengths and taking floor by a truncating cast: the trials below visit
 * 10^8 pairs, and a pair within rounding of the cutoff is well inside the
 * list (its skin). */
static inline double trial_dist2(const double *x, const double *len, const double *inv, int32_t i,
                                 int32_t j)
{
    double r2 = 0;
    for (int c = 0; c < 3; ++c) {
        double d = x[3 * j + c] - x[3 * i + c];
        const double t = d * inv[c] + 0.5;
        long long k = (long long)t;
        k -= t < (double)k;
        d -= len[c] * (double)k;
        r2 += d * d;
    }
    return r2;
}

/* The candidate partners of every atom at x for pairs within `r` under the
 * minimum image: the atoms of its cell and the 26 around it, on a grid of
 * cells at least r wide (positions wrapped into the box to bin them). Each
 * unordered pair comes once (j > i). With fewer than 3 cells along an axis
 * every pair is a candidate. */
typedef struct cell_grid {
    int32_t dims[3], *first, *atoms, *cell_of;
    int all; /* 1: every pair */
} cell_grid;

static cell_grid cell_grid_make(const vkmd_system *sys, const double *x, double r)
{
    cell_grid g = {{1, 1, 1}, NULL, NULL, NULL, 0};
    const int32_t n = sys->atom_count;
    for (int c = 0; c < 3; ++c) {
        g.dims[c] = (int32_t)floor(sys->box.len[c] / r);
        if (g.dims[c] < 3)
            g.all = 1;
    }
    if (g.all)
        return g;
    const int32_t cells = g.dims[0] * g.dims[1] * g.dims[2];
    g.first = calloc((size_t)cells + 1, sizeof *g.first);
    g.atoms = malloc(sizeof *g.atoms * (size_t)n);
    g.cell_of = malloc(sizeof *g.cell_of * (size_t)n);
    for (int32_t i = 0; i < n; ++i) {
        int32_t k[3];
        for (int c = 0; c < 3; ++c) {
            double u = x[3 * i + c] / sys->box.len[c];
            u -= floor(u);
            k[c] = (int32_t)(u * g.dims[c]);
            k[c] = k[c] >= g.dims[c] ? g.dims[c] - 1 : k[c];
        }
        g.cell_of[i] = (k[0] * g.dims[1] + k[1]) * g.dims[2] + k[2];
        ++g.first[g.cell_of[i] + 1];
    }
    for (int32_t c = 0; c < cells; ++c)
        g.first[c + 1] += g.first[c];
    int32_t *fill = malloc(sizeof *fill * (size_t)cells);
    memcpy(fill, g.first, sizeof *fill * (size_t)cells);
    for (int32_t i = 0; i < n; ++i)
        g.atoms[fill[g.cell_of[i]]++] = i;
    free(fill);
    return g;
}

static void cell_grid_free(cell_grid *g)
{
    free(g->first);
    free(g->atoms);
    free(g->cell_of);
}

/* Pairs within the cutoff at `x` missing from the list (excl: the excluded
 * pairs); *out_checked counts the pairs within the cutoff. */
static size_t missing_within_cutoff(const vkmd_system *sys, const double *x, const pair_bits *bits,
                                    const pair_bits *excl, size_t *out_checked)
{
    const int32_t n = sys->atom_count;
    size_t missing = 0;
    const double c2 = CUTOFF * CUTOFF;
    const double len[3] = {sys->box.len[0], sys->box.len[1], sys->box.len[2]};
    const double inv[3] = {1 / len[0], 1 / len[1], 1 / len[2]};
    cell_grid g = cell_grid_make(sys, x, CUTOFF);
    /* Every pair: the distances of a row first, branch-free (the minimum
     * image rounds by adding and subtracting 1.5 2^52, exact for |t| <
     * 2^51), then the row's checks. */
    const double magic = 6755399441055744.0;
    double *xs = NULL, *r2 = NULL;
    if (g.all) {
        xs = malloc(sizeof *xs * 3 * (size_t)n);
        r2 = malloc(sizeof *r2 * (size_t)n);
        for (int32_t j = 0; j < n; ++j)
            for (int c = 0; c < 3; ++c)
                xs[(size_t)c * n + j] = x[3 * j + c];
    }
    for (int32_t i = 0; i < n; ++i) {
        if (g.all) {
            const double *x0 = xs, *x1 = xs + n, *x2 = xs + 2 * (size_t)n;
            for (int32_t j = i + 1; j < n; ++j) {
                double d0 = x0[j] - x0[i], d1 = x1[j] - x1[i], d2 = x2[j] - x2[i];
                d0 -= len[0] * ((d0 * inv[0] + magic) - magic);
                d1 -= len[1] * ((d1 * inv[1] + magic) - magic);
                d2 -= len[2] * ((d2 * inv[2] + magic) - magic);
                r2[j] = d0 * d0 + d1 * d1 + d2 * d2;
            }
            for (int32_t j = i + 1; j < n; ++j) {
                if (r2[j] >= c2 || listed(excl, i, j))
                    continue;
                ++*out_checked;
                missing += !listed(bits, i, j) && !listed(bits, j, i);
            }
            continue;
        }
        const int32_t ci = g.cell_of[i];
        const int32_t k0 = ci / (g.dims[1] * g.dims[2]), k1 = ci / g.dims[2] % g.dims[1],
                      k2 = ci % g.dims[2];
        for (int d0 = -1; d0 <= 1; ++d0)
            for (int d1 = -1; d1 <= 1; ++d1)
                for (int d2 = -1; d2 <= 1; ++d2) {
                    const int32_t c = (((k0 + d0 + g.dims[0]) % g.dims[0]) * g.dims[1] +
                                       (k1 + d1 + g.dims[1]) % g.dims[1]) *
                                          g.dims[2] +
                                      (k2 + d2 + g.dims[2]) % g.dims[2];
                    for (int32_t m = g.first[c]; m < g.first[c + 1]; ++m) {
                        const int32_t j = g.atoms[m];
                        if (j <= i || trial_dist2(x, len, inv, i, j) >= c2 || listed(excl, i, j))
                            continue;
                        ++*out_checked;
                        missing += !listed(bits, i, j) && !listed(bits, j, i);
                    }
                }
    }
    cell_grid_free(&g);
    free(xs);
    free(r2);
    return missing;
}

/* Random displacements of every atom just below `max_a`, mostly near it so
 * that head-on pairs approach by almost the whole skin. */
static void displace(const double *base, int32_t n, double max_a, double *out)
{
    for (int32_t i = 0; i < n; ++i) {
        double v[3], l2;
        do {
            for (int c = 0; c < 3; ++c)
                v[c] = 2 * rnd() - 1;
            l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        } while (l2 > 1 || l2 < 1e-6);
        double len = max_a * (0.95 + 0.049 * rnd()) / sqrt(l2);
        for (int c = 0; c < 3; ++c)
            out[3 * i + c] = (double)(float)(base[3 * i + c] + len * v[c]);
    }
}

/* Displaced configurations below `scale` times a trigger distance (the
 * prune's, or the rebuild's), `batch` per submission; every pair within the
 * cutoff must be in the inner list the device holds after each check (with
 * batch 1 the list is read back after every configuration). */
static void displacement_trials(vkmd_vk_context *ctx, const vkmd_system *sys, vkmd_neighbor *nl,
                                vkmd_vk_buffer *pos, int trials, int batch, int past_prune)
{
    const int32_t n = sys->atom_count;
    vkmd_neighbor_stats s0 = stats_of(ctx, nl);
    size_t n_pairs = 0;
    vkmd_pair *pairs = read_sorted(ctx, nl, sys, 1, &n_pairs);
    pair_bits bits = pair_bits_make(pairs, n_pairs, n), excl = excluded_bits(sys);
    double *x = malloc(sizeof *x * 3 * (size_t)n * (size_t)batch);
    float *xf = malloc(sizeof *xf * 4 * (size_t)n * (size_t)batch);
    vkmd_vk_buffer src = {0};
    const vkmd_vk_buffer_desc sd = {.size = 16 * (VkDeviceSize)n * batch, .name = "trials"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &sd, &src));
    size_t missing = 0, checked = 0;
    double trigger = past_prune ? s0.trigger_a : s0.prune_trigger_a;
    for (int t0 = 0; t0 < trials; t0 += batch) {
        int nb = trials - t0 < batch ? trials - t0 : batch;
        for (int b = 0; b < nb; ++b) {
            displace(sys->positions, n, 0.999 * trigger, &x[3 * (size_t)n * b]);
            for (int32_t i = 0; i < n; ++i) {
                for (int c = 0; c < 3; ++c)
                    xf[4 * ((size_t)n * b + i) + c] = (float)x[3 * ((size_t)n * b + i) + c];
                xf[4 * ((size_t)n * b + i) + 3] = 0;
            }
        }
        CHECK_OK(vkmd_vk_buffer_upload(ctx, &src, 0, xf, 16 * (VkDeviceSize)n * nb));
        VkCommandBuffer cb;
        CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
        for (int b = 0; b < nb; ++b) {
            const VkBufferCopy region = {.srcOffset = 16 * (VkDeviceSize)n * b,
                                         .dstOffset = 0,
                                         .size = 16 * (VkDeviceSize)n};
            vkmd_vk_barrier_compute_to_transfer(cb);
            vkCmdCopyBuffer(cb, src.buffer, pos->buffer, 1, &region);
            vkmd_vk_barrier_transfer_to_compute(cb);
            vkmd_neighbor_record(nl, cb, 0);
        }
        CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
        if (past_prune) { /* the list may have been pruned: read it again */
            free(pairs);
            free(bits.bits);
            pairs = read_sorted(ctx, nl, sys, 1, &n_pairs);
            bits = pair_bits_make(pairs, n_pairs, n);
        }
        for (int b = 0; b < nb; ++b)
            missing += missing_within_cutoff(sys, &x[3 * (size_t)n * b], &bits, &excl, &checked);
    }
    vkmd_neighbor_stats s1 = stats_of(ctx, nl);
    printf("  %d displaced configurations (every atom moved %.3f..%.3f A, %s trigger %.4f A): "
           "%u rebuilds, %u prunes in %u checks; %zu pairs within the cutoff checked, %zu "
           "missing\n",
           trials, 0.95 * 0.999 * trigger, 0.999 * trigger, past_prune ? "rebuild" : "prune",
           trigger, s1.builds - s0.builds, s1.prunes - s0.prunes, s1.checks - s0.checks, checked,
           missing);
    CHECK(s1.builds == s0.builds);
    CHECK(past_prune ? s1.prunes - s0.prunes == (uint32_t)trials : s1.prunes == s0.prunes);
    CHECK(s1.checks - s0.checks == (uint32_t)trials);
    CHECK(missing == 0);
    vkmd_vk_buffer_destroy(ctx, &src);
    free(x);
    free(xf);
    free(pairs);
    free(bits.bits);
    free(excl.bits);
}

/* Absolute LJ and Ewald real-space energies of the pairs within 1e-5 A of
 * the cutoff (float rounding of r^2 may put them on either side). */
static void edge_energies(const vkmd_system *sys, const vkmd_ff_settings *s, double *out_lj,
                          double *out_c)
{
    const double rc = s->cutoff_a, k = vkmd_ff_coulomb_k(s);
    *out_lj = *out_c = 0;
    for (int32_t i = 0; i < sys->atom_count; ++i)
        for (int32_t j = i + 1; j < sys->atom_count; ++j) {
            double r = sqrt(dist2(&sys->box, sys->positions, i, j));
            if (fabs(r - rc) > 1e-5 || vkmd_system_is_excluded(sys, i, j))
                continue;
            const int32_t nt = sys->lj_type_count;
            const int32_t t = sys->atoms[i].lj_type * nt + sys->atoms[j].lj_type;
            double r6 = pow(r, -6.0);
            *out_lj += fabs(sys->lj_a[t] * r6 * r6 - sys->lj_b[t] * r6);
            *out_c += fabs(k * sys->atoms[i].charge * sys->atoms[j].charge *
                           erfc(s->ewald_alpha * r) / r);
        }
}

/* The non-bonded pass on a list built at `sys`'s positions, evaluated at
 * displaced positions (no rebuild), against the reference there. */
static void stale_list_energies(vkmd_vk_context *ctx, vkmd_system *sys, int configs)
{
    const int32_t n = sys->atom_count;
    vkmd_ff_settings s;
    memset(&s, 0, sizeof s);
    CHECK_OK(vkmd_ff_settings_resolve(&s, sys));
    vkmd_vk_buffer pos = {0};
    vkmd_accum acc = {0};
    vkmd_neighbor *nl = NULL;
    vkmd_pass_nonbonded *pass = NULL;
    double *base = malloc(sizeof *base * 3 * (size_t)n);
    double *fg = malloc(sizeof *fg * 3 * (size_t)n), *fr = malloc(sizeof *fr * 3 * (size_t)n);
    memcpy(base, sys->positions, sizeof *base * 3 * (size_t)n);
    upload_positions(ctx, sys, &pos);
    CHECK_OK(vkmd_accum_create(ctx, n, 0, &acc));
    const vkmd_neighbor_desc nd = {
        .positions = &pos, .cutoff_a = s.cutoff_a, .skin_a = SKIN, .outer_skin_a = OUTER};
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    const vkmd_pass_nonbonded_desc pd = {
        .positions = &pos, .accum = &acc, .neighbor = nl, .settings = &s};
    if (nl)
        CHECK_OK(vkmd_pass_nonbonded_create(ctx, sys, &pd, &pass));
    if (pass) {
        record_once(ctx, nl, 0);
        double trigger = stats_of(ctx, nl).prune_trigger_a;
        for (int k = 0; k < configs; ++k) {
            displace(base, n, 0.999 * trigger, sys->positions);
            upload_positions(ctx, sys, &pos);
            VkCommandBuffer cb;
            CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
            vkmd_accum_record_clear(cb, &acc);
            vkmd_neighbor_record(nl, cb, VKMD_NL_RECORD_NO_PRUNE); /* the pair pass prunes */
            vkmd_pass_nonbonded_record(pass, cb, 1);
            CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
            vkmd_energy e = {0};
            CHECK_OK(vkmd_pass_nonbonded_readback(ctx, pass, fg, &e));
            double e_lj = 0, e_c = 0;
            memset(fr, 0, sizeof *fr * 3 * (size_t)n);
            CHECK_OK(ref_nonbonded_pairs(sys, &s, vkmd_ff_coulomb_k(&s), fr, &e_lj, &e_c));
            double rel = rms_rel_error(fg, fr, 3 * n);
            /* Pairs within 1e-5 A of the cutoff may fall either side in
             * float: their energies are allowed on top of the tolerance. */
            double edge_lj = 0, edge_c = 0;
            edge_energies(sys, &s, &edge_lj, &edge_c);
            double lj_rel = fabs(e.lj_pair - e_lj) / fabs(e_lj);
            double c_rel = fabs(e.coulomb_real - e_c) / fabs(e_c);
            printf("  old list at displaced configuration %d: LJ rel %.2g, Coulomb %.6f kcal/mol "
                   "rel %.2g abs %.2g (pairs at the cutoff: %.2g, %.2g kcal/mol), force RMS rel "
                   "%.2g\n",
                   k + 1, lj_rel, e_c, c_rel, fabs(e.coulomb_real - e_c), edge_lj, edge_c, rel);
            CHECK(fabs(e.lj_pair - e_lj) <=
                  fmax(TOL_FP32_ENERGY_REL * fabs(e_lj), TOL_FP32_ENERGY_ABS) + edge_lj);
            CHECK(fabs(e.coulomb_real - e_c) <=
                  fmax(TOL_FP32_ENERGY_REL * fabs(e_c), TOL_FP32_ENERGY_ABS) + edge_c);
            CHECK(rel <= TOL_FP32_FORCE_RMS);
        }
        vkmd_neighbor_stats st = stats_of(ctx, nl);
        printf("  old list: %u build, %u prune in %u checks\n", st.builds, st.prunes, st.checks);
        CHECK(st.builds == 1 && st.prunes == 1);
    }
    memcpy(sys->positions, base, sizeof *base * 3 * (size_t)n);
    free(base);
    free(fg);
    free(fr);
    vkmd_pass_nonbonded_destroy(ctx, pass);
    vkmd_neighbor_destroy(ctx, nl);
    vkmd_accum_destroy(ctx, &acc);
    vkmd_vk_buffer_destroy(ctx, &pos);
}

/* Reads a whole device buffer. */
static void *read_buffer(vkmd_vk_context *ctx, const vkmd_vk_buffer *b)
{
    void *p = malloc(b->size);
    CHECK_OK(vkmd_vk_buffer_readback(ctx, b, 0, p, b->size));
    return p;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;
    return (p > q) - (p < q);
}

/* Tiles per cluster (counts[4 c + k] + counts[4 c + k + 1]): mean and 99th
 * percentile over used clusters. */
static double mean_tiles(const uint32_t *counts, uint32_t clusters, int k, uint32_t *out_used,
                         uint32_t *out_p99)
{
    double sum = 0;
    uint32_t used = 0;
    uint32_t *sorted = malloc(sizeof *sorted * clusters);
    for (uint32_t c = 0; c < clusters; ++c) {
        uint32_t t = counts[4 * c + k] + counts[4 * c + k + 1];
        if (t) {
            sum += t;
            sorted[used++] = t;
        }
    }
    qsort(sorted, used, sizeof *sorted, u32_cmp);
    *out_p99 = used ? sorted[(size_t)(0.99 * (used - 1))] : 0;
    free(sorted);
    *out_used = used;
    return used ? sum / used : 0;
}

/* Build, compare with brute force, build again from scratch and compare
 * bit for bit; then optional displacement trials. */
static void check_system(vkmd_vk_context *ctx, const char *label, vkmd_system *sys,
                         double cell_size_a, int trials, int batch)
{
    const int32_t n = sys->atom_count;
    round_to_float(sys);
    printf("== %s: %d atoms, box %.3f x %.3f x %.3f A, cutoff %g + skin %g + outer skin %g A%s\n",
           label, n, sys->box.len[0], sys->box.len[1], sys->box.len[2], CUTOFF, SKIN, OUTER,
           cell_size_a > 0 ? " (coarse grid)" : "");
    vkmd_vk_buffer pos = {0};
    upload_positions(ctx, sys, &pos);
    const vkmd_neighbor_desc nd = {.positions = &pos,
                                   .cutoff_a = CUTOFF,
                                   .skin_a = SKIN,
                                   .outer_skin_a = OUTER,
                                   .cell_size_a = cell_size_a};
    vkmd_neighbor_plan plan;
    CHECK_OK(vkmd_neighbor_plan_make(sys, &nd, &plan));
    vkmd_neighbor *a = NULL, *b = NULL;
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &a));
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &b));
    if (!a || !b) {
        vkmd_neighbor_destroy(ctx, a);
        vkmd_neighbor_destroy(ctx, b);
        vkmd_vk_buffer_destroy(ctx, &pos);
        return;
    }
    record_once(ctx, a, 0);
    record_once(ctx, b, 0);
    vkmd_neighbor_stats st = stats_of(ctx, a);
    vkmd_neighbor_view va, vb;
    vkmd_neighbor_view_get(a, &va);
    vkmd_neighbor_view_get(b, &vb);
    uint32_t *ca = read_buffer(ctx, va.counts), *cb = read_buffer(ctx, vb.counts);
    uint32_t *ia = read_buffer(ctx, va.inner), *ib = read_buffer(ctx, vb.inner);
    uint32_t *ma = read_buffer(ctx, va.masks), *mb = read_buffer(ctx, vb.masks);
    uint32_t used = 0, p99 = 0, used_i = 0, p99_i = 0;
    double mean = mean_tiles(ca, plan.cluster_capacity, 0, &used, &p99);
    double mean_i = mean_tiles(ca, plan.cluster_capacity, 2, &used_i, &p99_i);
    printf("  grid %u x %u x %u cells, %u clusters used of %u; outer tiles per cluster: mean "
           "%.1f, 99th percentile %u, max %u, capacity %u (estimate of the mean %.1f); inner: "
           "mean %.1f, 99th percentile %u, max %u, capacity %u (estimate %.1f)\n",
           plan.grid[0], plan.grid[1], plan.grid[2], used, plan.cluster_capacity, mean, p99,
           st.max_count, st.capacity, plan.expected_entries, mean_i, p99_i, st.max_inner,
           st.inner_capacity, plan.expected_inner);
    size_t bytes = vkmd_neighbor_memory_bytes(a);
    printf("  device memory %.3f MB (planned %.3f MB)\n", bytes / 1e6, plan.total_bytes / 1e6);
    CHECK(bytes == plan.total_bytes);
    CHECK(st.builds == 1 && st.prunes == 1 && !st.overflow);
    int same = !memcmp(ca, cb, va.counts->size);
    const size_t inner_masks = (size_t)plan.cluster_capacity * plan.max_neighbors;
    for (uint32_t c = 0; same && c < plan.cluster_capacity; ++c)
        for (uint32_t kind = 0; kind < 2 && same; ++kind) {
            const uint32_t cnt = ca[4 * c + 2 + kind], stride = plan.max_inner;
            const size_t first = (size_t)c * stride + (kind ? stride - cnt : 0);
            same = !memcmp(&ia[4 * first], &ib[4 * first], 16 * (size_t)cnt) &&
                   !memcmp(&ma[2 * (inner_masks + first)], &mb[2 * (inner_masks + first)],
                           8 * (size_t)cnt);
        }
    printf("  two builds from scratch bitwise identical (counts, inner tiles and masks): %s\n",
           same ? "yes" : "NO");
    CHECK(same);
    free(ca);
    free(cb);
    free(ia);
    free(ib);
    free(ma);
    free(mb);
    size_t n_outer = 0, n_inner = 0;
    vkmd_pair *outer = read_sorted(ctx, a, sys, 0, &n_outer);
    vkmd_pair *inner = read_sorted(ctx, a, sys, 1, &n_inner);
    check_complete(sys, outer, n_outer, CUTOFF + SKIN + OUTER, "outer");
    check_complete(sys, inner, n_inner, CUTOFF + SKIN, "inner");
    size_t not_outer = 0;
    for (size_t k = 0; k < n_inner; ++k)
        not_outer += !has_pair(outer, n_outer, inner[k].i, inner[k].j);
    size_t within = 0;
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = i + 1; j < n; ++j)
            within += dist2(&sys->box, sys->positions, i, j) < CUTOFF * CUTOFF &&
                      !vkmd_system_is_excluded(sys, i, j);
    printf("  inner pairs not in the outer list: %zu; lane pairs per evaluation %llu = %.2f x "
           "the %zu pairs within the cutoff\n",
           not_outer, (unsigned long long)vkmd_neighbor_lane_pairs(&st),
           within ? (double)vkmd_neighbor_lane_pairs(&st) / (double)within : 0.0, within);
    CHECK(not_outer == 0);
    free(outer);
    free(inner);
    if (trials > 0) {
        displacement_trials(ctx, sys, a, &pos, trials, batch, 0);
        upload_positions(ctx, sys, &pos);
        displacement_trials(ctx, sys, a, &pos, trials < 20 ? trials : 20, 1, 1);
    }
    vkmd_neighbor_destroy(ctx, a);
    vkmd_neighbor_destroy(ctx, b);
    vkmd_vk_buffer_destroy(ctx, &pos);
}

/* Triggers: an atom past half the skin prunes, past half the outer skin
 * rebuilds; a changed box and an explicit invalidation rebuild; small moves
 * and repeated checks do neither. */
static void check_triggers(vkmd_vk_context *ctx, vkmd_system *sys)
{
    printf("== prune and rebuild triggers on water:216\n");
    vkmd_vk_buffer pos = {0};
    upload_positions(ctx, sys, &pos);
    const vkmd_neighbor_desc nd = {
        .positions = &pos, .cutoff_a = CUTOFF, .skin_a = SKIN, .outer_skin_a = OUTER};
    vkmd_neighbor *nl = NULL;
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    if (!nl) {
        vkmd_vk_buffer_destroy(ctx, &pos);
        return;
    }
    record_once(ctx, nl, 0);
    record_once(ctx, nl, 0);
    vkmd_neighbor_stats s = stats_of(ctx, nl);
    printf("  create + 2 checks: %u build, %u prune (first use), triggers %.5f A (prune) and "
           "%.5f A (rebuild)\n",
           s.builds, s.prunes, s.prune_trigger_a, s.trigger_a);
    CHECK(s.builds == 1 && s.prunes == 1 && s.checks == 2);

    double *x0 = malloc(sizeof *x0 * 3 * (size_t)sys->atom_count);
    memcpy(x0, sys->positions, sizeof *x0 * 3 * (size_t)sys->atom_count);
    sys->positions[0] += 0.25 * SKIN; /* a quarter of the skin: nothing */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved 0.25 skin: builds %u, prunes %u, displacement seen %.4f A\n", s.builds,
           s.prunes, s.last_displacement);
    CHECK(s.builds == 1 && s.prunes == 1);
    CHECK(fabs(s.last_displacement - 0.25 * SKIN) < 1e-4);
    sys->positions[0] = x0[0] + 0.51 * SKIN; /* past half the skin: prune */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved 0.51 skin: builds %u, prunes %u\n", s.builds, s.prunes);
    CHECK(s.builds == 1 && s.prunes == 2);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  same positions again: builds %u, prunes %u\n", s.builds, s.prunes);
    CHECK(s.builds == 1 && s.prunes == 2);
    sys->positions[0] = x0[0] + 0.51 * OUTER; /* past half the outer skin: rebuild */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved 0.51 outer skin: builds %u, prunes %u, displacement seen %.4f A\n",
           s.builds, s.prunes, s.last_displacement);
    CHECK(s.builds == 2 && s.prunes == 3);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  same positions again: builds %u, displacement since the build %.4f A\n", s.builds,
           s.last_displacement);
    CHECK(s.builds == 2 && s.prunes == 3 && s.last_displacement == 0.0);
    sys->positions[0] = x0[0] + 0.51 * OUTER - sys->box.len[0]; /* wrapped by an integrator */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved to its periodic image: builds %u, prunes %u, displacement %.4f A "
           "(minimum image)\n",
           s.builds, s.prunes, s.last_displacement);
    CHECK(s.builds == 2 && s.prunes == 3 && s.last_displacement < 1e-5);

    vkmd_box box = sys->box;
    for (int d = 0; d < 3; ++d)
        box.len[d] *= 1.002;
    CHECK_OK(vkmd_neighbor_set_box(nl, &box));
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  box scaled by 1.002: builds %u\n", s.builds);
    CHECK(s.builds == 3);
    record_once(ctx, nl, 1);
    s = stats_of(ctx, nl);
    printf("  explicit invalidation: builds %u; next check: ", s.builds);
    CHECK(s.builds == 4);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("builds %u\n", s.builds);
    CHECK(s.builds == 4);
    box.len[0] = 2 * CUTOFF - 0.1;
    CHECK(vkmd_neighbor_set_box(nl, &box) == VKMD_ERROR_INVALID_ARGUMENT);
    printf("  box edge below 2 cutoffs refused: %s\n", vkmd_last_error());

    memcpy(sys->positions, x0, sizeof *x0 * 3 * (size_t)sys->atom_count);
    free(x0);
    vkmd_neighbor_destroy(ctx, nl);
    vkmd_vk_buffer_destroy(ctx, &pos);
}

/* Strides forced too small (outer, then inner): overflow flag and the need,
 * then a list with that capacity. */
static void check_overflow(vkmd_vk_context *ctx, vkmd_system *sys)
{
    for (int inner = 0; inner < 2; ++inner) {
        printf("== overflow on water:2000 with %s 16\n", inner ? "max_inner" : "max_neighbors");
        vkmd_vk_buffer pos = {0};
        upload_positions(ctx, sys, &pos);
        vkmd_neighbor_desc nd = {.positions = &pos,
                                 .cutoff_a = CUTOFF,
                                 .skin_a = SKIN,
                                 .outer_skin_a = OUTER,
                                 .max_neighbors = inner ? 0 : 16,
                                 .max_inner = inner ? 16 : 0};
        vkmd_neighbor *nl = NULL;
        CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
        if (nl) {
            record_once(ctx, nl, 0);
            vkmd_neighbor_stats s;
            vkmd_result r = vkmd_neighbor_check(ctx, nl, &s);
            printf("  overflow %u, tiles needed %u outer (capacity %u), %u inner (capacity %u); "
                   "check: %s (%s)\n",
                   s.overflow, s.max_count, s.capacity, s.max_inner, s.inner_capacity,
                   vkmd_result_str(r), vkmd_last_error());
            CHECK(s.overflow == 1 && r == VKMD_ERROR_CAPACITY);
            CHECK(inner ? s.max_inner > 16 && s.inner_capacity == 16
                        : s.max_count > 16 && s.capacity == 16);
            nd.max_neighbors = s.max_count > s.capacity ? s.max_count : s.capacity;
            nd.max_inner = inner ? s.max_inner : 0;
            vkmd_neighbor_destroy(ctx, nl);
            nl = NULL;
            CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
        }
        if (nl) {
            record_once(ctx, nl, 0);
            vkmd_neighbor_stats s;
            CHECK_OK(vkmd_neighbor_check(ctx, nl, &s));
            printf("  created again with capacities %u / %u: overflow %u\n", s.capacity,
                   s.inner_capacity, s.overflow);
            CHECK(!s.overflow);
            size_t n_pairs = 0;
            vkmd_pair *pairs = read_sorted(ctx, nl, sys, 1, &n_pairs);
            check_complete(sys, pairs, n_pairs, CUTOFF + SKIN, "inner");
            free(pairs);
        }
        vkmd_neighbor_destroy(ctx, nl);
        vkmd_vk_buffer_destroy(ctx, &pos);
    }
}

/* Uniform random atoms in an elongated box, a third of them shifted by a
 * box edge (unwrapped coordinates), water-like exclusion triples. */
static void make_gas(vkmd_system *sys)
{
    const double len[3] = {19.0, 27.0, 41.0};
    memset(sys, 0, sizeof *sys);
    sys->atom_count = 2997;
    sys->box.periodic = 1;
    memcpy(sys->box.len, len, sizeof len);
    sys->positions = malloc(sizeof(double) * 3 * (size_t)sys->atom_count);
    for (int32_t i = 0; i < sys->atom_count; ++i)
        for (int c = 0; c < 3; ++c)
            sys->positions[3 * i + c] =
                len[c] * rnd() + (i % 3 == 0 ? (c == 1 ? -len[c] : len[c]) : 0.0);
    sys->exclusion_count = sys->atom_count;
    sys->exclusions = malloc(sizeof *sys->exclusions * (size_t)sys->exclusion_count);
    for (int32_t m = 0; m < sys->atom_count / 3; ++m) {
        sys->exclusions[3 * m] = (vkmd_pair){3 * m, 3 * m + 1};
        sys->exclusions[3 * m + 1] = (vkmd_pair){3 * m, 3 * m + 2};
        sys->exclusions[3 * m + 2] = (vkmd_pair){3 * m + 1, 3 * m + 2};
    }
}

/* The planned memory for 1.1 M atoms of water at the density of water:N. */
static void memory_figure(const vkmd_system *water)
{
    vkmd_system big;
    memset(&big, 0, sizeof big);
    big.atom_count = 1100001; /* 366,667 waters */
    big.exclusion_count = big.atom_count;
    double rho = water->atom_count / (water->box.len[0] * water->box.len[1] * water->box.len[2]);
    big.box.periodic = 1;
    for (int d = 0; d < 3; ++d)
        big.box.len[d] = cbrt(big.atom_count / rho);
    const vkmd_neighbor_desc nd = {.cutoff_a = CUTOFF, .skin_a = SKIN, .outer_skin_a = OUTER};
    vkmd_neighbor_plan p;
    CHECK_OK(vkmd_neighbor_plan_make(&big, &nd, &p));
    printf("== planned memory for %d atoms of water (box %.1f A, cutoff %g, skin %g, outer skin "
           "%g): grid %u x %u x %u, %u clusters x %u outer / %u inner tiles: outer tiles %.1f MB, "
           "total %.1f MB\n",
           big.atom_count, big.box.len[0], CUTOFF, SKIN, OUTER, p.grid[0], p.grid[1], p.grid[2],
           p.cluster_capacity, p.max_neighbors, p.max_inner, p.list_bytes / 1e6,
           p.total_bytes / 1e6);
    CHECK(p.total_bytes < 2000000000u);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_neighbor", &ctx);
    if (early >= 0)
        return early;

    vkmd_system w216 = {0}, w2000 = {0}, gas;
    CHECK_OK(vkmd_system_load("water:216", NULL, &w216));
    CHECK_OK(vkmd_system_load("water:2000", NULL, &w2000));
    const char *q = getenv("VKMD_TEST_QUICK");
    const int quick = q && *q && strcmp(q, "0") != 0, few = quick ? 2 : 20;
    if (w216.positions && w2000.positions) {
        check_system(ctx, "water:216", &w216, 0, quick ? 100 : 1000, 100);
        check_system(ctx, "water:216", &w216, 10.0, 0, 0);
        check_system(ctx, "water:216", &w216, 20.0, 0, 0);
        printf("== water:216, non-bonded pass on the list of the undisplaced configuration\n");
        stale_list_energies(ctx, &w216, 3);
        check_triggers(ctx, &w216);
        check_system(ctx, "water:2000", &w2000, 0, few, few);
        check_overflow(ctx, &w2000);
        memory_figure(&w2000);
    }
    make_gas(&gas);
    check_system(ctx, "random gas, unwrapped coordinates", &gas, 0, few, few);
    vkmd_system_destroy(&gas);
    vkmd_system_destroy(&w216);
    vkmd_system_destroy(&w2000);

    uint32_t errors = vkmd_vk_context_validation_errors(ctx);
    printf("validation errors: %u (warnings %u)\n", errors,
           vkmd_vk_context_validation_warnings(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_neighbor");
}
