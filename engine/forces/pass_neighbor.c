/* Device-side neighbour list (see pass_neighbor.h and shaders/nl_*.comp).
 *
 * The host only plans sizes, uploads the exclusions and the Hilbert rank of
 * every row, and records; all decisions about rebuilding are taken on the
 * device. Ten pipelines share one binding layout (VKMD_NL_BINDING_*) and
 * one push-constant block, so one vkmd_nl_push describes every dispatch. */
#include "forces/pass_neighbor.h"
#include "core/log.h"
#include "forces/positions.h"
#include "forces/tile.h"
#include "vk/stats.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    PIPE_CHECK,
    PIPE_CHECK_GATHER,
    PIPE_BIN,
    PIPE_ROWS,
    PIPE_ROWSCAN,
    PIPE_SCATTER,
    PIPE_CELLS,
    PIPE_CLUSTERS,
    PIPE_BUILD,
    PIPE_GATHER,
    PIPE_PRUNE,
    PIPE_COUNT
};

struct vkmd_neighbor {
    vkmd_neighbor_plan plan;
    vkmd_vk_pipeline pipes[PIPE_COUNT];
    vkmd_vk_descset sets[PIPE_COUNT];
    vkmd_vk_buffer state, args, saved, atom_key, cells, rows, order, slot_of, rel, cluster, excl,
        outer, inner, masks, counts, excl_tiles, gate;
    const vkmd_vk_buffer *positions;
    vkmd_nl_push push;
    uint32_t check_groups, gather_groups;
    double cutoff_a, skin_a, outer_skin_a;
    int32_t atom_count;
    int32_t triclinic; /* the pipelines' TRICLINIC (fixed at create) */
    /* The state as last read back, and the queue's submit count just after:
     * while no submit came since, the device copy is the same and a second
     * read (the next batch's rebuild decision after the last batch's check)
     * costs no readback. Host writes to the state clear `cache_valid`. */
    vkmd_nl_state cache;
    uint64_t cache_submits;
    int cache_valid;
};

static const uint32_t C = VKMD_NL_CLUSTER_SIZE;

static uint32_t round_up(uint32_t n, uint32_t m)
{
    return (n + m - 1) / m * m;
}

/* Unit in the last place of float x (x > 0), as a double. */
static double float_ulp(double x)
{
    int e;
    frexp(x, &e); /* x = f 2^e, f in [0.5, 1) */
    return ldexp(1.0, e - 24);
}

static vkmd_result check_box(const vkmd_box *box, double cutoff_a)
{
    if (!box->periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "neighbour list: the system has no periodic box (vacuum systems need "
                         "no list)");
    if (box->triclinic) {
        const double w = vkmd_box_min_width(box);
        if (!(w >= 2.0 * cutoff_a))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "neighbour list: the triclinic cell's smallest width %g A is below "
                             "2 x cutoff %g A (minimum image)",
                             w, cutoff_a);
        return VKMD_OK;
    }
    for (int d = 0; d < 3; ++d)
        if (!(box->len[d] >= 2.0 * cutoff_a))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "neighbour list: box edge %c = %g A is below 2 x cutoff %g A "
                             "(minimum image)",
                             "xyz"[d], box -> len[d], cutoff_a);
    return VKMD_OK;
}

/* Mean tiles per cluster of a half list of radius r: cluster centres in the
 * Minkowski sum of a box of edges s (the two clusters' extents added) and a
 * ball of radius r (Steiner's formula), halved, plus the diagonal tile. The
 * extents are 0.8 of the cell edge per cluster: measured in water, 3.6 x
 * 3.3 x 3.3 A at a 4.3 A edge (x up to 7 A). The half list splits each
 * cluster's tiles by index parity, so the spread about the mean is small. */
static double tiles_per_cluster(double rho_clusters, const double s[3], double r)
{
    const double v = s[0] * s[1] * s[2] + 2.0 * r * (s[0] * s[1] + s[1] * s[2] + s[2] * s[0]) +
                     M_PI * r * r * (s[0] + s[1] + s[2]) + 4.0 / 3.0 * M_PI * r * r * r;
    return 0.5 * rho_clusters * v + 0.5;
}

