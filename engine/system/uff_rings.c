/* Smallest set of smallest rings (see uff_perceive.h).
 *
 * Ring bonds are the bonds on some cycle (not bridges). Candidate cycles are
 * Horton's: for every ring atom v and every ring bond (x, y), the shortest
 * path v..x, the bond, and the shortest path y..v, when the two paths meet
 * only at v. Candidates are taken shortest first when they are independent
 * (over GF(2), as bond sets) of those already taken, until the cycle rank
 * E - V + C of the ring bonds is reached. */
#include "system/uff_perceive.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t word;
#define WORD_BITS 64

typedef struct cycle {
    int32_t length; /* atoms = bonds */
    word *bits;     /* bond set */
    int32_t *atoms; /* cycle order */
} cycle;

static int cmp_cycle(const void *pa, const void *pb)
{
    const cycle *a = pa, *b = pb;
    return (a->length > b->length) - (a->length < b->length);
}

/* Bridges by an iterative depth-first search (low-link); ring bonds are the rest. */
static vkmd_result mark_ring_bonds(vkmd_uff_perception *p)
{
    int32_t n = p->atom_count;
    int32_t *disc = malloc((size_t)n * sizeof *disc);
    int32_t *low = malloc((size_t)n * sizeof *low);
    int32_t *stack_atom = malloc((size_t)n * sizeof *stack_atom);
    int32_t *stack_edge = malloc((size_t)n * sizeof *stack_edge); /* bond used to enter */
    int32_t *stack_next = malloc((size_t)n * sizeof *stack_next); /* next adjacency slot */
    if (!disc || !low || !stack_atom || !stack_edge || !stack_next) {
        free(disc);
        free(low);
        free(stack_atom);
        free(stack_edge);
        free(stack_next);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
    }
    for (int32_t a = 0; a < n; ++a)
        disc[a] = -1;
    for (int32_t b = 0; b < p->bond_count; ++b)
        p->bond_in_ring[b] = 1;
    int32_t time = 0;
    for (int32_t root = 0; root < n; ++root) {
        if (disc[root] >= 0)
            continue;
        int32_t top = 0;
        stack_atom[0] = root;
        stack_edge[0] = -1;
        stack_next[0] = p->nbr_start[root];
        disc[root] = low[root] = time++;
        while (top >= 0) {
            int32_t a = stack_atom[top];
            if (stack_next[top] < p->nbr_start[a + 1]) {
                int32_t k = stack_next[top]++;
                int32_t b = p->nbr_bond[k], c = p->nbr_atom[k];
                if (b == stack_edge[top])
                    continue;
                if (disc[c] < 0) {
                    disc[c] = low[c] = time++;
                    ++top;
                    stack_atom[top] = c;
                    stack_edge[top] = b;
                    stack_next[top] = p->nbr_start[c];
                } else if (disc[c] < low[a]) {
                    low[a] = disc[c];
                }
            } else {
                if (top > 0) {
                    int32_t parent = stack_atom[top - 1];
                    if (low[a] < low[parent])
                        low[parent] = low[a];
                    if (low[a] > disc[parent])
                        p->bond_in_ring[stack_edge[top]] = 0; /* bridge */
                }
                --top;
            }
        }
    }
    free(disc);
    free(low);
    free(stack_atom);
    free(stack_edge);
    free(stack_next);
    return VKMD_OK;
}

