/* External check of the UFF typing and CPU reference against RDKit
 * 2022.09's UFF, on every record of tests/data/uff/molecules.sdf (written,
 * with rdkit_reference.txt, by tests/oracles/uff_rdkit_reference.py):
 *   atom types, hybridisation, aromaticity and UFF bond orders equal RDKit's;
 *   every term parameter RDKit exposes (bond kb r0, angle ka theta0, torsion
 *   V before the division by the torsions about a bond, inversion K) within
 *   TOL_RDKIT_PARAM_REL;
 *   total energy, van der Waals energy and bonded energy (total minus vdW)
 *   within TOL_RDKIT_ENERGY_REL (or TOL_RDKIT_ENERGY_ABS kcal/mol), also
 *   with inter-fragment pairs included;
 *   gradient RMS-relative within TOL_RDKIT_GRAD_RMS. Where RDKit's analytic
 *   gradient is not the derivative of its own energy (trivalent P: its
 *   inversion gradient has the C2 term's sign flipped; the data flag it), the
 *   comparison is with the difference gradient of RDKit's energy, and the
 *   distance to RDKit's analytic gradient is printed. */
#include "io/sdf.h"
#include "ref/ref_uff.h"
#include "testlib.h"
#include "tolerance.h"
#include "system/uff_terms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 4096

typedef struct ref_term {
    char kind; /* b a t i */
    int32_t at[4];
    double v[2];
    int flag;
} ref_term;

typedef struct ref_mol {
    char name[128];
    int32_t atoms, fragments;
    double e_total, e_bonded, e_vdw, e_interfrag, grad_consistency;
    char (*types)[16];
    char (*hyb)[16];
    int *aromatic;
    double *bond_orders;
    int32_t bond_count;
    double *grad, *grad_fd;
    ref_term *terms;
    int32_t term_count;
} ref_mol;

static void ref_free(ref_mol *m)
{
    free(m->types);
    free(m->hyb);
    free(m->aromatic);
    free(m->bond_orders);
    free(m->grad);
    free(m->grad_fd);
    free(m->terms);
    memset(m, 0, sizeof *m);
}

/* Next line of the reference file (static buffer), NULL at the end. */
static char *next_line(char **cursor)
{
    if (!*cursor || !**cursor)
        return NULL;
    char *line = *cursor;
    char *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = line + strlen(line);
    }
    return line;
}

static int read_vectors(char **cursor, int32_t n, double *out)
{
    for (int32_t a = 0; a < n; ++a) {
        char *l = next_line(cursor);
        if (!l || sscanf(l, "%lf %lf %lf", &out[3 * a], &out[3 * a + 1], &out[3 * a + 2]) != 3)
            return 0;
    }
    return 1;
}