vkmd_result vkmd_neighbor_plan_make(const vkmd_system *sys, const vkmd_neighbor_desc *desc,
                                    vkmd_neighbor_plan *out)
{
    memset(out, 0, sizeof *out);
    const double cutoff = desc->cutoff_a;
    const double skin = desc->skin_a > 0 ? desc->skin_a : VKMD_NEIGHBOR_SKIN_A;
    const double outer_skin =
        desc->outer_skin_a > 0 ? desc->outer_skin_a : VKMD_NEIGHBOR_OUTER_SKIN_A;
    if (!(cutoff > 0) || !(desc->skin_a >= 0) || !(desc->outer_skin_a >= 0) || !isfinite(cutoff) ||
        !isfinite(skin) || !isfinite(outer_skin))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "neighbour list: cutoff %g A, skin %g A and outer skin %g A must be "
                         "positive",
                         cutoff, desc->skin_a, desc->outer_skin_a);
    vkmd_result res = check_box(&sys->box, cutoff);
    if (res != VKMD_OK)
        return res;
    const double n_atoms = sys->atom_count;
    if (sys->atom_count <= 0 || sys->atom_count > (int32_t)(VKMD_NL_MAX_SLOTS / 2))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "neighbour list: %d atoms (1 .. %u supported)", sys->atom_count,
                         VKMD_NL_MAX_SLOTS / 2);
    /* The grid covers the brick [0, ax) x [0, by) x [0, cz) atoms are
     * binned in (the edges themselves for a rectangular box). */
    const double brick[3] = {sys->box.triclinic ? sys->box.vec[0][0] : sys->box.len[0],
                             sys->box.triclinic ? sys->box.vec[1][1] : sys->box.len[1],
                             sys->box.triclinic ? sys->box.vec[2][2] : sys->box.len[2]};
    const double *len = brick;
    const double volume = len[0] * len[1] * len[2];
    const double rho = n_atoms / volume;

    /* Rows about one cluster's cube thick; x cells a quarter of that, so a
     * cluster's x extent is close to its atoms' extent. */
    double edge = desc->cell_size_a > 0 ? desc->cell_size_a : cbrt(C / rho);
    uint32_t n[3];
    for (;;) {
        n[0] = (uint32_t)fmax(1.0, fmin(65536.0, floor(len[0] / (0.25 * edge))));
        n[1] = (uint32_t)fmax(1.0, fmin(4096.0, floor(len[1] / edge)));
        n[2] = (uint32_t)fmax(1.0, fmin(4096.0, floor(len[2] / edge)));
        if ((double)n[0] * n[1] * n[2] <= (double)(1u << 23) && n[1] * n[2] <= 1000000u)
            break;
        edge *= 1.25; /* sparse system in a huge box: coarser grid */
    }
    const uint32_t rows = n[1] * n[2];
    if ((double)sys->atom_count + (C - 1.0) * rows > (double)VKMD_NL_MAX_SLOTS - C)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "neighbour list: %d atoms and %u rows of padding exceed the %u slots a "
                         "list entry can name",
                         sys->atom_count, rows, VKMD_NL_MAX_SLOTS);
    out->grid[0] = n[0];
    out->grid[1] = n[1];
    out->grid[2] = n[2];
    out->cell_count = n[0] * n[1] * n[2];
    out->slot_capacity = round_up((uint32_t)sys->atom_count + (C - 1) * rows, C);
    out->cluster_capacity = out->slot_capacity / C;
    out->list_radius_a = cutoff + skin;
    out->outer_radius_a = cutoff + skin + outer_skin;

    /* Strides: VKMD_NEIGHBOR_MARGIN over the estimated means (clusters of a
     * sparse row are larger but have fewer neighbours), at least 8. */
    const double rho_c = n_atoms / C / volume;
    const double sy = len[1] / n[1], sz = len[2] / n[2];
    const double sx = fmin(len[0], C / (rho * sy * sz));
    const double s2[3] = {1.6 * sx, 1.6 * sy, 1.6 * sz};
    const double clusters_used = fmax(1.0, ceil(n_atoms / C));
    out->expected_entries = tiles_per_cluster(rho_c, s2, out->outer_radius_a);
    out->expected_inner = tiles_per_cluster(rho_c, s2, out->list_radius_a);
    double m = desc->max_neighbors
                   ? (double)desc->max_neighbors
                   : ceil(VKMD_NEIGHBOR_MARGIN * out->expected_entries / 8.0) * 8.0 + 8.0;
    double mi = desc->max_inner
                    ? (double)desc->max_inner
                    : ceil(VKMD_NEIGHBOR_MARGIN * out->expected_inner / 8.0) * 8.0 + 8.0;
    m = fmin(m, clusters_used + 8.0);
    mi = fmin(mi, m);
    out->max_neighbors = (uint32_t)fmax(8.0, m);
    out->max_inner = (uint32_t)fmax(8.0, mi);

    const double k = out->cluster_capacity;
    const double list_bytes = 16.0 * k * (double)out->max_neighbors;
    if (list_bytes > 4294967295.0)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "neighbour list: %.0f bytes of tiles (%u clusters x %u) exceed what one "
                         "storage buffer can address",
                         list_bytes, out->cluster_capacity, out->max_neighbors);
    out->list_bytes = (size_t)list_bytes;
    const size_t strides = (size_t)out->max_neighbors + out->max_inner;
    out->total_bytes = 24 * (size_t)out->cluster_capacity * strides +
                       (64 + 16 * VKMD_NL_EXCL_TILES) * (size_t)out->cluster_capacity +
                       36 * (size_t)out->slot_capacity + 64 * (size_t)sys->atom_count + 4 +
                       8 * (size_t)sys->exclusion_count + 8 * (size_t)out->cell_count +
                       12 * (size_t)rows + sizeof(vkmd_nl_state) +
                       16 * (VKMD_NL_DISPATCH_COUNT + 1) + 4 * VKMD_NL_GATE_WORDS;
    return VKMD_OK;
}

vkmd_result vkmd_neighbor_exclusions_csr(const vkmd_system *sys, uint32_t **out_data,
                                         size_t *out_count)
{
    *out_data = NULL;
    *out_count = 0;
    const size_t n = (size_t)sys->atom_count;
    const size_t words = n + 1 + 2 * (size_t)sys->exclusion_count;
    uint32_t *data = calloc(words, sizeof *data);
    uint32_t *fill = calloc(n + 1, sizeof *fill);
    if (!data || !fill) {
        free(data);
        free(fill);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "exclusion lists (%zu words)", words);
    }
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        int32_t i = sys->exclusions[e].i, j = sys->exclusions[e].j;
        if (i < 0 || j < 0 || i >= sys->atom_count || j >= sys->atom_count || i == j) {
            free(data);
            free(fill);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "exclusion %d (%d, %d) names an atom outside 0..%d or itself", e, i, j,
                             sys->atom_count - 1);
        }
        ++data[i + 1];
        ++data[j + 1];
    }
    for (size_t a = 0; a < n; ++a)
        data[a + 1] += data[a];
    uint32_t *list = data + n + 1;
    for (int32_t e = 0; e < sys->exclusion_count; ++e) {
        int32_t i = sys->exclusions[e].i, j = sys->exclusions[e].j;
        list[data[i] + fill[i]++] = (uint32_t)j;
        list[data[j] + fill[j]++] = (uint32_t)i;
    }
    for (size_t a = 0; a < n; ++a) /* ascending partners (insertion sort; lists are short) */
        for (uint32_t p = data[a] + 1; p < data[a + 1]; ++p) {
            uint32_t v = list[p], q = p;
            for (; q > data[a] && list[q - 1] > v; --q)
                list[q] = list[q - 1];
            list[q] = v;
        }
    free(fill);
    *out_data = data;
    *out_count = words;
    return VKMD_OK;
}

/* Index of (x, y) along a Hilbert curve filling a side x side square (side a
 * power of two). */
