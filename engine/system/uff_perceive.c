/* Aromaticity, conjugation and hybridisation as RDKit 2022.09 perceives them
 * (see uff_perceive.h). The rules are RDKit's; the names of the helpers say
 * which of its steps each one is. */
#include "system/uff_perceive.h"

#include "system/element.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Elements with typing rules: outer electrons, default valence, and the
 * standard valences of the neutral atom (ascending, 0-terminated). */
typedef struct element_rule {
    int32_t z;
    int outer;
    int default_valence;
    int valences[4];
} element_rule;

static const element_rule rules[] = {
    {1, 1, 1, {1}},        {5, 3, 3, {3}},  {6, 4, 4, {4}},        {7, 5, 3, {3}},
    {8, 6, 2, {2}},        {9, 7, 1, {1}},  {14, 4, 4, {4, 6}},    {15, 5, 3, {3, 5, 7}},
    {16, 6, 2, {2, 4, 6}}, {17, 7, 1, {1}}, {34, 6, 2, {2, 4, 6}}, {35, 7, 1, {1}},
    {53, 7, 1, {1, 3, 5}},
};

static const element_rule *rule_of(int32_t z)
{
    for (size_t i = 0; i < sizeof rules / sizeof *rules; ++i)
        if (rules[i].z == z)
            return &rules[i];
    return NULL;
}

int vkmd_uff_outer_electrons(int32_t z)
{
    const element_rule *r = rule_of(z);
    return r ? r->outer : 0;
}

int vkmd_uff_default_valence(int32_t z)
{
    const element_rule *r = rule_of(z);
    return r ? r->default_valence : -1;
}

const char *vkmd_uff_hybridization_name(vkmd_uff_hybridization h)
{
    static const char *const names[] = {"UNSPECIFIED", "S",    "SP",   "SP2",
                                        "SP3",         "SP2D", "SP3D", "SP3D2"};
    return (unsigned)h < sizeof names / sizeof *names ? names[h] : "?";
}

void vkmd_uff_perception_free(vkmd_uff_perception *p)
{
    free(p->nbr_start);
    free(p->nbr_atom);
    free(p->nbr_bond);
    free(p->bond_atoms);
    free(p->valence);
    free(p->fragment);
    free(p->hyb);
    free(p->aromatic);
    free(p->small_ring);
    free(p->in_triple);
    free(p->bond_aromatic);
    free(p->bond_conjugated);
    free(p->bond_in_ring);
    free(p->bond_order);
    free(p->ring_start);
    free(p->ring_atoms);
    memset(p, 0, sizeof *p);
}

/* ---- electron counting (RDKit's countAtomElec and donor types) ---- */

typedef enum donor {
    DONOR_VACANT, /* no electron, an empty p orbital */
    DONOR_ONE,
    DONOR_TWO,
    DONOR_NONE,
} donor;

typedef struct ctx {
    const vkmd_uff_molecule *m;
    vkmd_uff_perception *p;
    uint8_t *is_aromatic_type; /* [bond_count] bond type became AROMATIC (order 1.5) */
} ctx;

static int degree(const ctx *c, int32_t a)
{
    return c->p->nbr_start[a + 1] - c->p->nbr_start[a];
}

/* Valence contribution of a bond to one of its atoms: 1.5 once aromatic. */
static double bond_contrib(const ctx *c, int32_t b)
{
    return c->is_aromatic_type[b] ? 1.5 : (double)c->m->bonds[b].order;
}

/* Pi electrons atom a can give: -1 if it cannot take part (univalent, or
 * more than three neighbours). */
static int count_atom_electrons(const ctx *c, int32_t a)
{
    int32_t z = c->m->z[a];
    int dv = vkmd_uff_default_valence(z);
    if (dv <= 1)
        return -1;
    int deg = degree(c, a); /* every bond counts: none has order 0 */
    if (deg > 3)
        return -1;
    int lone = vkmd_uff_outer_electrons(z) - dv - c->m->formal_charge[a];
    if (lone < 0)
        lone = 0;
    int res = (dv - deg) + lone - c->m->radicals[a];
    if (res > 1 && c->p->valence[a] - deg > 1)
        res = 1; /* a triple bond (or two double bonds) donates one electron */
    return res;
}

