/* Device neighbour list (engine/forces/neighbor.c, shaders/nl_*.comp):
 *   - after a build the list holds exactly the non-excluded pairs within the
 *     list radius (cutoff + skin) under the minimum image, each once from
 *     each side, no self or excluded pair (brute force, positions rounded to
 *     float; pairs within 1e-4 A of the radius are not judged): water:216
 *     (18.6 A box, list radius above half the box), the same with a coarse
 *     grid of 1-3 cells per dimension, water:2000, and a random gas in a
 *     19 x 27 x 41 A box with coordinates outside the box;
 *   - two builds from scratch give the same list, bit for bit;
 *   - 1,000 random displacements below half the skin (batched, 100 per
 *     submission): no rebuild on the device and no pair within the cutoff
 *     missing from the list; the non-bonded pass on the old list agrees with
 *     the reference at three of the displaced configurations;
 *   - one atom moved past half the skin, a changed box and an explicit
 *     invalidation each trigger exactly one rebuild;
 *   - a capacity forced too small sets the overflow flag and reports the
 *     need; a list created with that capacity is complete;
 *   - device memory: the formula of the header against the buffers, and the
 *     planned figure for 1.1 M atoms of water;
 *   - no validation error. */
#include "testlib.h"
#include "tolerance.h"
#include "forces/neighbor.h"
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
#define EDGE   1e-4 /* A: pairs this close to a threshold are not judged */

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

/* One submission: the list's check (and rebuild if due). */
static void record_once(vkmd_vk_context *ctx, const vkmd_neighbor *nl, int invalidate)
{
    VkCommandBuffer cb;
    CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
    if (invalidate)
        vkmd_neighbor_record_invalidate(nl, cb);
    vkmd_neighbor_record(nl, cb);
    CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
}

static vkmd_neighbor_stats stats_of(vkmd_vk_context *ctx, const vkmd_neighbor *nl)
{
    vkmd_neighbor_stats s;
    CHECK_OK(vkmd_neighbor_stats_read(ctx, nl, &s));
    return s;
}

/* Reads the list back sorted; checks no duplicates, symmetry, no self or
 * excluded pair. */
static vkmd_pair *read_sorted(vkmd_vk_context *ctx, const vkmd_neighbor *nl, const vkmd_system *sys,
                              size_t *out_n)
{
    vkmd_pair *pairs = NULL;
    size_t n = 0;
    CHECK_OK(vkmd_neighbor_pairs_read(ctx, nl, &pairs, &n));
    qsort(pairs, n, sizeof *pairs, pair_cmp);
    size_t dup = 0, asym = 0, bad = 0;
    for (size_t k = 0; k < n; ++k) {
        if (k > 0 && !pair_cmp(&pairs[k - 1], &pairs[k]))
            ++dup;
        if (!has_pair(pairs, n, pairs[k].j, pairs[k].i))
            ++asym;
        int32_t i = pairs[k].i, j = pairs[k].j;
        if (i == j || vkmd_system_is_excluded(sys, i < j ? i : j, i < j ? j : i))
            ++bad;
    }
    printf("  list: %zu directed pairs, %zu duplicates, %zu without their mirror, %zu self or "
           "excluded\n",
           n, dup, asym, bad);
    CHECK(dup == 0 && asym == 0 && bad == 0);
    *out_n = n;
    return pairs;
}

/* The list (built at the current positions) against brute force within
 * the list radius. */
static void check_exact(const vkmd_system *sys, const vkmd_pair *pairs, size_t n_pairs)
{
    const double r = CUTOFF + SKIN;
    const int32_t n = sys->atom_count;
    pair_bits bits = pair_bits_make(pairs, n_pairs, n);
    size_t missing = 0, extra = 0, expected = 0, edge = 0;
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = 0; j < n; ++j) {
            if (i == j || vkmd_system_is_excluded(sys, i < j ? i : j, i < j ? j : i))
                continue;
            double d = sqrt(dist2(&sys->box, sys->positions, i, j));
            if (fabs(d - r) < EDGE) {
                ++edge;
                continue;
            }
            int in_list = listed(&bits, i, j);
            if (d < r) {
                ++expected;
                missing += !in_list;
            } else {
                extra += in_list;
            }
        }
    free(bits.bits);
    printf("  brute force within %.1f A: %zu directed pairs, %zu missing, %zu extra (%zu within "
           "%.0e A of the radius not judged)\n",
           r, expected, missing, extra, edge, EDGE);
    CHECK(missing == 0 && extra == 0);
}