static uint64_t hilbert_index(uint32_t side, uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    for (uint32_t s = side / 2; s > 0; s /= 2) {
        uint32_t rx = (x & s) ? 1u : 0u, ry = (y & s) ? 1u : 0u;
        d += (uint64_t)s * s * ((3u * rx) ^ ry);
        if (ry == 0) { /* rotate the quadrant so the curve stays continuous */
            if (rx == 1) {
                x = side - 1 - x;
                y = side - 1 - y;
            }
            uint32_t t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

typedef struct row_key {
    uint64_t d;
    uint32_t row;
} row_key;

static int row_key_cmp(const void *a, const void *b)
{
    const row_key *p = a, *q = b;
    return p->d < q->d ? -1 : p->d > q->d ? 1 : (p->row > q->row) - (p->row < q->row);
}

/* rows[cy * nz + cz] = rank of row (cy, cz) on the Hilbert curve; the other
 * two thirds (atom counts, slot starts) are zero. */
static vkmd_result make_rows(const vkmd_neighbor_plan *plan, uint32_t **out)
{
    const uint32_t ny = plan->grid[1], nz = plan->grid[2], rows = ny * nz;
    uint32_t side = 1;
    while (side < ny || side < nz)
        side *= 2;
    row_key *keys = malloc(sizeof *keys * rows);
    uint32_t *table = calloc(3 * (size_t)rows, sizeof *table);
    if (!keys || !table) {
        free(keys);
        free(table);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "neighbour list: %u rows", rows);
    }
    for (uint32_t y = 0; y < ny; ++y)
        for (uint32_t z = 0; z < nz; ++z)
            keys[y * nz + z] = (row_key){hilbert_index(side, y, z), y * nz + z};
    qsort(keys, rows, sizeof *keys, row_key_cmp);
    for (uint32_t r = 0; r < rows; ++r)
        table[keys[r].row] = r;
    free(keys);
    *out = table;
    return VKMD_OK;
}

/* push.limits: the inner-list capacity, then prune^2, the cutoff and half
 * the outer skin as float bits (the same for every box shape). */
static void set_push_limits(vkmd_neighbor *nl, double prune)
{
    const float prune2 = (float)(prune * prune), cutoff = (float)nl->cutoff_a;
    const float drift = (float)(0.5 * nl->outer_skin_a);
    uint32_t bits[3];
    memcpy(&bits[0], &prune2, 4);
    memcpy(&bits[1], &cutoff, 4);
    memcpy(&bits[2], &drift, 4);
    nl->push.limits = (vkmd_gpu_uvec4){nl->plan.max_inner, bits[0], bits[1], bits[2]};
}

/* A triclinic cell: box.xyz = (ax, by, cz), box_lo.xyz = (bx, cx, cy)
 * (common/box.glsl), the cells cover the brick. */
static void set_push_box_triclinic(vkmd_neighbor *nl, const vkmd_box *box)
{
    const vkmd_neighbor_plan *p = &nl->plan;
    const double(*v)[3] = box->vec;
    double lmax = 0.0;
    for (int d = 0; d < 3; ++d)
        for (int e = 0; e < 3; ++e)
            lmax = fmax(lmax, fabs(v[d][e]));
    double guard = 8.0 * float_ulp(lmax);
    double rebuild = fmax(0.0, 0.5 * nl->outer_skin_a - guard);
    double prune = fmax(0.0, 0.5 * nl->skin_a - guard);
    nl->push.box =
        (vkmd_gpu_vec4){(float)v[0][0], (float)v[1][1], (float)v[2][2], (float)p->outer_radius_a};
    nl->push.box_lo =
        (vkmd_gpu_vec4){(float)v[1][0], (float)v[2][0], (float)v[2][1], (float)p->list_radius_a};
    nl->push.cell = (vkmd_gpu_vec4){(float)(v[0][0] / p->grid[0]), (float)(v[1][1] / p->grid[1]),
                                    (float)(v[2][2] / p->grid[2]), (float)(rebuild * rebuild)};
    set_push_limits(nl, prune);
}

static void set_push_box(vkmd_neighbor *nl, const vkmd_box *box)
{
    if (box->triclinic) {
        set_push_box_triclinic(nl, box);
        return;
    }
    const vkmd_neighbor_plan *p = &nl->plan;
    double lmax = fmax(box->len[0], fmax(box->len[1], box->len[2]));
    double guard = 8.0 * float_ulp(lmax);
    double rebuild = fmax(0.0, 0.5 * nl->outer_skin_a - guard);
    double prune = fmax(0.0, 0.5 * nl->skin_a - guard);
    float hi[3];
    for (int d = 0; d < 3; ++d)
        hi[d] = (float)box->len[d];
    nl->push.box = (vkmd_gpu_vec4){hi[0], hi[1], hi[2], (float)p->outer_radius_a};
    nl->push.box_lo = (vkmd_gpu_vec4){(float)(box->len[0] - hi[0]), (float)(box->len[1] - hi[1]),
                                      (float)(box->len[2] - hi[2]), (float)p->list_radius_a};
    nl->push.cell =
        (vkmd_gpu_vec4){(float)(box->len[0] / p->grid[0]), (float)(box->len[1] / p->grid[1]),
                        (float)(box->len[2] / p->grid[2]), (float)(rebuild * rebuild)};
    set_push_limits(nl, prune);
}

vkmd_result vkmd_neighbor_set_box(vkmd_neighbor *nl, const vkmd_box *box)
{
    vkmd_result res = check_box(box, nl->cutoff_a);
    if (res == VKMD_OK && (box->triclinic != 0) != (nl->triclinic != 0))
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "neighbour list: the box changed between rectangular and triclinic "
                        "(the list is built for one kind)");
    if (res == VKMD_OK)
        set_push_box(nl, box);
    return res;
}

static vkmd_result make_buffer(vkmd_vk_context *ctx, vkmd_vk_buffer *buf, VkDeviceSize size,
                               VkBufferUsageFlags usage, int force_staging, const char *name)
{
    const vkmd_vk_buffer_desc d = {
        .size = size ? size : 4, .usage = usage, .force_staging = force_staging, .name = name};
    return vkmd_vk_buffer_create(ctx, &d, buf);
}

static uint32_t cap_groups(const vkmd_vk_context *ctx, uint32_t n, uint32_t wg)
{
    uint32_t g = vkmd_vk_div_up(n, wg);
    uint32_t max = ctx->info.max_workgroup_count_x ? ctx->info.max_workgroup_count_x : 65535;
    return g < 1 ? 1 : g < max ? g : max;
}

vkmd_result vkmd_neighbor_create(vkmd_vk_context *ctx, const vkmd_system *sys,
                                 const vkmd_neighbor_desc *desc, vkmd_neighbor **out_nl)
{
    vkmd_result res = VKMD_OK;
    *out_nl = NULL;
    if (!desc || !desc->positions)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "neighbour list: positions are required");
    if (desc->positions->size < (VkDeviceSize)sys->atom_count * 16)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "neighbour list: positions buffer of %llu bytes for %d atoms",
                         (unsigned long long)desc->positions->size, sys->atom_count);
    uint32_t wg = desc->workgroup_size ? desc->workgroup_size : VKMD_NL_WORKGROUP_SIZE;
    if ((wg & (wg - 1)) != 0 || wg < 32 || wg > ctx->info.max_workgroup_invocations)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "neighbour list: workgroup size %u is not a power of two in 32..%u", wg,
                         ctx->info.max_workgroup_invocations);
    uint32_t scan_wg = VKMD_NL_SCAN_WORKGROUP;
    while (scan_wg > ctx->info.max_workgroup_invocations)
        scan_wg /= 2;
    const char *prune_shader = NULL, *build_shader = NULL;
    uint32_t tile_wg = 0, prune_wg = 0;
    /* The prune splits each cluster's outer tiles over the groups of one
     * workgroup where the pair kernel splits its tiles (GPUs; nl_prune.comp),
     * which needs subgroup shuffles (the shared build is one group). */
    uint32_t prune_split = vkmd_tile_split(ctx);
    res = vkmd_tile_shader(ctx, "neighbour list", "nl_prune.comp",
                           prune_split > 1 ? C * prune_split : wg, 0, &prune_shader, &prune_wg);
    if (res == VKMD_OK && prune_wg != C * prune_split)
        prune_split = 1;
    if (res == VKMD_OK && prune_wg > ctx->info.max_workgroup_invocations)
        res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                        "neighbour list: a prune split of %u needs workgroups of %u invocations "
                        "(the device allows %u)",
                        prune_split, prune_wg, ctx->info.max_workgroup_invocations);
    if (res == VKMD_OK)
        res = vkmd_tile_shader(ctx, "neighbour list", "nl_build.comp", wg, 0, &build_shader,
                               &tile_wg);
    if (res != VKMD_OK)
        return res;

    vkmd_neighbor *nl = calloc(1, sizeof *nl);
    uint32_t *rows = NULL, *excl = NULL;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (!nl)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "neighbour list");
    VKMD_TRY(vkmd_neighbor_plan_make(sys, desc, &nl->plan));
    const vkmd_neighbor_plan *p = &nl->plan;
    const size_t k = p->cluster_capacity;
    const size_t mask_bytes = 8 * k * ((size_t)p->max_neighbors + p->max_inner);
    if (p->list_bytes > ctx->limits.maxStorageBufferRange ||
        mask_bytes > ctx->limits.maxStorageBufferRange)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                           "neighbour list: %zu bytes of tiles exceed the device's storage "
                           "buffer range (%u bytes); use a smaller outer skin or system",
                           p->list_bytes > mask_bytes ? p->list_bytes : mask_bytes,
                           ctx->limits.maxStorageBufferRange));
    nl->positions = desc->positions;
    nl->atom_count = sys->atom_count;
    nl->triclinic = sys->box.triclinic;
    nl->cutoff_a = desc->cutoff_a;
    nl->skin_a = desc->skin_a > 0 ? desc->skin_a : VKMD_NEIGHBOR_SKIN_A;
    nl->outer_skin_a = desc->outer_skin_a > 0 ? desc->outer_skin_a : VKMD_NEIGHBOR_OUTER_SKIN_A;

    const uint32_t n = (uint32_t)sys->atom_count, nrows = p->grid[1] * p->grid[2];
    const int fs = desc->force_staging;
    size_t excl_words = 0;
    VKMD_TRY(vkmd_neighbor_exclusions_csr(sys, &excl, &excl_words));
    VKMD_TRY(make_rows(p, &rows));
    VKMD_TRY(make_buffer(ctx, &nl->state, sizeof(vkmd_nl_state), 0, fs, "neighbour state"));
    VKMD_TRY(make_buffer(ctx, &nl->args, 16 * (VKMD_NL_DISPATCH_COUNT + 1),
                         VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, fs, "neighbour dispatch args"));
    VKMD_TRY(make_buffer(ctx, &nl->saved, 48 * (VkDeviceSize)n, 0, fs, "neighbour saved"));
    VKMD_TRY(make_buffer(ctx, &nl->gate, 4 * VKMD_NL_GATE_WORDS,
                         ctx->info.features.conditional_rendering
                             ? VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT
                             : 0,
                         fs, "neighbour gate"));
    VKMD_TRY(make_buffer(ctx, &nl->atom_key, 8 * (VkDeviceSize)n, 0, fs, "neighbour keys"));
    VKMD_TRY(
        make_buffer(ctx, &nl->cells, 8 * (VkDeviceSize)p->cell_count, 0, fs, "neighbour cells"));
    VKMD_TRY(make_buffer(ctx, &nl->rows, 12 * (VkDeviceSize)nrows, 0, fs, "neighbour rows"));
    VKMD_TRY(
        make_buffer(ctx, &nl->order, 4 * (VkDeviceSize)p->slot_capacity, 0, fs, "neighbour order"));
    VKMD_TRY(make_buffer(ctx, &nl->slot_of, 4 * (VkDeviceSize)n, 0, fs, "neighbour slots"));
    VKMD_TRY(make_buffer(ctx, &nl->rel, 32 * (VkDeviceSize)p->slot_capacity, 0, fs,
                         "neighbour relative positions"));
    VKMD_TRY(make_buffer(ctx, &nl->cluster, 48 * (VkDeviceSize)k, 0, fs, "neighbour clusters"));
    VKMD_TRY(
        make_buffer(ctx, &nl->excl, 4 * (VkDeviceSize)excl_words, 0, fs, "neighbour exclusions"));
    VKMD_TRY(make_buffer(ctx, &nl->outer, p->list_bytes, 0, fs, "neighbour outer tiles"));
    VKMD_TRY(make_buffer(ctx, &nl->inner, 16 * (VkDeviceSize)k * p->max_inner, 0, fs,
                         "neighbour inner tiles"));
    VKMD_TRY(make_buffer(ctx, &nl->masks, mask_bytes, 0, fs, "neighbour tile masks"));
    VKMD_TRY(make_buffer(ctx, &nl->counts, 16 * (VkDeviceSize)k, 0, fs, "neighbour counts"));
    VKMD_TRY(make_buffer(ctx, &nl->excl_tiles, 16 * VKMD_NL_EXCL_TILES * (VkDeviceSize)k, 0, fs,
                         "neighbour exclusion tiles"));

    /* Initial contents: counts zero (the bin kernel adds to them), first
     * check forced, order empty, positions zero. */
    vkmd_nl_state st0;
    memset(&st0, 0, sizeof st0);
    st0.force = 1;
    nl->cache_valid = 0;
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &nl->state, 0, &st0, sizeof st0));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &nl->rows, 0, rows, 12 * (VkDeviceSize)nrows));
    VKMD_TRY(vkmd_vk_buffer_upload(ctx, &nl->excl, 0, excl, 4 * (VkDeviceSize)excl_words));
    VKMD_TRY(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_vk_buffer_record_fill(cb, &nl->cells, 0);
    vkmd_vk_buffer_record_fill(cb, &nl->saved, 0);
    vkmd_vk_buffer_record_fill(cb, &nl->rel, 0);
    vkmd_vk_buffer_record_fill(cb, &nl->cluster, 0);
    vkmd_vk_buffer_record_fill(cb, &nl->order, VKMD_NL_EMPTY);
    vkmd_vk_buffer_record_fill(cb, &nl->counts, 0);
    vkmd_vk_buffer_record_fill(cb, &nl->args, 0);
    vkmd_vk_buffer_record_fill(cb, &nl->gate, 0);
    vkmd_vk_barrier_transfer_to_compute(cb);
    res = vkmd_vk_oneshot_submit(ctx, cb);
    cb = VK_NULL_HANDLE;
    if (res != VKMD_OK)
        goto cleanup;

    static const struct {
        const char *shader;
        uint32_t mode;
    } kinds[PIPE_COUNT] = {
        [PIPE_CHECK] = {"nl_check.comp", VKMD_NL_MODE_CHECK_DISPLACEMENT},
        [PIPE_CHECK_GATHER] = {"nl_check.comp", VKMD_NL_MODE_CHECK_GATHER},
        [PIPE_BIN] = {"nl_bin.comp", 0},
        [PIPE_ROWS] = {"nl_scan.comp", VKMD_NL_MODE_SCAN_ROWS},
        [PIPE_ROWSCAN] = {"nl_scan.comp", VKMD_NL_MODE_SCAN_ROWSCAN},
        [PIPE_SCATTER] = {"nl_sort.comp", VKMD_NL_MODE_SORT_SCATTER},
        [PIPE_CELLS] = {"nl_sort.comp", VKMD_NL_MODE_SORT_CELLS},
        [PIPE_CLUSTERS] = {"nl_sort.comp", VKMD_NL_MODE_SORT_CLUSTERS},
        [PIPE_BUILD] = {"nl_build.comp", 0},
        [PIPE_GATHER] = {"nl_gather.comp", 0},
        [PIPE_PRUNE] = {NULL, 0},
    };
    const vkmd_vk_buffer *bufs[VKMD_NL_BINDING_COUNT];
    bufs[VKMD_NL_BINDING_POSITIONS] = desc->positions;
    bufs[VKMD_NL_BINDING_STATE] = &nl->state;
    bufs[VKMD_NL_BINDING_SAVED] = &nl->saved;
    bufs[VKMD_NL_BINDING_ATOM_KEY] = &nl->atom_key;
    bufs[VKMD_NL_BINDING_CELLS] = &nl->cells;
    bufs[VKMD_NL_BINDING_ROWS] = &nl->rows;
    bufs[VKMD_NL_BINDING_ORDER] = &nl->order;
    bufs[VKMD_NL_BINDING_SLOT_OF] = &nl->slot_of;
    bufs[VKMD_NL_BINDING_REL] = &nl->rel;
    bufs[VKMD_NL_BINDING_CLUSTER] = &nl->cluster;
    bufs[VKMD_NL_BINDING_EXCL] = &nl->excl;
    bufs[VKMD_NL_BINDING_OUTER] = &nl->outer;
    bufs[VKMD_NL_BINDING_INNER] = &nl->inner;
    bufs[VKMD_NL_BINDING_MASKS] = &nl->masks;
    bufs[VKMD_NL_BINDING_COUNTS] = &nl->counts;
    bufs[VKMD_NL_BINDING_ARGS] = &nl->args;
    bufs[VKMD_NL_BINDING_EXCL_TILES] = &nl->excl_tiles;
    bufs[VKMD_NL_BINDING_GATE] = &nl->gate;
    VKMD_TRY(vkmd_positions_extra_binding(desc->positions, desc->positions_x, desc->positions_mode,
                                          sys->atom_count, "neighbour list",
                                          &bufs[VKMD_NL_BINDING_POSITIONS_X]));
    for (int q = 0; q < PIPE_COUNT; ++q) {
        const uint32_t size = q == PIPE_ROWSCAN ? scan_wg
                              : q == PIPE_PRUNE ? prune_wg
                              : q == PIPE_BUILD ? tile_wg
                                                : wg;
        const vkmd_vk_spec specs[] = {{VKMD_SPEC_WORKGROUP_SIZE, size},
                                      {VKMD_SPEC_NL_MODE, kinds[q].mode},
                                      {VKMD_SPEC_POSITIONS, (uint32_t)desc->positions_mode},
                                      {VKMD_SPEC_TRICLINIC, sys->box.triclinic ? 1u : 0u},
                                      {VKMD_SPEC_NB_TILE_SPLIT, prune_split}};
        const vkmd_vk_pipeline_desc pd = {
            .shader = q == PIPE_PRUNE   ? prune_shader
                      : q == PIPE_BUILD ? build_shader
                                        : kinds[q].shader,
            .buffer_count = VKMD_NL_BINDING_COUNT,
            .push_size = sizeof(vkmd_nl_push),
            .specs = specs,
            .spec_count = q == PIPE_PRUNE ? 5 : 4,
        };
        VKMD_TRY(vkmd_vk_pipeline_create(ctx, &pd, &nl->pipes[q]));
        VKMD_TRY(vkmd_vk_descset_create(ctx, &nl->pipes[q], bufs, &nl->sets[q]));
    }

    nl->push.grid = (vkmd_gpu_uvec4){p->grid[0], p->grid[1], p->grid[2], p->cell_count};
    nl->push.sizes = (vkmd_gpu_uvec4){n, p->slot_capacity, p->cluster_capacity, p->max_neighbors};
    uint32_t g[VKMD_NL_DISPATCH_COUNT];
    g[VKMD_NL_DISPATCH_BIN] = cap_groups(ctx, n, wg);
    g[VKMD_NL_DISPATCH_ROWS] = cap_groups(ctx, nrows, wg);
    g[VKMD_NL_DISPATCH_ROWSCAN] = 1;
    g[VKMD_NL_DISPATCH_SCATTER] = cap_groups(ctx, n, wg);
    g[VKMD_NL_DISPATCH_CELLS] = cap_groups(ctx, p->cell_count, wg);
    g[VKMD_NL_DISPATCH_CLUSTERS] = cap_groups(ctx, p->cluster_capacity, wg);
    g[VKMD_NL_DISPATCH_BUILD] = cap_groups(ctx, p->cluster_capacity, tile_wg / C);
    g[VKMD_NL_DISPATCH_PRUNE] =
        cap_groups(ctx, p->cluster_capacity, prune_split > 1 ? 1 : prune_wg / C);
    nl->push.groups_a = (vkmd_gpu_uvec4){g[0], g[1], g[2], g[3]};
    nl->push.groups_b = (vkmd_gpu_uvec4){g[4], g[5], g[6], g[7]};
    nl->check_groups = cap_groups(ctx, n, wg);
    nl->gather_groups = cap_groups(ctx, p->slot_capacity, wg);
    set_push_box(nl, &sys->box);
    vkmd_log_debug("neighbour list: grid %u x %u x %u, %u clusters x %u outer / %u inner tiles "
                   "(expected %.0f / %.0f), %.1f MB",
                   p->grid[0], p->grid[1], p->grid[2], p->cluster_capacity, p->max_neighbors,
                   p->max_inner, p->expected_entries, p->expected_inner, p->total_bytes / 1e6);
    *out_nl = nl;
    nl = NULL;
cleanup:
    free(rows);
    free(excl);
    vkmd_neighbor_destroy(ctx, nl);
    return res;
}