/* RDKit's moreElectroNegative: more outer electrons, then the lighter. */
static int more_electronegative(int32_t z1, int32_t z2)
{
    int n1 = vkmd_uff_outer_electrons(z1), n2 = vkmd_uff_outer_electrons(z2);
    return n1 > n2 || (n1 == n2 && z1 < z2);
}

/* A double or triple bond on `a` outside every ring: its other atom, or -1. */
static int32_t noncyclic_multiple_bond(const ctx *c, int32_t a)
{
    for (int32_t k = c->p->nbr_start[a]; k < c->p->nbr_start[a + 1]; ++k) {
        int32_t b = c->p->nbr_bond[k];
        if (!c->p->bond_in_ring[b] && bond_contrib(c, b) >= 2.0)
            return c->p->nbr_atom[k];
    }
    return -1;
}

static int cyclic_multiple_bond(const ctx *c, int32_t a)
{
    for (int32_t k = c->p->nbr_start[a]; k < c->p->nbr_start[a + 1]; ++k) {
        int32_t b = c->p->nbr_bond[k];
        if (c->p->bond_in_ring[b] && bond_contrib(c, b) >= 2.0)
            return 1;
    }
    return 0;
}

static donor donor_type(const ctx *c, int32_t a)
{
    int nelec = count_atom_electrons(c, a);
    int32_t who;
    if (nelec < 0)
        return DONOR_NONE;
    if (nelec == 0) {
        if (noncyclic_multiple_bond(c, a) >= 0)
            return DONOR_VACANT;
        return cyclic_multiple_bond(c, a) ? DONOR_ONE : DONOR_NONE;
    }
    if (nelec == 1) {
        if ((who = noncyclic_multiple_bond(c, a)) >= 0)
            return more_electronegative(c->m->z[who], c->m->z[a]) ? DONOR_VACANT : DONOR_ONE;
        if (c->p->valence[a] != degree(c, a))
            return DONOR_ONE; /* it has a multiple bond */
        return c->m->formal_charge[a] == 1 ? DONOR_VACANT : DONOR_NONE;
    }
    if ((who = noncyclic_multiple_bond(c, a)) >= 0 &&
        more_electronegative(c->m->z[who], c->m->z[a]))
        --nelec;
    return nelec % 2 ? DONOR_ONE : DONOR_TWO;
}

/* RDKit's isAtomCandForArom with its default options. */
static int aromatic_candidate(const ctx *c, int32_t a, donor d)
{
    int32_t z = c->m->z[a];
    if (z > 18 && z != 34 && z != 52)
        return 0;
    if (d == DONOR_NONE)
        return 0;
    int dv = vkmd_uff_default_valence(z);
    int dv_iso = vkmd_uff_default_valence(z - c->m->formal_charge[a]);
    if (dv > 0 && c->p->valence[a] > dv_iso)
        return 0;
    if (c->m->radicals[a] && (z != 6 || c->m->formal_charge[a]))
        return 0;
    if (c->p->valence[a] - degree(c, a) > 1) {
        int multiple = 0;
        for (int32_t k = c->p->nbr_start[a]; k < c->p->nbr_start[a + 1]; ++k) {
            int32_t b = c->p->nbr_bond[k];
            if (!c->is_aromatic_type[b] && c->m->bonds[b].order >= 2)
                ++multiple;
        }
        if (multiple > 1)
            return 0;
    }
    return 1;
}

/* ---- aromaticity over candidate rings and their fused systems ---- */

typedef struct ring_set {
    int32_t count;
    const int32_t *start; /* into atoms */
    const int32_t *atoms;
    int32_t *bonds; /* same layout as atoms: bond i joins atoms i and i+1 (cyclic) */
} ring_set;

static int32_t bond_between(const ctx *c, int32_t a, int32_t b)
{
    for (int32_t k = c->p->nbr_start[a]; k < c->p->nbr_start[a + 1]; ++k)
        if (c->p->nbr_atom[k] == b)
            return c->p->nbr_bond[k];
    return -1;
}

