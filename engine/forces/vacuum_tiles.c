/* Tile masks of the vacuum non-bonded kernel (see vacuum_tiles.h). */
#include "forces/vacuum_tiles.h"
#include "forces/pass_neighbor.h"

#include <stdlib.h>
#include <string.h>

#define CL VKMD_NL_CLUSTER_SIZE

uint32_t vkmd_vacuum_tile_count(uint32_t ci, uint32_t nc)
{
    return 1u + (nc - 1u) / 2u + ((nc & 1u) == 0u && ci < nc / 2u ? 1u : 0u);
}

static int excluded(const uint32_t *csr, uint32_t n, uint32_t a, uint32_t b)
{
    for (uint32_t p = csr[a]; p < csr[a + 1]; ++p)
        if (csr[n + 1 + p] == b)
            return 1;
    return 0;
}

/* The mask of tile (ci, t). */
static void tile_mask(const uint32_t *csr, uint32_t n, uint32_t nc, uint32_t ci, uint32_t t,
                      uint32_t mask[2])
{
    const uint32_t cj = (ci + t) % nc;
    mask[0] = mask[1] = 0;
    for (uint32_t l = 0; l < CL; ++l)
        for (uint32_t k = 0; k < CL; ++k) {
            const uint32_t a = ci * CL + l, b = cj * CL + (l + k) % CL;
            /* The diagonal tile meets each pair at k and at 8 - k: keep k
             * 1..3, and k = 4 on the first four lanes only. */
            const int keep = t != 0 || (k >= 1 && k <= 3) || (k == 4 && l < 4);
            if (!keep || a >= n || b >= n || excluded(csr, n, a, b))
                continue;
            mask[l < 4 ? 0 : 1] |= 1u << (8 * (l & 3) + k);
        }
}

static int cmp_u32(const void *x, const void *y)
{
    const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

vkmd_result vkmd_vacuum_tiles_build(const vkmd_system *sys, uint32_t **out_data, size_t *out_words)
{
    *out_data = NULL;
    *out_words = 0;
    const uint32_t n = (uint32_t)sys->atom_count, nc = (n + CL - 1) / CL;
    uint32_t *csr = NULL, *cand = NULL, *data = NULL;
    size_t csr_words = 0;
    vkmd_result res = vkmd_neighbor_exclusions_csr(sys, &csr, &csr_words);
    if (res != VKMD_OK)
        return res;
    /* Per cluster, the candidate tiles: the diagonal, the tile with the
     * padded last cluster (every tile of that cluster itself), and one per
     * excluded partner. Entries: at most one per candidate. */
    uint32_t most = 0;
    for (uint32_t ci = 0; ci < nc; ++ci) {
        const uint32_t hi = ci * CL + CL < n ? ci * CL + CL : n;
        const uint32_t k = 1 + nc / 2 + 1 + csr[hi] - csr[ci * CL];
        most = k > most ? k : most;
    }
    const size_t total = (size_t)nc * 2 + nc / 2 + 1 + csr[n];
    cand = malloc(sizeof *cand * (most ? most : 1));
    data = malloc(sizeof *data * (nc + 1 + 3 * total));
    if (!cand || !data) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "vacuum tiles: %u clusters", nc);
        goto done;
    }
    const int padded = n % CL != 0;
    size_t e = 0;
    for (uint32_t ci = 0; ci < nc; ++ci) {
        const uint32_t count = vkmd_vacuum_tile_count(ci, nc);
        uint32_t m = 0;
        cand[m++] = 0;
        const uint32_t tl = (nc - 1 + nc - ci) % nc;
        if (padded && ci == nc - 1) /* padded i lanes: every tile */
            for (uint32_t t = 1; t < count; ++t)
                cand[m++] = t;
        else if (padded && tl < count) /* padded j lanes */
            cand[m++] = tl;
        const uint32_t hi = ci * CL + CL < n ? ci * CL + CL : n;
        for (uint32_t p = csr[ci * CL]; p < csr[hi]; ++p) {
            const uint32_t t = (csr[n + 1 + p] / CL + nc - ci) % nc;
            if (t < count)
                cand[m++] = t;
        }
        qsort(cand, m, sizeof *cand, cmp_u32);
        data[ci] = (uint32_t)e;
        for (uint32_t k = 0; k < m; ++k) {
            if (k > 0 && cand[k] == cand[k - 1])
                continue;
            uint32_t mask[2];
            tile_mask(csr, n, nc, ci, cand[k], mask);
            if (mask[0] == 0xFFFFFFFFu && mask[1] == 0xFFFFFFFFu)
                continue;
            uint32_t *w = data + nc + 1 + 3 * e++;
            w[0] = cand[k], w[1] = mask[0], w[2] = mask[1];
        }
    }
    data[nc] = (uint32_t)e;
    *out_data = data;
    *out_words = nc + 1 + 3 * e;
    data = NULL;
done:
    free(csr);
    free(cand);
    free(data);
    return res;
}