void vkmd_neighbor_destroy(vkmd_vk_context *ctx, vkmd_neighbor *nl)
{
    if (!nl)
        return;
    for (int k = 0; k < PIPE_COUNT; ++k) {
        vkmd_vk_descset_destroy(ctx, &nl->sets[k]);
        vkmd_vk_pipeline_destroy(ctx, &nl->pipes[k]);
    }
    vkmd_vk_buffer *bufs[] = {
        &nl->state, &nl->args,    &nl->saved,  &nl->atom_key,   &nl->cells, &nl->rows,
        &nl->order, &nl->slot_of, &nl->rel,    &nl->cluster,    &nl->excl,  &nl->outer,
        &nl->inner, &nl->masks,   &nl->counts, &nl->excl_tiles, &nl->gate};
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; ++k)
        vkmd_vk_buffer_destroy(ctx, bufs[k]);
    free(nl);
}

/* 0 if the pipeline did not compile (its first use: vk/pipeline.h); the
 * caller then records no dispatch, and the command buffer's end fails. */
static int bind(VkCommandBuffer cb, const vkmd_neighbor *nl, int k)
{
    const vkmd_vk_pipeline *pipe = &nl->pipes[k];
    const VkPipeline handle = vkmd_vk_pipeline_handle(pipe);
    if (!handle)
        return 0;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, handle);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->layout, 0, 1,
                            &nl->sets[k].set, 0, NULL);
    vkCmdPushConstants(cb, pipe->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof nl->push,
                       &nl->push);
    return 1;
}