static int32_t shared_bonds(const ring_set *rs, int32_t r1, int32_t r2)
{
    int32_t n = 0;
    for (int32_t i = rs->start[r1]; i < rs->start[r1 + 1]; ++i)
        for (int32_t j = rs->start[r2]; j < rs->start[r2 + 1]; ++j)
            n += rs->bonds[i] == rs->bonds[j];
    return n;
}

/* 1 if the rings `sel` (count n) form one connected system in `nbr`. */
static int connected(const uint8_t *nbr, int32_t nr, const int32_t *sel, int32_t n)
{
    uint8_t in[64] = {0}, seen[64] = {0};
    int32_t stack[64], top = 0, reached = 0;
    for (int32_t i = 0; i < n; ++i)
        in[sel[i]] = 1;
    stack[top++] = sel[0];
    seen[sel[0]] = 1;
    while (top > 0) {
        int32_t r = stack[--top];
        ++reached;
        for (int32_t o = 0; o < nr; ++o)
            if (in[o] && !seen[o] && nbr[r * nr + o]) {
                seen[o] = 1;
                stack[top++] = o;
            }
    }
    return reached == n;
}

/* Hueckel on one fused system `fused` (ring indices into the candidate
 * rings): every connected combination of 1..6 rings, atoms counted when in
 * one or two of the chosen rings, 4n+2 electrons possible. */
static void huckel_fused(ctx *c, const ring_set *rs, const uint8_t *nbr, const int32_t *fused,
                         int32_t nf, const donor *edon, int32_t *atom_count_buf, uint8_t *done_bond)
{
    /* Count the distinct bonds of the system, marking them in done_bond, then clear it:
     * from here on it marks the bonds found aromatic (RDKit stops trying larger
     * combinations once every bond of the system is). */
    int32_t ring_bonds = 0, done = 0;
    memset(done_bond, 0, (size_t)c->p->bond_count);
    for (int32_t i = 0; i < nf; ++i)
        for (int32_t k = rs->start[fused[i]]; k < rs->start[fused[i] + 1]; ++k)
            if (!done_bond[rs->bonds[k]]) {
                done_bond[rs->bonds[k]] = 1;
                ++ring_bonds;
            }
    memset(done_bond, 0, (size_t)c->p->bond_count);
    int32_t comb[6], sel[6];
    int32_t max_size = nf < 6 ? nf : 6;
    for (int32_t size = 1; size <= max_size && done < ring_bonds; ++size) {
        for (int32_t i = 0; i < size; ++i)
            comb[i] = i;
        for (;;) {
            for (int32_t i = 0; i < size; ++i)
                sel[i] = fused[comb[i]];
            if (connected(nbr, rs->count, sel, size)) {
                for (int32_t a = 0; a < c->p->atom_count; ++a)
                    atom_count_buf[a] = 0;
                for (int32_t i = 0; i < size; ++i)
                    for (int32_t k = rs->start[sel[i]]; k < rs->start[sel[i] + 1]; ++k)
                        ++atom_count_buf[rs->atoms[k]];
                int lo = 0, hi = 0;
                for (int32_t a = 0; a < c->p->atom_count; ++a) {
                    if (atom_count_buf[a] != 1 && atom_count_buf[a] != 2)
                        continue;
                    int e = edon[a] == DONOR_ONE ? 1 : edon[a] == DONOR_TWO ? 2 : 0;
                    lo += e;
                    hi += e;
                }
                int aromatic = 0;
                if (hi >= 6) {
                    for (int e = lo; e <= hi; ++e)
                        if ((e - 2) % 4 == 0)
                            aromatic = 1;
                } else if (hi == 2) {
                    aromatic = 1;
                }
                if (aromatic) {
                    for (int32_t i = 0; i < size; ++i)
                        for (int32_t k = rs->start[sel[i]]; k < rs->start[sel[i] + 1]; ++k)
                            c->p->aromatic[rs->atoms[k]] = 1;
                    /* bonds in exactly one of the chosen rings */
                    for (int32_t i = 0; i < size; ++i)
                        for (int32_t k = rs->start[sel[i]]; k < rs->start[sel[i] + 1]; ++k) {
                            int32_t b = rs->bonds[k], uses = 0;
                            for (int32_t j = 0; j < size; ++j)
                                for (int32_t q = rs->start[sel[j]]; q < rs->start[sel[j] + 1]; ++q)
                                    uses += rs->bonds[q] == b;
                            if (uses != 1)
                                continue;
                            c->p->bond_aromatic[b] = 1;
                            if (c->m->bonds[b].order <= 2)
                                c->is_aromatic_type[b] = 1;
                            if (!done_bond[b]) {
                                done_bond[b] = 1;
                                ++done;
                            }
                        }
                }
            }
            /* next combination of `size` out of nf */
            int32_t i = size - 1;
            while (i >= 0 && comb[i] == nf - size + i)
                --i;
            if (i < 0)
                break;
            ++comb[i];
            for (int32_t j = i + 1; j < size; ++j)
                comb[j] = comb[j - 1] + 1;
        }
    }
}