vkmd_result vkmd_uff_find_rings(vkmd_uff_perception *p)
{
    vkmd_result res = mark_ring_bonds(p);
    if (res != VKMD_OK)
        return res;
    int32_t n = p->atom_count, nb = p->bond_count;
    int32_t words = (nb + WORD_BITS - 1) / WORD_BITS;
    if (words == 0)
        words = 1;

    /* Cycle rank of the ring-bond subgraph: E - V + C. */
    int32_t ring_bonds = 0;
    for (int32_t b = 0; b < nb; ++b)
        ring_bonds += p->bond_in_ring[b];
    p->ring_count = 0;
    p->ring_start = calloc(1, sizeof *p->ring_start);
    if (!p->ring_start)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
    if (ring_bonds == 0)
        return VKMD_OK;

    int32_t *dist = malloc((size_t)n * sizeof *dist);
    int32_t *parent = malloc((size_t)n * sizeof *parent);     /* atom */
    int32_t *parent_b = malloc((size_t)n * sizeof *parent_b); /* bond */
    int32_t *queue = malloc((size_t)n * sizeof *queue);
    int32_t *comp = malloc((size_t)n * sizeof *comp);
    uint8_t *mark = calloc((size_t)n, 1);
    int32_t *path = malloc((size_t)n * 2 * sizeof *path);
    cycle *cand = NULL;
    int32_t cand_count = 0, cand_cap = 0;
    word **basis = NULL;
    int32_t *pivot = NULL;
    int32_t basis_count = 0;
    int32_t *chosen = NULL;
    if (!dist || !parent || !parent_b || !queue || !comp || !mark || !path) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
        goto cleanup;
    }

    int32_t ring_atoms = 0, components = 0;
    for (int32_t a = 0; a < n; ++a)
        comp[a] = -1;
    for (int32_t a = 0; a < n; ++a) {
        int has = 0;
        for (int32_t k = p->nbr_start[a]; k < p->nbr_start[a + 1]; ++k)
            has |= p->bond_in_ring[p->nbr_bond[k]];
        if (!has || comp[a] >= 0)
            continue;
        /* flood over ring bonds */
        int32_t qh = 0, qt = 0;
        queue[qt++] = a;
        comp[a] = components;
        while (qh < qt) {
            int32_t x = queue[qh++];
            ++ring_atoms;
            for (int32_t k = p->nbr_start[x]; k < p->nbr_start[x + 1]; ++k) {
                int32_t y = p->nbr_atom[k];
                if (p->bond_in_ring[p->nbr_bond[k]] && comp[y] < 0) {
                    comp[y] = components;
                    queue[qt++] = y;
                }
            }
        }
        ++components;
    }
    int32_t rank = ring_bonds - ring_atoms + components;

    /* Horton candidates. */
    for (int32_t v = 0; v < n; ++v) {
        if (comp[v] < 0)
            continue;
        for (int32_t a = 0; a < n; ++a)
            dist[a] = -1;
        int32_t qh = 0, qt = 0;
        queue[qt++] = v;
        dist[v] = 0;
        parent[v] = -1;
        parent_b[v] = -1;
        while (qh < qt) {
            int32_t x = queue[qh++];
            for (int32_t k = p->nbr_start[x]; k < p->nbr_start[x + 1]; ++k) {
                int32_t y = p->nbr_atom[k];
                if (!p->bond_in_ring[p->nbr_bond[k]] || dist[y] >= 0)
                    continue;
                dist[y] = dist[x] + 1;
                parent[y] = x;
                parent_b[y] = p->nbr_bond[k];
                queue[qt++] = y;
            }
        }
        for (int32_t b = 0; b < nb; ++b) {
            if (!p->bond_in_ring[b])
                continue;
            int32_t x = p->bond_atoms[2 * b], y = p->bond_atoms[2 * b + 1];
            if (dist[x] < 0 || dist[y] < 0)
                continue;
            if (dist[x] > dist[y]) {
                int32_t t = x;
                x = y;
                y = t;
            }
            if (dist[y] - dist[x] > 1 || parent_b[y] == b)
                continue; /* not a cycle closure, or a tree bond */
            /* paths v..x and v..y must meet only at v */
            int ok = 1;
            for (int32_t a = x; a >= 0; a = parent[a])
                mark[a] = 1;
            for (int32_t a = y; a >= 0 && ok; a = parent[a])
                if (mark[a] && a != v)
                    ok = 0;
            for (int32_t a = x; a >= 0; a = parent[a])
                mark[a] = 0;
            if (!ok)
                continue;
            int32_t len = dist[x] + dist[y] + 1;
            if (cand_count == cand_cap) {
                int32_t ncap = cand_cap ? 2 * cand_cap : 64;
                cycle *c = realloc(cand, (size_t)ncap * sizeof *c);
                if (!c) {
                    res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
                    goto cleanup;
                }
                cand = c;
                cand_cap = ncap;
            }
            cycle *c = &cand[cand_count];
            c->length = len;
            c->bits = calloc((size_t)words, sizeof *c->bits);
            c->atoms = malloc((size_t)len * sizeof *c->atoms);
            if (!c->bits || !c->atoms) {
                free(c->bits);
                free(c->atoms);
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
                goto cleanup;
            }
            ++cand_count;
            /* atoms: v .. x (reversed walk), then y .. (child of v) */
            int32_t np = 0;
            for (int32_t a = x; a >= 0; a = parent[a])
                path[np++] = a;
            int32_t m = 0;
            for (int32_t i = np - 1; i >= 0; --i)
                c->atoms[m++] = path[i];
            for (int32_t a = y; a != v; a = parent[a])
                c->atoms[m++] = a;
            c->bits[b / WORD_BITS] |= (word)1 << (b % WORD_BITS);
            for (int32_t a = x; a != v; a = parent[a])
                c->bits[parent_b[a] / WORD_BITS] ^= (word)1 << (parent_b[a] % WORD_BITS);
            for (int32_t a = y; a != v; a = parent[a])
                c->bits[parent_b[a] / WORD_BITS] ^= (word)1 << (parent_b[a] % WORD_BITS);
            /* drop an exact duplicate */
            for (int32_t o = 0; o < cand_count - 1; ++o)
                if (cand[o].length == len &&
                    !memcmp(cand[o].bits, c->bits, (size_t)words * sizeof *c->bits)) {
                    free(c->bits);
                    free(c->atoms);
                    --cand_count;
                    break;
                }
        }
    }
    qsort(cand, (size_t)cand_count, sizeof *cand, cmp_cycle);

    basis = calloc((size_t)rank + 1, sizeof *basis);
    pivot = calloc((size_t)rank + 1, sizeof *pivot);
    chosen = calloc((size_t)rank + 1, sizeof *chosen);
    word *tmp = calloc((size_t)words, sizeof *tmp);
    if (!basis || !pivot || !chosen || !tmp) {
        free(tmp);
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
        goto cleanup;
    }
    int32_t total_atoms = 0;
    for (int32_t c = 0; c < cand_count && basis_count < rank; ++c) {
        memcpy(tmp, cand[c].bits, (size_t)words * sizeof *tmp);
        for (int32_t r = 0; r < basis_count; ++r)
            if (tmp[pivot[r] / WORD_BITS] >> (pivot[r] % WORD_BITS) & 1)
                for (int32_t w = 0; w < words; ++w)
                    tmp[w] ^= basis[r][w];
        int32_t piv = -1;
        for (int32_t w = 0; w < words && piv < 0; ++w)
            if (tmp[w])
                piv = w * WORD_BITS + __builtin_ctzll(tmp[w]);
        if (piv < 0)
            continue; /* dependent */
        basis[basis_count] = malloc((size_t)words * sizeof *tmp);
        if (!basis[basis_count]) {
            free(tmp);
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
            goto cleanup;
        }
        memcpy(basis[basis_count], tmp, (size_t)words * sizeof *tmp);
        pivot[basis_count] = piv;
        chosen[basis_count] = c;
        ++basis_count;
        total_atoms += cand[c].length;
    }
    free(tmp);

    free(p->ring_start);
    p->ring_start = malloc(((size_t)basis_count + 1) * sizeof *p->ring_start);
    p->ring_atoms = malloc(((size_t)total_atoms + 1) * sizeof *p->ring_atoms);
    if (!p->ring_start || !p->ring_atoms) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "rings: out of memory");
        goto cleanup;
    }
    p->ring_count = basis_count;
    p->ring_start[0] = 0;
    for (int32_t r = 0; r < basis_count; ++r) {
        const cycle *c = &cand[chosen[r]];
        memcpy(p->ring_atoms + p->ring_start[r], c->atoms, (size_t)c->length * sizeof(int32_t));
        p->ring_start[r + 1] = p->ring_start[r] + c->length;
        for (int32_t i = 0; i < c->length; ++i) {
            if (c->length == 3)
                p->small_ring[c->atoms[i]] |= 1;
            if (c->length == 4)
                p->small_ring[c->atoms[i]] |= 2;
        }
    }
cleanup:
    free(dist);
    free(parent);
    free(parent_b);
    free(queue);
    free(comp);
    free(mark);
    free(path);
    for (int32_t c = 0; c < cand_count; ++c) {
        free(cand[c].bits);
        free(cand[c].atoms);
    }
    free(cand);
    if (basis)
        for (int32_t r = 0; r < basis_count; ++r)
            free(basis[r]);
    free(basis);
    free(pivot);
    free(chosen);
    return res;
}