static void dispatch_indirect(VkCommandBuffer cb, const vkmd_neighbor *nl, int k, int slot)
{
    if (bind(cb, nl, k)) {
        vkCmdDispatchIndirect(cb, nl->args.buffer, 16 * (VkDeviceSize)slot);
        vkmd_vk_stats_add_dispatches(1);
    }
    vkmd_vk_barrier_compute(cb);
}

void vkmd_neighbor_record(const vkmd_neighbor *nl, VkCommandBuffer cb, unsigned flags)
{
    const int rebuild = !(flags & VKMD_NL_RECORD_NO_REBUILD);
    /* Orders the indirect reads of an earlier record before the check
     * rewrites the arguments (its last workgroup decides, nl_check.comp). */
    vkmd_vk_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                    VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    const int pipe = rebuild ? PIPE_CHECK : PIPE_CHECK_GATHER;
    if (bind(cb, nl, pipe)) {
        vkCmdDispatch(cb, rebuild ? nl->check_groups : nl->gather_groups, 1, 1);
        vkmd_vk_stats_add_dispatches(1);
    }
    vkmd_neighbor_record_check_barrier(cb, flags);
    if (rebuild)
        vkmd_neighbor_record_rebuild(nl, cb); /* empty dispatches unless the check asked */
    if (!(flags & VKMD_NL_RECORD_NO_PRUNE))
        dispatch_indirect(cb, nl, PIPE_PRUNE, VKMD_NL_DISPATCH_PRUNE);
}