/* Pairs within the cutoff at `x` missing from the list. */
static size_t missing_within_cutoff(const vkmd_system *sys, const double *x, const pair_bits *bits,
                                    size_t *out_checked)
{
    const int32_t n = sys->atom_count;
    size_t missing = 0;
    const double c2 = CUTOFF * CUTOFF;
    for (int32_t i = 0; i < n; ++i)
        for (int32_t j = i + 1; j < n; ++j) {
            if (dist2(&sys->box, x, i, j) >= c2 || vkmd_system_is_excluded(sys, i, j))
                continue;
            ++*out_checked;
            missing += !listed(bits, i, j) + !listed(bits, j, i);
        }
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

/* 1,000 displaced configurations below the trigger distance, batched. */
static void displacement_trials(vkmd_vk_context *ctx, const vkmd_system *sys, vkmd_neighbor *nl,
                                vkmd_vk_buffer *pos, int trials, int batch)
{
    const int32_t n = sys->atom_count;
    vkmd_neighbor_stats s0 = stats_of(ctx, nl);
    size_t n_pairs = 0;
    vkmd_pair *pairs = read_sorted(ctx, nl, sys, &n_pairs);
    pair_bits bits = pair_bits_make(pairs, n_pairs, n);
    double *x = malloc(sizeof *x * 3 * (size_t)n * (size_t)batch);
    float *xf = malloc(sizeof *xf * 4 * (size_t)n * (size_t)batch);
    vkmd_vk_buffer src = {0};
    const vkmd_vk_buffer_desc sd = {.size = 16 * (VkDeviceSize)n * batch, .name = "trials"};
    CHECK_OK(vkmd_vk_buffer_create(ctx, &sd, &src));
    size_t missing = 0, checked = 0;
    double trigger = s0.trigger_a;
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
            vkmd_neighbor_record(nl, cb);
        }
        CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
        for (int b = 0; b < nb; ++b)
            missing += missing_within_cutoff(sys, &x[3 * (size_t)n * b], &bits, &checked);
    }
    vkmd_neighbor_stats s1 = stats_of(ctx, nl);
    printf("  %d displaced configurations (every atom moved %.3f..%.3f A, trigger %.4f A): "
           "%u rebuilds in %u checks; %zu pairs within the cutoff checked, %zu missing\n",
           trials, 0.95 * 0.999 * trigger, 0.999 * trigger, trigger, s1.builds - s0.builds,
           s1.checks - s0.checks, checked, missing);
    CHECK(s1.builds == s0.builds);
    CHECK(s1.checks - s0.checks == (uint32_t)trials);
    CHECK(missing == 0);
    vkmd_vk_buffer_destroy(ctx, &src);
    free(x);
    free(xf);
    free(pairs);
    free(bits.bits);
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
    const vkmd_neighbor_desc nd = {.positions = &pos, .cutoff_a = s.cutoff_a};
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    const vkmd_pass_nonbonded_desc pd = {
        .positions = &pos, .accum = &acc, .neighbor = nl, .settings = &s};
    if (nl)
        CHECK_OK(vkmd_pass_nonbonded_create(ctx, sys, &pd, &pass));
    if (pass) {
        record_once(ctx, nl, 0);
        double trigger = stats_of(ctx, nl).trigger_a;
        for (int k = 0; k < configs; ++k) {
            displace(base, n, 0.999 * trigger, sys->positions);
            upload_positions(ctx, sys, &pos);
            VkCommandBuffer cb;
            CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
            vkmd_accum_record_clear(cb, &acc);
            vkmd_neighbor_record(nl, cb);
            vkmd_pass_nonbonded_record(pass, cb);
            CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
            vkmd_energy e = {0};
            CHECK_OK(vkmd_pass_nonbonded_readback(ctx, pass, fg, &e));
            double e_lj = 0, e_c = 0;
            memset(fr, 0, sizeof *fr * 3 * (size_t)n);
            CHECK_OK(ref_nonbonded_pairs(sys, &s, vkmd_ff_coulomb_k(&s), fr, &e_lj, &e_c));
            double rel = rms_rel_error(fg, fr, 3 * n);
            double lj_rel = fabs(e.lj_pair - e_lj) / fabs(e_lj);
            double c_rel = fabs(e.coulomb_real - e_c) / fabs(e_c);
            printf("  old list at displaced configuration %d: LJ rel %.2g, Coulomb rel %.2g, "
                   "force RMS rel %.2g\n",
                   k + 1, lj_rel, c_rel, rel);
            CHECK(lj_rel <= TOL_FP32_ENERGY_REL && c_rel <= TOL_FP32_ENERGY_REL);
            CHECK(rel <= TOL_FP32_FORCE_RMS);
        }
        vkmd_neighbor_stats st = stats_of(ctx, nl);
        printf("  old list: %u build in %u checks\n", st.builds, st.checks);
        CHECK(st.builds == 1);
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

/* Reads the raw list arrays (counts and entries) for the bitwise
 * comparison of two builds. */
static void read_raw(vkmd_vk_context *ctx, const vkmd_neighbor *nl, uint32_t **out_list,
                     uint32_t **out_counts)
{
    vkmd_neighbor_view v;
    vkmd_neighbor_view_get(nl, &v);
    *out_list = malloc(v.list->size);
    *out_counts = malloc(v.counts->size);
    CHECK_OK(vkmd_vk_buffer_readback(ctx, v.list, 0, *out_list, v.list->size));
    CHECK_OK(vkmd_vk_buffer_readback(ctx, v.counts, 0, *out_counts, v.counts->size));
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;
    return (p > q) - (p < q);
}

/* Entries used per cluster: mean and 99th percentile over used clusters. */
static double mean_entries(const uint32_t *counts, uint32_t clusters, uint32_t *out_used,
                           uint32_t *out_p99)
{
    double sum = 0;
    uint32_t used = 0;
    uint32_t *sorted = malloc(sizeof *sorted * clusters);
    for (uint32_t c = 0; c < clusters; ++c)
        if (counts[c]) {
            sum += counts[c];
            sorted[used++] = counts[c];
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
    printf("== %s: %d atoms, box %.3f x %.3f x %.3f A, cutoff %g + skin %g A%s\n", label, n,
           sys->box.len[0], sys->box.len[1], sys->box.len[2], CUTOFF, SKIN,
           cell_size_a > 0 ? " (coarse grid)" : "");
    vkmd_vk_buffer pos = {0};
    upload_positions(ctx, sys, &pos);
    const vkmd_neighbor_desc nd = {
        .positions = &pos, .cutoff_a = CUTOFF, .skin_a = SKIN, .cell_size_a = cell_size_a};
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
    uint32_t *la, *ca, *lb, *cb;
    read_raw(ctx, a, &la, &ca);
    read_raw(ctx, b, &lb, &cb);
    uint32_t used = 0, p99 = 0;
    double mean = mean_entries(ca, plan.cluster_capacity, &used, &p99);
    printf("  grid %u x %u x %u cells, %u clusters used of %u, entries per cluster: mean %.0f, "
           "99th percentile %u, max %u, capacity %u (estimate of the mean %.0f)\n",
           plan.grid[0], plan.grid[1], plan.grid[2], used, plan.cluster_capacity, mean, p99,
           st.max_count, st.capacity, plan.expected_entries);
    size_t bytes = vkmd_neighbor_memory_bytes(a);
    printf("  device memory %.3f MB (planned %.3f MB)\n", bytes / 1e6, plan.total_bytes / 1e6);
    CHECK(bytes == plan.total_bytes);
    CHECK(st.builds == 1 && !st.overflow);
    int same = !memcmp(ca, cb, 4 * (size_t)plan.cluster_capacity);
    for (uint32_t c = 0; same && c < plan.cluster_capacity; ++c)
        same = !memcmp(&la[(size_t)c * plan.max_neighbors], &lb[(size_t)c * plan.max_neighbors],
                       4 * (size_t)ca[c]);
    printf("  two builds from scratch bitwise identical (counts and used entries): %s\n",
           same ? "yes" : "NO");
    CHECK(same);
    free(la);
    free(ca);
    free(lb);
    free(cb);
    size_t n_pairs = 0;
    vkmd_pair *pairs = read_sorted(ctx, a, sys, &n_pairs);
    check_exact(sys, pairs, n_pairs);
    free(pairs);
    if (trials > 0)
        displacement_trials(ctx, sys, a, &pos, trials, batch);
    vkmd_neighbor_destroy(ctx, a);
    vkmd_neighbor_destroy(ctx, b);
    vkmd_vk_buffer_destroy(ctx, &pos);
}

/* Rebuild triggers: an atom past half the skin, a changed box, an explicit
 * invalidation; small moves and repeated checks do not rebuild. */
static void check_triggers(vkmd_vk_context *ctx, vkmd_system *sys)
{
    printf("== rebuild triggers on water:216\n");
    vkmd_vk_buffer pos = {0};
    upload_positions(ctx, sys, &pos);
    const vkmd_neighbor_desc nd = {.positions = &pos, .cutoff_a = CUTOFF};
    vkmd_neighbor *nl = NULL;
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    if (!nl) {
        vkmd_vk_buffer_destroy(ctx, &pos);
        return;
    }
    record_once(ctx, nl, 0);
    record_once(ctx, nl, 0);
    vkmd_neighbor_stats s = stats_of(ctx, nl);
    printf("  create + 2 checks: %u build (first use), skin %.2f A, trigger %.5f A\n", s.builds,
           SKIN, s.trigger_a);
    CHECK(s.builds == 1 && s.checks == 2);

    double *x0 = malloc(sizeof *x0 * 3 * (size_t)sys->atom_count);
    memcpy(x0, sys->positions, sizeof *x0 * 3 * (size_t)sys->atom_count);
    sys->positions[0] += 0.25 * SKIN; /* a quarter of the skin: no rebuild */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved 0.25 skin: builds %u, displacement seen %.4f A\n", s.builds,
           s.last_displacement);
    CHECK(s.builds == 1);
    CHECK(fabs(s.last_displacement - 0.25 * SKIN) < 1e-4);
    sys->positions[0] = x0[0] + 0.51 * SKIN; /* past half the skin: rebuild */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved 0.51 skin: builds %u, displacement seen %.4f A\n", s.builds,
           s.last_displacement);
    CHECK(s.builds == 2);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  same positions again: builds %u, displacement since the build %.4f A\n", s.builds,
           s.last_displacement);
    CHECK(s.builds == 2 && s.last_displacement == 0.0);
    sys->positions[0] = x0[0] + 0.51 * SKIN - sys->box.len[0]; /* wrapped by an integrator */
    upload_positions(ctx, sys, &pos);
    record_once(ctx, nl, 0);
    s = stats_of(ctx, nl);
    printf("  atom 0 moved to its periodic image: builds %u, displacement %.4f A (minimum "
           "image)\n",
           s.builds, s.last_displacement);
    CHECK(s.builds == 2 && s.last_displacement < 1e-5);

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