/* Parses one "molecule ... end" block; 1 on success, 0 at the end, -1 on error. */
static int parse_mol(char **cursor, ref_mol *m)
{
    memset(m, 0, sizeof *m);
    char *l;
    while ((l = next_line(cursor)) && strncmp(l, "molecule ", 9) != 0)
        ;
    if (!l)
        return 0;
    snprintf(m->name, sizeof m->name, "%s", l + 9);
    m->terms = calloc(MAX_TERMS, sizeof *m->terms);
    while ((l = next_line(cursor)) && strcmp(l, "end") != 0) {
        char key[64];
        int used = 0;
        if (sscanf(l, "%63s %n", key, &used) != 1)
            continue;
        char *rest = l + used;
        if (!strcmp(key, "atoms")) {
            m->atoms = atoi(rest);
            m->types = calloc((size_t)m->atoms, sizeof *m->types);
            m->hyb = calloc((size_t)m->atoms, sizeof *m->hyb);
            m->aromatic = calloc((size_t)m->atoms, sizeof *m->aromatic);
            m->grad = calloc((size_t)m->atoms * 3, sizeof *m->grad);
        } else if (!strcmp(key, "fragments")) {
            m->fragments = atoi(rest);
        } else if (!strcmp(key, "energy_total_kcal_per_mol")) {
            m->e_total = atof(rest);
        } else if (!strcmp(key, "energy_bonded_kcal_per_mol")) {
            m->e_bonded = atof(rest);
        } else if (!strcmp(key, "energy_vdw_kcal_per_mol")) {
            m->e_vdw = atof(rest);
        } else if (!strcmp(key, "energy_total_interfragment_kcal_per_mol")) {
            m->e_interfrag = atof(rest);
        } else if (!strcmp(key, "gradient_vs_energy_difference_rms_rel")) {
            m->grad_consistency = atof(rest);
        } else if (!strcmp(key, "types") || !strcmp(key, "hybridization") ||
                   !strcmp(key, "aromatic")) {
            char *save = NULL;
            int32_t a = 0;
            for (char *tok = strtok_r(rest, " ", &save); tok && a < m->atoms;
                 tok = strtok_r(NULL, " ", &save), ++a) {
                if (key[0] == 't')
                    snprintf(m->types[a], sizeof m->types[a], "%s", tok);
                else if (key[0] == 'h')
                    snprintf(m->hyb[a], sizeof m->hyb[a], "%s", tok);
                else
                    m->aromatic[a] = atoi(tok);
            }
            if (a != m->atoms)
                return -1;
        } else if (!strcmp(key, "bond_orders")) {
            m->bond_orders = calloc(strlen(rest) + 1, sizeof *m->bond_orders);
            char *save = NULL;
            for (char *tok = strtok_r(rest, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
                m->bond_orders[m->bond_count++] = atof(tok);
        } else if (!strcmp(key, "gradient_kcal_per_mol_per_a")) {
            if (!read_vectors(cursor, m->atoms, m->grad))
                return -1;
        } else if (!strcmp(key, "gradient_fd_kcal_per_mol_per_a")) {
            m->grad_fd = calloc((size_t)m->atoms * 3, sizeof *m->grad_fd);
            if (!read_vectors(cursor, m->atoms, m->grad_fd))
                return -1;
        } else if (!strcmp(key, "bond") || !strcmp(key, "angle") || !strcmp(key, "torsion") ||
                   !strcmp(key, "inversion")) {
            if (m->term_count == MAX_TERMS)
                return -1;
            ref_term *t = &m->terms[m->term_count++];
            t->kind = key[0];
            int ok = 0;
            if (t->kind == 'b')
                ok = sscanf(rest, "%d %d %lf %lf", &t->at[0], &t->at[1], &t->v[0], &t->v[1]) == 4;
            else if (t->kind == 'a')
                ok = sscanf(rest, "%d %d %d %lf %lf %d", &t->at[0], &t->at[1], &t->at[2], &t->v[0],
                            &t->v[1], &t->flag) == 6;
            else
                ok = sscanf(rest, "%d %d %d %d %lf", &t->at[0], &t->at[1], &t->at[2], &t->at[3],
                            &t->v[0]) == 5;
            if (!ok)
                return -1;
        }
    }
    return l ? 1 : -1;
}

/* Term parameters against RDKit's getters; returns the worst relative error. */
static double check_params(const ref_mol *r, const vkmd_uff_terms *t, int *out_checked)
{
    double worst = 0.0;
    int checked = 0;
    for (int32_t q = 0; q < r->term_count; ++q) {
        const ref_term *rt = &r->terms[q];
        if (rt->kind == 'b') {
            const vkmd_uff_bond_term *b = NULL;
            for (int32_t n = 0; n < t->bond_count && !b; ++n)
                if ((t->bonds[n].i == rt->at[0] && t->bonds[n].j == rt->at[1]) ||
                    (t->bonds[n].i == rt->at[1] && t->bonds[n].j == rt->at[0]))
                    b = &t->bonds[n];
            CHECK_MSG(b != NULL, "%s: no bond term %d-%d", r->name, rt->at[0], rt->at[1]);
            if (!b)
                continue;
            double e1 = fabs(b->kb - rt->v[0]) / rt->v[0], e2 = fabs(b->r0 - rt->v[1]) / rt->v[1];
            worst = fmax(worst, fmax(e1, e2));
            CHECK_MSG(e1 <= TOL_RDKIT_PARAM_REL && e2 <= TOL_RDKIT_PARAM_REL,
                      "%s: bond %d-%d kb %.10g r0 %.10g, RDKit %.10g %.10g", r->name, rt->at[0],
                      rt->at[1], b->kb, b->r0, rt->v[0], rt->v[1]);
            ++checked;
        } else if (rt->kind == 'a') {
            if (rt->flag)
                continue; /* RDKit's getter ignores its own 3/4-ring rule */
            const vkmd_uff_angle_term *a = NULL;
            for (int32_t n = 0; n < t->angle_count && !a; ++n)
                if (t->angles[n].j == rt->at[1] &&
                    ((t->angles[n].i == rt->at[0] && t->angles[n].k == rt->at[2]) ||
                     (t->angles[n].i == rt->at[2] && t->angles[n].k == rt->at[0])))
                    a = &t->angles[n];
            CHECK_MSG(a != NULL, "%s: no angle term %d-%d-%d", r->name, rt->at[0], rt->at[1],
                      rt->at[2]);
            if (!a)
                continue;
            double th = a->theta0 * 180.0 / M_PI;
            double e1 = fabs(a->ka - rt->v[0]) / rt->v[0], e2 = fabs(th - rt->v[1]) / rt->v[1];
            worst = fmax(worst, fmax(e1, e2));
            CHECK_MSG(e1 <= TOL_RDKIT_PARAM_REL && e2 <= TOL_RDKIT_PARAM_REL,
                      "%s: angle %d-%d-%d ka %.10g theta0 %.10g, RDKit %.10g %.10g", r->name,
                      rt->at[0], rt->at[1], rt->at[2], a->ka, th, rt->v[0], rt->v[1]);
            ++checked;
        } else if (rt->kind == 'i') {
            int found = 0;
            for (int32_t n = 0; n < t->inversion_count; ++n) {
                if (t->inversions[n].j != rt->at[1])
                    continue;
                found = 1;
                double e = fabs(t->inversions[n].k_inv - rt->v[0]) / rt->v[0];
                worst = fmax(worst, e);
                CHECK_MSG(e <= TOL_RDKIT_PARAM_REL, "%s: inversion at %d K %.10g, RDKit %.10g",
                          r->name, rt->at[1], t->inversions[n].k_inv, rt->v[0]);
            }
            CHECK_MSG(found, "%s: no inversion term at atom %d", r->name, rt->at[1]);
            ++checked;
        }
    }
    /* Every torsion term: V times the torsions about its bond is RDKit's V for that path.
     * (Perturbed copies of a molecule list no parameters: they are their parent's.) */
    for (int32_t n = 0; n < t->torsion_count && r->term_count > 0; ++n) {
        const vkmd_uff_torsion_term *d = &t->torsions[n];
        int about = 0;
        for (int32_t o = 0; o < t->torsion_count; ++o)
            about += t->torsions[o].j == d->j && t->torsions[o].k == d->k;
        const ref_term *rt = NULL;
        for (int32_t q = 0; q < r->term_count && !rt; ++q) {
            const ref_term *c = &r->terms[q];
            if (c->kind != 't')
                continue;
            if ((c->at[0] == d->i && c->at[1] == d->j && c->at[2] == d->k && c->at[3] == d->l) ||
                (c->at[0] == d->l && c->at[1] == d->k && c->at[2] == d->j && c->at[3] == d->i))
                rt = c;
        }
        CHECK_MSG(rt != NULL, "%s: RDKit has no torsion %d-%d-%d-%d", r->name, d->i, d->j, d->k,
                  d->l);
        if (!rt)
            continue;
        double v = d->v * about;
        double e = fabs(v - rt->v[0]) / fmax(fabs(rt->v[0]), 1e-12);
        worst = fmax(worst, e);
        CHECK_MSG(e <= TOL_RDKIT_PARAM_REL, "%s: torsion %d-%d-%d-%d V %.10g, RDKit %.10g", r->name,
                  d->i, d->j, d->k, d->l, v, rt->v[0]);
        ++checked;
    }
    *out_checked = checked;
    return worst;
}

int main(void)
{
    vkmd_uff_molecule *recs = NULL;
    int32_t nrec = 0;
    CHECK_OK(vkmd_sdf_read(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &nrec));
    size_t len = 0;
    char *text = test_read_file(VKMD_TEST_DATA_DIR "/uff/rdkit_reference.txt", &len);
    CHECK(text != NULL);
    if (!text || !recs)
        return test_finish("test_ref_uff_rdkit");
    vkmd_uff_param_table table;
    CHECK_OK(vkmd_uff_params_load_default(&table));

    char *cursor = text;
    int32_t done = 0;
    double worst_e = 0, worst_g = 0, worst_p = 0;
    int elements[120] = {0};
    printf("%-36s %5s %18s %18s %9s %9s %9s %9s\n", "molecule", "atoms", "E RDKit", "E vkmd",
           "rel E", "rel vdW", "rel bond", "grad rms");
    for (;;) {
        ref_mol r;
        int got = parse_mol(&cursor, &r);
        if (got == 0) {
            ref_free(&r);
            break;
        }
        CHECK_MSG(got == 1, "rdkit_reference.txt: malformed block after %d molecules", done);
        if (got != 1 || done >= nrec) {
            CHECK_MSG(done < nrec, "more reference blocks than SDF records (%d)", nrec);
            ref_free(&r);
            break;
        }
        const vkmd_uff_molecule *m = &recs[done++];
        CHECK_MSG(m->atom_count == r.atoms, "%s: %d atoms, RDKit %d", r.name, m->atom_count,
                  r.atoms);
        CHECK_MSG(!strcmp(m->name, r.name), "record %d is '%s', reference '%s'", done, m->name,
                  r.name);
        vkmd_uff_typing ty;
        vkmd_uff_terms terms, terms_all;
        memset(&terms, 0, sizeof terms);
        memset(&terms_all, 0, sizeof terms_all);
        vkmd_result res = vkmd_uff_type_atoms(m, &table, &ty);
        CHECK_OK(res);
        if (res != VKMD_OK || m->atom_count != r.atoms) {
            ref_free(&r);
            continue;
        }
        int type_bad = 0;
        for (int32_t a = 0; a < r.atoms; ++a) {
            elements[m->z[a]] = 1;
            const char *h = vkmd_uff_hybridization_name(ty.perception.hyb[a]);
            if (strcmp(ty.label[a], r.types[a]) || strcmp(h, r.hyb[a]) ||
                ty.perception.aromatic[a] != r.aromatic[a]) {
                CHECK_MSG(0, "%s: atom %d: vkmd %s %s aromatic %d, RDKit %s %s aromatic %d", r.name,
                          a, ty.label[a], h, ty.perception.aromatic[a], r.types[a], r.hyb[a],
                          r.aromatic[a]);
                ++type_bad;
            }
        }
        CHECK_MSG(r.bond_count == m->bond_count, "%s: %d bond orders, %d bonds", r.name,
                  r.bond_count, m->bond_count);
        for (int32_t b = 0; b < m->bond_count && b < r.bond_count; ++b)
            CHECK_MSG(ty.perception.bond_order[b] == r.bond_orders[b],
                      "%s: bond %d order %g, RDKit %g", r.name, b, ty.perception.bond_order[b],
                      r.bond_orders[b]);
        CHECK_OK(vkmd_uff_terms_build(m, &ty, &table, NULL, &terms));
        vkmd_uff_terms_desc all = {.include_interfragment = 1};
        CHECK_OK(vkmd_uff_terms_build(m, &ty, &table, &all, &terms_all));

        int checked = 0;
        double wp = check_params(&r, &terms, &checked);
        worst_p = fmax(worst_p, wp);

        double *f = calloc((size_t)r.atoms * 3, sizeof *f);
        double *g = calloc((size_t)r.atoms * 3, sizeof *g);
        vkmd_uff_energy e, e_all;
        CHECK_OK(vkmd_ref_uff_compute(&terms, m->positions, &e, f));
        CHECK_OK(vkmd_ref_uff_compute(&terms_all, m->positions, &e_all, NULL));
        for (int32_t k = 0; k < 3 * r.atoms; ++k)
            g[k] = -f[k];
        const double *want_g = r.grad_fd ? r.grad_fd : r.grad;
        double grms = rms_rel_error(g, want_g, 3 * r.atoms);
        double bonded = e.bond + e.angle + e.torsion + e.inversion;
        double rel_e = fabs(e.total - r.e_total) / fmax(fabs(r.e_total), 1e-300);
        double rel_v = fabs(e.vdw - r.e_vdw) / fmax(fabs(r.e_vdw), 1e-300);
        double rel_b = fabs(bonded - r.e_bonded) / fmax(fabs(r.e_bonded), 1e-300);
        printf("%-36s %5d %18.10f %18.10f %9.2e %9.2e %9.2e %9.2e%s\n", r.name, r.atoms, r.e_total,
               e.total, rel_e, rel_v, rel_b, grms, r.grad_fd ? " (vs FD)" : "");
        if (r.grad_fd)
            printf("  %s: RDKit's analytic gradient vs the difference of its energy: rms-rel %.3e; "
                   "vkmd vs RDKit's analytic gradient: %.3e\n",
                   r.name, r.grad_consistency, rms_rel_error(g, r.grad, 3 * r.atoms));
        printf("  %s: %d parameters checked, worst rel %.2e; terms: %d bonds %d angles %d "
               "torsions %d inversions %d pairs\n",
               r.name, checked, wp, terms.bond_count, terms.angle_count, terms.torsion_count,
               terms.inversion_count, terms.pair_count);
        int ok_e = fabs(e.total - r.e_total) <=
                   fmax(TOL_RDKIT_ENERGY_REL * fabs(r.e_total), TOL_RDKIT_ENERGY_ABS);
        int ok_v = fabs(e.vdw - r.e_vdw) <=
                   fmax(TOL_RDKIT_ENERGY_REL * fabs(r.e_vdw), TOL_RDKIT_ENERGY_ABS);
        int ok_b = fabs(bonded - r.e_bonded) <=
                   fmax(TOL_RDKIT_ENERGY_REL * fabs(r.e_bonded), TOL_RDKIT_ENERGY_ABS);
        int ok_a = fabs(e_all.total - r.e_interfrag) <=
                   fmax(TOL_RDKIT_ENERGY_REL * fabs(r.e_interfrag), TOL_RDKIT_ENERGY_ABS);
        CHECK_MSG(ok_e, "%s: total %.10f, RDKit %.10f", r.name, e.total, r.e_total);
        CHECK_MSG(ok_v, "%s: vdW %.10f, RDKit %.10f", r.name, e.vdw, r.e_vdw);
        CHECK_MSG(ok_b, "%s: bonded %.10f, RDKit %.10f", r.name, bonded, r.e_bonded);
        CHECK_MSG(ok_a, "%s: total with inter-fragment pairs %.10f, RDKit %.10f", r.name,
                  e_all.total, r.e_interfrag);
        CHECK_MSG(grms <= TOL_RDKIT_GRAD_RMS, "%s: gradient rms-rel %.3e", r.name, grms);
        if (r.fragments > 1)
            printf("  %s: %d fragments: with inter-fragment pairs %.10f, RDKit %.10f\n", r.name,
                   r.fragments, e_all.total, r.e_interfrag);
        worst_e = fmax(worst_e, fmax(rel_e, fmax(rel_v, rel_b)));
        worst_g = fmax(worst_g, grms);
        free(f);
        free(g);
        vkmd_uff_terms_free(&terms);
        vkmd_uff_terms_free(&terms_all);
        vkmd_uff_typing_free(&ty);
        ref_free(&r);
    }
    CHECK_MSG(done == nrec, "%d reference blocks for %d SDF records", done, nrec);
    CHECK_MSG(done >= 20, "only %d molecules", done);
    static const int needed[] = {1, 6, 7, 8, 9, 15, 16, 17, 35};
    for (size_t k = 0; k < sizeof needed / sizeof *needed; ++k)
        CHECK_MSG(elements[needed[k]], "no molecule with element %d", needed[k]);
    printf("%d molecules: worst relative energy difference %.3e (total, vdW, bonded), worst "
           "gradient rms-rel %.3e, worst parameter rel %.3e\n",
           done, worst_e, worst_g, worst_p);
    vkmd_uff_params_destroy(&table);
    vkmd_uff_molecule_array_free(recs, nrec);
    free(text);
    return test_finish("test_ref_uff_rdkit");
}