static vkmd_result perceive_aromaticity(ctx *c)
{
    vkmd_uff_perception *p = c->p;
    vkmd_result res = VKMD_OK;
    int32_t n = p->atom_count;
    donor *edon = malloc((size_t)n * sizeof *edon);
    uint8_t *cand = calloc((size_t)n, 1), *seen = calloc((size_t)n, 1);
    int32_t *cstart = malloc(((size_t)p->ring_count + 1) * sizeof *cstart);
    int32_t *catoms = malloc(((size_t)p->ring_start[p->ring_count] + 1) * sizeof *catoms);
    int32_t *cbonds = malloc(((size_t)p->ring_start[p->ring_count] + 1) * sizeof *cbonds);
    int32_t *buf = malloc((size_t)n * sizeof *buf);
    uint8_t *done = malloc((size_t)p->bond_count + 1);
    uint8_t *nbr = NULL, *fus_done = NULL;
    int32_t *fused = NULL, *stack = NULL;
    if (!edon || !cand || !seen || !cstart || !catoms || !cbonds || !buf || !done) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "aromaticity: out of memory");
        goto cleanup;
    }
    /* Candidate rings: every atom can donate (or has an empty p orbital). */
    int32_t nc = 0;
    cstart[0] = 0;
    for (int32_t r = 0; r < p->ring_count; ++r) {
        int all = 1;
        for (int32_t k = p->ring_start[r]; k < p->ring_start[r + 1]; ++k) {
            int32_t a = p->ring_atoms[k];
            if (!seen[a]) {
                seen[a] = 1;
                edon[a] = donor_type(c, a);
                cand[a] = (uint8_t)aromatic_candidate(c, a, edon[a]);
            }
            if (!cand[a])
                all = 0;
        }
        if (!all)
            continue;
        int32_t len = p->ring_start[r + 1] - p->ring_start[r];
        for (int32_t i = 0; i < len; ++i) {
            int32_t a = p->ring_atoms[p->ring_start[r] + i];
            int32_t b = p->ring_atoms[p->ring_start[r] + (i + 1) % len];
            catoms[cstart[nc] + i] = a;
            cbonds[cstart[nc] + i] = bond_between(c, a, b);
        }
        cstart[nc + 1] = cstart[nc] + len;
        ++nc;
    }
    if (nc == 0)
        goto cleanup;
    if (nc > 64) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "%s: %d candidate aromatic rings; at most 64 are supported", c->m->source,
                        nc);
        goto cleanup;
    }
    ring_set rs = {nc, cstart, catoms, cbonds};
    /* Rings are neighbours when they share exactly one bond (rings over 24 atoms: none). */
    nbr = calloc((size_t)nc * nc, 1);
    fus_done = calloc((size_t)nc, 1);
    fused = malloc((size_t)nc * sizeof *fused);
    stack = malloc((size_t)nc * sizeof *stack);
    if (!nbr || !fus_done || !fused || !stack) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "aromaticity: out of memory");
        goto cleanup;
    }
    for (int32_t i = 0; i < nc; ++i)
        for (int32_t j = i + 1; j < nc; ++j) {
            if (cstart[i + 1] - cstart[i] > 24 || cstart[j + 1] - cstart[j] > 24)
                continue;
            if (shared_bonds(&rs, i, j) == 1)
                nbr[i * nc + j] = nbr[j * nc + i] = 1;
        }
    for (int32_t start = 0; start < nc; ++start) {
        if (fus_done[start])
            continue;
        int32_t nf = 0, top = 0;
        /* depth-first order, as RDKit picks a fused system */
        stack[top++] = start;
        while (top > 0) {
            int32_t r = stack[--top];
            if (fus_done[r])
                continue;
            fus_done[r] = 1;
            fused[nf++] = r;
            for (int32_t o = nc - 1; o >= 0; --o)
                if (nbr[r * nc + o] && !fus_done[o])
                    stack[top++] = o;
        }
        huckel_fused(c, &rs, nbr, fused, nf, edon, buf, done);
    }