/* A capacity forced too small: overflow flag and the need, then a list with
 * that capacity. */
static void check_overflow(vkmd_vk_context *ctx, vkmd_system *sys)
{
    printf("== overflow on water:2000 with max_neighbors 64\n");
    vkmd_vk_buffer pos = {0};
    upload_positions(ctx, sys, &pos);
    vkmd_neighbor_desc nd = {.positions = &pos, .cutoff_a = CUTOFF, .max_neighbors = 64};
    vkmd_neighbor *nl = NULL;
    CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    if (nl) {
        record_once(ctx, nl, 0);
        vkmd_neighbor_stats s;
        vkmd_result r = vkmd_neighbor_check(ctx, nl, &s);
        printf("  overflow %u, entries needed %u, capacity %u; check: %s (%s)\n", s.overflow,
               s.max_count, s.capacity, vkmd_result_str(r), vkmd_last_error());
        CHECK(s.overflow == 1 && s.max_count > 64 && s.capacity == 64);
        CHECK(r == VKMD_ERROR_CAPACITY);
        nd.max_neighbors = s.max_count;
        vkmd_neighbor_destroy(ctx, nl);
        nl = NULL;
        CHECK_OK(vkmd_neighbor_create(ctx, sys, &nd, &nl));
    }
    if (nl) {
        record_once(ctx, nl, 0);
        vkmd_neighbor_stats s;
        CHECK_OK(vkmd_neighbor_check(ctx, nl, &s));
        printf("  created again with capacity %u: overflow %u\n", s.capacity, s.overflow);
        CHECK(!s.overflow);
        size_t n_pairs = 0;
        vkmd_pair *pairs = read_sorted(ctx, nl, sys, &n_pairs);
        check_exact(sys, pairs, n_pairs);
        free(pairs);
    }
    vkmd_neighbor_destroy(ctx, nl);
    vkmd_vk_buffer_destroy(ctx, &pos);
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
    const vkmd_neighbor_desc nd = {.cutoff_a = CUTOFF, .skin_a = SKIN};
    vkmd_neighbor_plan p;
    CHECK_OK(vkmd_neighbor_plan_make(&big, &nd, &p));
    printf("== planned memory for %d atoms of water (box %.1f A, cutoff %g, skin %g): grid %u x "
           "%u x %u, %u clusters x %u entries: list %.1f MB, total %.1f MB\n",
           big.atom_count, big.box.len[0], CUTOFF, SKIN, p.grid[0], p.grid[1], p.grid[2],
           p.cluster_capacity, p.max_neighbors, p.list_bytes / 1e6, p.total_bytes / 1e6);
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
    if (w216.positions && w2000.positions) {
        check_system(ctx, "water:216", &w216, 0, 1000, 100);
        check_system(ctx, "water:216", &w216, 10.0, 0, 0);
        check_system(ctx, "water:216", &w216, 20.0, 0, 0);
        printf("== water:216, non-bonded pass on the list of the undisplaced configuration\n");
        stale_list_energies(ctx, &w216, 3);
        check_triggers(ctx, &w216);
        check_system(ctx, "water:2000", &w2000, 0, 20, 20);
        check_overflow(ctx, &w2000);
        memory_figure(&w2000);
    }
    make_gas(&gas);
    check_system(ctx, "random gas, unwrapped coordinates", &gas, 0, 20, 20);
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