void vkmd_neighbor_record_check_barrier(VkCommandBuffer cb, unsigned flags)
{
    /* The dispatch arguments (indirect reads), the state and relative
     * positions (compute), and in a gated batch the gate words the next
     * steps' conditional rendering reads. */
    VkPipelineStageFlags dst =
        VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkAccessFlags access = VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                           VK_ACCESS_SHADER_WRITE_BIT;
    if (flags & VKMD_NL_RECORD_GATED) {
        dst |= VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT;
        access |= VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT;
    }
    vkmd_vk_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, dst,
                    access);
}

void vkmd_neighbor_record_gate_open(const vkmd_neighbor *nl, VkCommandBuffer cb, int predict)
{
    vkCmdFillBuffer(cb, nl->gate.buffer, 0, VK_WHOLE_SIZE, 0);
    const uint32_t words[3] = {0, 0, predict ? 1u : 0u}; /* halt, batch_checks, predict */
    vkCmdUpdateBuffer(cb, nl->state.buffer, offsetof(vkmd_nl_state, halt), sizeof words, words);
}

void vkmd_neighbor_record_gate_close(const vkmd_neighbor *nl, VkCommandBuffer cb)
{
    vkCmdFillBuffer(cb, nl->state.buffer, offsetof(vkmd_nl_state, predict), 4, 0);
}