cleanup:
    free(edon);
    free(cand);
    free(seen);
    free(cstart);
    free(catoms);
    free(cbonds);
    free(buf);
    free(done);
    free(nbr);
    free(fus_done);
    free(fused);
    free(stack);
    return res;
}

/* ---- conjugation and hybridisation ---- */

/* RDKit's isAtomConjugCand: first-row atoms, or atoms that are not in
 * groups 15/16, or a group-16 atom with one neighbour; and pi electrons. */
static int conjugation_candidate(const ctx *c, int32_t a)
{
    int32_t z = c->m->z[a];
    int outer = vkmd_uff_outer_electrons(z);
    int row_ok = z <= 10 || (outer != 5 && outer != 6) || (outer == 6 && degree(c, a) < 2);
    return row_ok && count_atom_electrons(c, a) > 0;
}

static void perceive_conjugation(ctx *c)
{
    vkmd_uff_perception *p = c->p;
    for (int32_t b = 0; b < p->bond_count; ++b)
        p->bond_conjugated[b] = p->bond_aromatic[b];
    for (int32_t a = 0; a < p->atom_count; ++a) {
        if (!conjugation_candidate(c, a))
            continue;
        int deg = degree(c, a);
        if (deg < 2 || deg > 3)
            continue;
        for (int32_t k1 = p->nbr_start[a]; k1 < p->nbr_start[a + 1]; ++k1) {
            int32_t b1 = p->nbr_bond[k1];
            if (bond_contrib(c, b1) < 1.5)
                continue;
            for (int32_t k2 = p->nbr_start[a]; k2 < p->nbr_start[a + 1]; ++k2) {
                if (k2 == k1)
                    continue;
                int32_t other = p->nbr_atom[k2];
                if (degree(c, other) > 3)
                    continue;
                if (conjugation_candidate(c, other)) {
                    p->bond_conjugated[b1] = 1;
                    p->bond_conjugated[p->nbr_bond[k2]] = 1;
                }
            }
        }
    }
}

static int has_conjugated_bond(const ctx *c, int32_t a)
{
    for (int32_t k = c->p->nbr_start[a]; k < c->p->nbr_start[a + 1]; ++k)
        if (c->p->bond_conjugated[c->p->nbr_bond[k]])
            return 1;
    return 0;
}

