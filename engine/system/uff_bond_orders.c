/* Bond-order assignment from standard valences (see uff_bond_orders.h). */
#include "system/uff_bond_orders.h"

#include "system/element.h"

#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 1000000

/* Standard neutral valences, ascending; 0 ends the list. */
static const int *valences_of(int32_t z)
{
    static const int h[] = {1, 0}, b[] = {3, 0}, c[] = {4, 0}, n[] = {3, 0}, o[] = {2, 0},
                     hal[] = {1, 0}, p[] = {3, 5, 0}, s[] = {2, 4, 6, 0};
    switch (z) {
    case 1:
        return h;
    case 5:
        return b;
    case 6:
    case 14:
        return c;
    case 7:
        return n;
    case 8:
        return o;
    case 9:
    case 17:
    case 35:
    case 53:
        return hal;
    case 15:
        return p;
    case 16:
    case 34:
        return s;
    default:
        return NULL;
    }
}

typedef struct search {
    const vkmd_uff_molecule *m;
    int32_t *cap;       /* [atom_count] largest valence allowed in this phase */
    int32_t *order;     /* [bond_count] current orders */
    int32_t *valence;   /* [atom_count] current sums */
    int32_t *nbr_start; /* CSR over atoms: bonds of each atom */
    int32_t *nbr_bond;
    long steps;
} search;

static int max_valence(int32_t z)
{
    const int *v = valences_of(z);
    int m = 0;
    for (; *v; ++v)
        m = *v;
    return m;
}

static int allowed(int32_t z, int32_t val)
{
    for (const int *v = valences_of(z); *v; ++v)
        if (*v == val)
            return 1;
    return 0;
}

/* 1 if bond `b` can take one more order from atom `a`'s side and the other's. */
static int can_raise(const search *s, int32_t b)
{
    const vkmd_uff_bond *bd = &s->m->bonds[b];
    return s->order[b] < 3 && s->valence[bd->a] < s->cap[bd->a] &&
           s->valence[bd->b] < s->cap[bd->b];
}

static int solve(search *s)
{
    if (++s->steps > MAX_STEPS)
        return -1;
    /* The unsatisfied atom with the fewest raisable bonds. */
    int32_t best = -1, best_options = 1 << 30;
    for (int32_t a = 0; a < s->m->atom_count; ++a) {
        if (allowed(s->m->z[a], s->valence[a]))
            continue;
        int options = 0;
        for (int32_t k = s->nbr_start[a]; k < s->nbr_start[a + 1]; ++k)
            options += can_raise(s, s->nbr_bond[k]);
        if (options == 0)
            return 0; /* dead end */
        if (options < best_options) {
            best_options = options;
            best = a;
        }
    }
    if (best < 0)
        return 1; /* every atom at a standard valence */
    /* Partners short of a valence first, then the others (hypervalent P, S). */
    for (int pass = 0; pass < 2; ++pass) {
        for (int32_t k = s->nbr_start[best]; k < s->nbr_start[best + 1]; ++k) {
            int32_t b = s->nbr_bond[k];
            if (!can_raise(s, b))
                continue;
            const vkmd_uff_bond *bd = &s->m->bonds[b];
            int32_t other = bd->a == best ? bd->b : bd->a;
            int short_other = !allowed(s->m->z[other], s->valence[other]);
            if (short_other != (pass == 0))
                continue;
            ++s->order[b];
            ++s->valence[bd->a];
            ++s->valence[bd->b];
            int r = solve(s);
            if (r != 0)
                return r;
            --s->order[b];
            --s->valence[bd->a];
            --s->valence[bd->b];
        }
    }
    return 0;
}

vkmd_result vkmd_uff_assign_bond_orders(vkmd_uff_molecule *m, const char *what)
{
    vkmd_result res = VKMD_OK;
    search s;
    memset(&s, 0, sizeof s);
    s.m = m;
    for (int32_t a = 0; a < m->atom_count; ++a)
        if (!valences_of(m->z[a]))
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                             "%s: atom %d (%s): no standard valences for this element to assign "
                             "bond orders from; give the bonds in an SDF file",
                             what, a + 1, vkmd_element_symbol(m->z[a]));
    s.order = malloc(((size_t)m->bond_count + 1) * sizeof *s.order);
    s.valence = calloc((size_t)m->atom_count, sizeof *s.valence);
    s.nbr_start = calloc((size_t)m->atom_count + 1, sizeof *s.nbr_start);
    s.nbr_bond = malloc(((size_t)m->bond_count * 2 + 1) * sizeof *s.nbr_bond);
    s.cap = malloc((size_t)m->atom_count * sizeof *s.cap);
    if (!s.order || !s.valence || !s.nbr_start || !s.nbr_bond || !s.cap) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
        goto cleanup;
    }
    for (int32_t b = 0; b < m->bond_count; ++b) {
        s.order[b] = 1;
        ++s.valence[m->bonds[b].a];
        ++s.valence[m->bonds[b].b];
        ++s.nbr_start[m->bonds[b].a + 1];
        ++s.nbr_start[m->bonds[b].b + 1];
    }
    for (int32_t a = 0; a < m->atom_count; ++a) {
        s.nbr_start[a + 1] += s.nbr_start[a];
        if (s.valence[a] > max_valence(m->z[a])) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                            "%s: atom %d (%s) has %d bonded neighbours, more than its largest "
                            "standard neutral valence %d (a charged atom needs an SDF file with "
                            "formal charges; or atoms are too close)",
                            what, a + 1, vkmd_element_symbol(m->z[a]), s.valence[a],
                            max_valence(m->z[a]));
            goto cleanup;
        }
    }
    {
        int32_t *fill = calloc((size_t)m->atom_count, sizeof *fill);
        if (!fill) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
            goto cleanup;
        }
        for (int32_t b = 0; b < m->bond_count; ++b) {
            int32_t a = m->bonds[b].a, c = m->bonds[b].b;
            s.nbr_bond[s.nbr_start[a] + fill[a]++] = b;
            s.nbr_bond[s.nbr_start[c] + fill[c]++] = b;
        }
        free(fill);
    }
    /* Phase 1: every atom at its smallest standard valence that its neighbours allow (no
     * needless hypervalence: thiophene's S stays divalent). Phase 2, only if that fails:
     * any standard valence (a sulfone's S needs 6 with four neighbours). */
    int r = 0;
    for (int phase = 0; phase < 2 && r != 1; ++phase) {
        for (int32_t a = 0; a < m->atom_count; ++a) {
            int deg = s.nbr_start[a + 1] - s.nbr_start[a];
            s.cap[a] = max_valence(m->z[a]);
            if (phase == 0)
                for (const int *v = valences_of(m->z[a]); *v; ++v)
                    if (*v >= deg) {
                        s.cap[a] = *v;
                        break;
                    }
        }
        for (int32_t b = 0; b < m->bond_count; ++b)
            s.order[b] = 1;
        for (int32_t a = 0; a < m->atom_count; ++a)
            s.valence[a] = s.nbr_start[a + 1] - s.nbr_start[a];
        s.steps = 0;
        r = solve(&s);
    }
    if (r != 1) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "%s: %s: no bond orders give every atom a standard neutral valence (a "
                        "charged or radical species needs an SDF file with charges)",
                        what, r < 0 ? "search limit reached" : "no assignment");
        goto cleanup;
    }
    for (int32_t b = 0; b < m->bond_count; ++b)
        m->bonds[b].order = s.order[b];
cleanup:
    free(s.order);
    free(s.valence);
    free(s.nbr_start);
    free(s.nbr_bond);
    free(s.cap);
    return res;
}