VkBuffer vkmd_neighbor_gate(const vkmd_neighbor *nl)
{
    return nl->gate.buffer;
}

void vkmd_neighbor_record_rebuild(const vkmd_neighbor *nl, VkCommandBuffer cb)
{
    dispatch_indirect(cb, nl, PIPE_BIN, VKMD_NL_DISPATCH_BIN);
    dispatch_indirect(cb, nl, PIPE_ROWS, VKMD_NL_DISPATCH_ROWS);
    dispatch_indirect(cb, nl, PIPE_ROWSCAN, VKMD_NL_DISPATCH_ROWSCAN);
    dispatch_indirect(cb, nl, PIPE_SCATTER, VKMD_NL_DISPATCH_SCATTER);
    dispatch_indirect(cb, nl, PIPE_CELLS, VKMD_NL_DISPATCH_CELLS);
    dispatch_indirect(cb, nl, PIPE_CLUSTERS, VKMD_NL_DISPATCH_CLUSTERS);
    /* The build and the gather read the clusters and write different
     * buffers: one barrier interval. */
    if (bind(cb, nl, PIPE_BUILD)) {
        vkCmdDispatchIndirect(cb, nl->args.buffer, 16 * (VkDeviceSize)VKMD_NL_DISPATCH_BUILD);
        vkmd_vk_stats_add_dispatches(1);
    }
    if (bind(cb, nl, PIPE_GATHER)) {
        vkCmdDispatch(cb, nl->gather_groups, 1, 1);
        vkmd_vk_stats_add_dispatches(1);
    }
    vkmd_vk_barrier_compute(cb);
}

void vkmd_neighbor_record_invalidate_prune(const vkmd_neighbor *nl, VkCommandBuffer cb)
{
    /* Every atom's position at the prune moved to the origin: the next
     * check measures it far (minimum image, up to half the box) and prunes. */
    const VkDeviceSize n16 = 16 * (VkDeviceSize)nl->atom_count;
    vkmd_vk_barrier_compute_to_transfer(cb);
    vkCmdFillBuffer(cb, nl->saved.buffer, n16, n16, 0);
    vkmd_vk_barrier_transfer_to_compute(cb);
}

void vkmd_neighbor_record_invalidate(const vkmd_neighbor *nl, VkCommandBuffer cb)
{
    vkmd_vk_barrier_compute_to_transfer(cb);
    vkCmdFillBuffer(cb, nl->state.buffer, offsetof(vkmd_nl_state, force), 4, 1);
    vkmd_vk_barrier_transfer_to_compute(cb);
}

vkmd_result vkmd_neighbor_stats_read(vkmd_vk_context *ctx, vkmd_neighbor *nl,
                                     vkmd_neighbor_stats *out)
{
    vkmd_nl_state st;
    memset(out, 0, sizeof *out);
    if (nl->cache_valid && nl->cache_submits == vkmd_vk_stats_get().submits) {
        st = nl->cache;
    } else {
        nl->cache_valid = 0;
        vkmd_result res = vkmd_vk_buffer_readback(ctx, &nl->state, 0, &st, sizeof st);
        if (res != VKMD_OK)
            return res;
        nl->cache = st;
        nl->cache_submits = vkmd_vk_stats_get().submits;
        nl->cache_valid = 1;
    }
    float d2, p2;
    memcpy(&d2, &st.last_disp2, sizeof d2);
    memcpy(&p2, &nl->push.limits.y, sizeof p2);
    out->builds = st.builds;
    out->prunes = st.prunes;
    out->checks = st.checks;
    out->overflow = st.overflow;
    out->max_count = st.max_count;
    out->capacity = nl->plan.max_neighbors;
    out->max_inner = st.max_inner;
    out->inner_capacity = nl->plan.max_inner;
    out->tiles_outer = st.tiles_outer;
    out->tiles_inner = st.tiles_inner;
    out->slot_count = st.slot_count;
    out->last_displacement = sqrt((double)d2);
    out->trigger_a = sqrt((double)nl->push.cell.w);
    out->prune_trigger_a = sqrt((double)p2);
    out->missed = st.missed;
    out->halted = st.halt;
    out->halts = st.halts;
    out->batch_checks = st.batch_checks;
    out->force = st.force;
    return VKMD_OK;
}

vkmd_result vkmd_neighbor_clear_missed(vkmd_vk_context *ctx, vkmd_neighbor *nl)
{
    const uint32_t zero = 0;
    nl->cache_valid = 0;
    return vkmd_vk_buffer_upload(ctx, &nl->state, offsetof(vkmd_nl_state, missed), &zero, 4);
}