static void perceive_hybridization(ctx *c)
{
    vkmd_uff_perception *p = c->p;
    for (int32_t a = 0; a < p->atom_count; ++a) {
        int32_t z = c->m->z[a];
        int deg = degree(c, a), orbitals;
        if (z <= 1) {
            orbitals = deg;
        } else {
            int outer = vkmd_uff_outer_electrons(z), val = p->valence[a];
            int chg = c->m->formal_charge[a], rad = c->m->radicals[a];
            int free_e = outer - (val + chg);
            if (val + outer - chg < 8)
                orbitals = deg + (free_e - rad) / 2 + rad; /* below an octet: radicals count */
            else
                orbitals = deg + free_e / 2;
        }
        vkmd_uff_hybridization h;
        switch (orbitals) {
        case 0:
        case 1:
            h = VKMD_UFF_HYB_S;
            break;
        case 2:
            h = VKMD_UFF_HYB_SP;
            break;
        case 3:
            h = VKMD_UFF_HYB_SP2;
            break;
        case 4:
            /* sp2 when conjugated (the OH of an acid), unless four neighbours */
            h = deg > 3 || !has_conjugated_bond(c, a) ? VKMD_UFF_HYB_SP3 : VKMD_UFF_HYB_SP2;
            break;
        case 5:
            h = VKMD_UFF_HYB_SP3D;
            break;
        case 6:
            h = VKMD_UFF_HYB_SP3D2;
            break;
        default:
            h = VKMD_UFF_HYB_UNSPECIFIED;
        }
        p->hyb[a] = h;
    }
}

/* ---- input checks and the driver ---- */

static vkmd_result check_atom(const vkmd_uff_molecule *m, const vkmd_uff_perception *p, int32_t a)
{
    int32_t z = m->z[a];
    const char *sym = vkmd_element_symbol(z);
    const element_rule *r = rule_of(z);
    if (!r)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: atom %d (%s): element not supported by the UFF typing (supported: H "
                         "B C N O F Si P S Cl Se Br I)",
                         m->source, a + 1, *sym ? sym : "?");
    int chg = m->formal_charge[a];
    /* A charged atom takes the valences of the isoelectronic element (N+ as C). */
    const element_rule *iso = chg ? rule_of(z - chg) : r;
    int ok = 0;
    char list[32] = "";
    if (iso && (iso == r || vkmd_uff_outer_electrons(z - chg) == r->outer - chg)) {
        size_t used = 0;
        for (int i = 0; i < 4 && iso->valences[i]; ++i) {
            if (iso->valences[i] == p->valence[a] + m->radicals[a])
                ok = 1;
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i ? ", " : "",
                                     iso->valences[i]);
        }
    } else {
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: atom %d (%s): formal charge %+d is not supported", m->source, a + 1,
                         sym, chg);
    }
    if (!ok)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s: atom %d (%s, charge %+d%s): valence %d is not one of %s; UFF needs "
                         "explicit hydrogens and formal charges (e.g. [N+] for four bonds)",
                         m->source, a + 1, sym, chg, m->radicals[a] ? ", radical" : "",
                         p->valence[a], list);
    return VKMD_OK;
}

vkmd_result vkmd_uff_perceive(const vkmd_uff_molecule *mol, vkmd_uff_perception *out)
{
    memset(out, 0, sizeof *out);
    vkmd_uff_perception *p = out;
    int32_t n = mol->atom_count, nb = mol->bond_count;
    vkmd_result res = VKMD_OK;
    ctx c = {mol, p, NULL};
    for (int32_t b = 0; b < nb; ++b) {
        const vkmd_uff_bond *bd = &mol->bonds[b];
        if (bd->a < 0 || bd->a >= n || bd->b < 0 || bd->b >= n || bd->a == bd->b)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: bond %d joins atoms %d and %d",
                             mol->source, b + 1, bd->a + 1, bd->b + 1);
        if (bd->order < 1 || bd->order > 3)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "%s: bond %d (atoms %d-%d): order %d, expected 1, 2 or 3", mol->source,
                             b + 1, bd->a + 1, bd->b + 1, bd->order);
    }
    p->atom_count = n;
    p->bond_count = nb;
    p->nbr_start = calloc((size_t)n + 1, sizeof *p->nbr_start);
    p->nbr_atom = malloc(((size_t)nb * 2 + 1) * sizeof *p->nbr_atom);
    p->nbr_bond = malloc(((size_t)nb * 2 + 1) * sizeof *p->nbr_bond);
    p->bond_atoms = malloc(((size_t)nb * 2 + 1) * sizeof *p->bond_atoms);
    p->valence = calloc((size_t)n, sizeof *p->valence);
    p->fragment = malloc((size_t)n * sizeof *p->fragment);
    p->hyb = calloc((size_t)n, sizeof *p->hyb);
    p->aromatic = calloc((size_t)n, 1);
    p->small_ring = calloc((size_t)n, 1);
    p->in_triple = calloc((size_t)n, 1);
    p->bond_aromatic = calloc((size_t)nb + 1, 1);
    p->bond_conjugated = calloc((size_t)nb + 1, 1);
    p->bond_in_ring = calloc((size_t)nb + 1, 1);
    p->bond_order = calloc((size_t)nb + 1, sizeof *p->bond_order);
    c.is_aromatic_type = calloc((size_t)nb + 1, 1);
    int32_t *fill = calloc((size_t)n, sizeof *fill);
    if (!p->nbr_start || !p->nbr_atom || !p->nbr_bond || !p->bond_atoms || !p->valence ||
        !p->fragment || !p->hyb || !p->aromatic || !p->small_ring || !p->in_triple ||
        !p->bond_aromatic || !p->bond_conjugated || !p->bond_in_ring || !p->bond_order ||
        !c.is_aromatic_type || !fill) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", mol->source);
        goto cleanup;
    }
    /* Adjacency in bond order (RDKit iterates an atom's bonds in the order they were added). */
    for (int32_t b = 0; b < nb; ++b) {
        const vkmd_uff_bond *bd = &mol->bonds[b];
        ++p->nbr_start[bd->a + 1];
        ++p->nbr_start[bd->b + 1];
        p->valence[bd->a] += bd->order;
        p->valence[bd->b] += bd->order;
        p->bond_atoms[2 * b] = bd->a;
        p->bond_atoms[2 * b + 1] = bd->b;
        if (bd->order == 3)
            p->in_triple[bd->a] = p->in_triple[bd->b] = 1;
    }
    for (int32_t a = 0; a < n; ++a)
        p->nbr_start[a + 1] += p->nbr_start[a];
    for (int32_t b = 0; b < nb; ++b) {
        const vkmd_uff_bond *bd = &mol->bonds[b];
        int32_t ka = p->nbr_start[bd->a] + fill[bd->a]++;
        int32_t kb = p->nbr_start[bd->b] + fill[bd->b]++;
        p->nbr_atom[ka] = bd->b;
        p->nbr_bond[ka] = b;
        p->nbr_atom[kb] = bd->a;
        p->nbr_bond[kb] = b;
    }
    for (int32_t a = 0; a < n; ++a)
        if ((res = check_atom(mol, p, a)) != VKMD_OK)
            goto cleanup;
    /* Fragments (connected components), for RDKit's "ignore inter-fragment" pairs. */
    for (int32_t a = 0; a < n; ++a)
        p->fragment[a] = -1;
    {
        int32_t frag = 0;
        for (int32_t a = 0; a < n; ++a) {
            if (p->fragment[a] >= 0)
                continue;
            int32_t qh = 0, qt = 0;
            fill[qt++] = a;
            p->fragment[a] = frag;
            while (qh < qt) {
                int32_t x = fill[qh++];
                for (int32_t k = p->nbr_start[x]; k < p->nbr_start[x + 1]; ++k)
                    if (p->fragment[p->nbr_atom[k]] < 0) {
                        p->fragment[p->nbr_atom[k]] = frag;
                        fill[qt++] = p->nbr_atom[k];
                    }
            }
            ++frag;
        }
    }
    if ((res = vkmd_uff_find_rings(p)) != VKMD_OK)
        goto cleanup;
    if ((res = perceive_aromaticity(&c)) != VKMD_OK)
        goto cleanup;
    for (int32_t b = 0; b < nb; ++b)
        p->bond_order[b] = c.is_aromatic_type[b] ? 1.5 : (double)mol->bonds[b].order;
    perceive_conjugation(&c);
    perceive_hybridization(&c);
cleanup:
    free(fill);
    free(c.is_aromatic_type);
    if (res != VKMD_OK)
        vkmd_uff_perception_free(p);
    return res;
}