vkmd_result vkmd_neighbor_check(vkmd_vk_context *ctx, vkmd_neighbor *nl, vkmd_neighbor_stats *out)
{
    vkmd_neighbor_stats s;
    vkmd_result res = vkmd_neighbor_stats_read(ctx, nl, &s);
    if (out)
        *out = s;
    if (res == VKMD_OK && s.overflow)
        res = vkmd_fail(VKMD_ERROR_CAPACITY,
                        "neighbour list: a cluster needed %u outer tiles (capacity %u) and %u "
                        "inner tiles (capacity %u), or more than %d clusters of excluded pairs "
                        "(create the list again with larger strides and repeat the evaluation)",
                        s.max_count, s.capacity, s.max_inner, s.inner_capacity, VKMD_NL_EXCL_TILES);
    return res;
}

uint64_t vkmd_neighbor_lane_pairs(const vkmd_neighbor_stats *stats)
{
    return (uint64_t)stats->tiles_inner * C * C;
}

size_t vkmd_neighbor_memory_bytes(const vkmd_neighbor *nl)
{
    const vkmd_vk_buffer *bufs[] = {
        &nl->state, &nl->args,    &nl->saved,  &nl->atom_key,   &nl->cells, &nl->rows,
        &nl->order, &nl->slot_of, &nl->rel,    &nl->cluster,    &nl->excl,  &nl->outer,
        &nl->inner, &nl->masks,   &nl->counts, &nl->excl_tiles, &nl->gate};
    size_t total = 0;
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; ++k)
        total += (size_t)bufs[k]->size;
    return total;
}

void vkmd_neighbor_view_get(const vkmd_neighbor *nl, vkmd_neighbor_view *out)
{
    *out = (vkmd_neighbor_view){
        .order = &nl->order,
        .rel = &nl->rel,
        .inner = &nl->inner,
        .masks = &nl->masks,
        .counts = &nl->counts,
        .state = &nl->state,
        .outer = &nl->outer,
        .saved = &nl->saved,
        .slot_of = &nl->slot_of,
        .cluster = &nl->cluster,
        .args = &nl->args,
        .gate = &nl->gate,
        .push = nl->push,
        .atom_count = (uint32_t)nl->atom_count,
        .slot_capacity = nl->plan.slot_capacity,
        .cluster_capacity = nl->plan.cluster_capacity,
        .max_neighbors = nl->plan.max_neighbors,
        .max_inner = nl->plan.max_inner,
        .cutoff_a = nl->cutoff_a,
    };
}

vkmd_result vkmd_neighbor_pairs_read(vkmd_vk_context *ctx, const vkmd_neighbor *nl, int inner,
                                     vkmd_pair **out_pairs, size_t *out_count)
{
    vkmd_result res = VKMD_OK;
    *out_pairs = NULL;
    *out_count = 0;
    const vkmd_neighbor_plan *p = &nl->plan;
    const vkmd_vk_buffer *tiles_buf = inner ? &nl->inner : &nl->outer;
    const uint32_t stride = inner ? p->max_inner : p->max_neighbors;
    const size_t mask_base = inner ? (size_t)p->cluster_capacity * p->max_neighbors : 0;
    uint32_t *order = malloc(nl->order.size);
    uint32_t *counts = malloc(nl->counts.size);
    uint32_t *tiles = malloc(tiles_buf->size);
    uint32_t *masks = malloc(nl->masks.size);
    vkmd_pair *pairs = NULL;
    if (!order || !counts || !tiles || !masks) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "neighbour list readback");
        goto cleanup;
    }
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &nl->order, 0, order, nl->order.size));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &nl->counts, 0, counts, nl->counts.size));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, tiles_buf, 0, tiles, tiles_buf->size));
    VKMD_TRY(vkmd_vk_buffer_readback(ctx, &nl->masks, 0, masks, nl->masks.size));
    for (int pass = 0; pass < 2; ++pass) {
        size_t at = 0;
        for (uint32_t c = 0; c < p->cluster_capacity; ++c)
            for (uint32_t kind = 0; kind < 2; ++kind) {
                const uint32_t nt = counts[4 * c + (inner ? 2 : 0) + kind];
                for (uint32_t t = 0; t < nt && t < stride; ++t) {
                    const size_t e = (size_t)c * stride + (kind ? stride - 1 - t : t);
                    const uint32_t cj = tiles[4 * e] & ~VKMD_NL_KIND_BIT;
                    const uint64_t m =
                        masks[2 * (mask_base + e)] | (uint64_t)masks[2 * (mask_base + e) + 1] << 32;
                    if (cj >= p->cluster_capacity) {
                        res = vkmd_fail(VKMD_ERROR_NUMERIC,
                                        "neighbour list: cluster %u tile %u names cluster %u", c, t,
                                        cj);
                        goto cleanup;
                    }
                    for (uint32_t l = 0; l < C; ++l)
                        for (uint32_t k = 0; k < C; ++k) {
                            if (!((m >> (8 * l + k)) & 1u))
                                continue;
                            const uint32_t i = order[c * C + l], j = order[cj * C + ((l + k) & 7)];
                            if (i == VKMD_NL_EMPTY || j == VKMD_NL_EMPTY) {
                                res = vkmd_fail(VKMD_ERROR_NUMERIC,
                                                "neighbour list: cluster %u tile %u pairs an "
                                                "empty slot",
                                                c, t);
                                goto cleanup;
                            }
                            if (pass)
                                pairs[at] = (vkmd_pair){(int32_t)i, (int32_t)j};
                            ++at;
                        }
                }
            }
        if (pass == 0) {
            pairs = malloc(sizeof *pairs * (at ? at : 1));
            if (!pairs) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "neighbour list readback: %zu pairs", at);
                goto cleanup;
            }
        }
        *out_count = at;
    }
    *out_pairs = pairs;
    pairs = NULL;
cleanup:
    free(order);
    free(counts);
    free(tiles);
    free(masks);
    free(pairs);
    return res;
}
