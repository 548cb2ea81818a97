/* The CHARMM (chamber) and CMAP sections of an AMBER prmtop (see
 * prmtop_sections.h). */
#include "io/prmtop_sections.h"

#include "core/log.h"
#include "system/ff_settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CHARMM (chamber) and CMAP sections ---------------------------------
 * A chamber prmtop (ParmEd, chamber) is an AMBER prmtop plus CHARMM's terms:
 * CTITLE replaces TITLE, FORCE_FIELD_TYPE names the force field (text only),
 * SCEE/SCNB are 1.0, CHARMM_UREY_BRADLEY* and CHARMM_IMPROPER* hold the
 * Urey-Bradley and harmonic improper terms, LENNARD_JONES_14_ACOEF/BCOEF the
 * 1-4 LJ (indexed like the normal tables) and CHARMM_CMAP_* the CMAP terms;
 * AMBER force fields with CMAP (ff19SB) carry the same CMAP sections without
 * the CHARMM_ prefix. Atom numbers in these sections are plain 1-based
 * (not 3 * (atom - 1) as in BONDS_*). The remaining sections a chamber file
 * carries (SOLTY, HBCUT, TREE_CHAIN_CLASSIFICATION, JOIN_ARRAY, IROTAT,
 * RADIUS_SET, RADII, SCREEN, SOLVENT_POINTERS, ATOMS_PER_MOLECULE) are those
 * of any prmtop: metadata, implicit-solvent radii and molecule bookkeeping
 * that the explicit-solvent energy does not use; IPOL must be 0 (a
 * polarisable force field is refused). */

int vkmd_prmtop_is_chamber(const vkmd_prmtop_file *p)
{
    return vkmd_prmtop_find_section(p, "CTITLE") ||
           vkmd_prmtop_find_section(p, "CHARMM_UREY_BRADLEY_COUNT");
}

/* CMAP_* (AMBER) or CHARMM_CMAP_* (chamber) sections, if any. */
vkmd_result vkmd_prmtop_read_cmap(const vkmd_prmtop_file *p, int32_t natom, vkmd_system *s)
{
    const char *prefix = vkmd_prmtop_find_section(p, "CMAP_COUNT") ? "" : "CHARMM_";
    char name[64];
    snprintf(name, sizeof name, "%sCMAP_COUNT", prefix);
    if (!vkmd_prmtop_find_section(p, name))
        return VKMD_OK;
    vkmd_result res = VKMD_OK;
    vkmd_prmtop_values resol = {0}, grid = {0}, index = {0};
    int64_t counts[2];
    VKMD_TRY(vkmd_prmtop_read_counts(p, name, 2, counts));
    const int64_t nterm = counts[0], ntype = counts[1];
    if (nterm > 0 && ntype < 1) {
        res =
            vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: %%FLAG %s: %lld CMAP terms but %lld maps", p->path,
                      vkmd_prmtop_section_line(p, name), name, (long long)nterm, (long long)ntype);
        goto cleanup;
    }
    snprintf(name, sizeof name, "%sCMAP_RESOLUTION", prefix);
    VKMD_TRY(vkmd_prmtop_read_section(p, name, 'I', 1, ntype, -1, &resol));
    s->cmap_maps = calloc((size_t)ntype + 1, sizeof *s->cmap_maps);
    if (!s->cmap_maps) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %lld CMAP maps", p->path, (long long)ntype);
        goto cleanup;
    }
    s->cmap_map_count = (int32_t)ntype;
    for (int64_t m = 0; m < ntype; ++m) {
        const int64_t r = resol.i[m];
        if (r < 4 || r > 360) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: %%FLAG %s: map %lld has resolution %lld, expected 4..360 "
                            "points per axis",
                            p->path, resol.line[m], name, (long long)m + 1, (long long)r);
            goto cleanup;
        }
        char pname[64];
        snprintf(pname, sizeof pname, "%sCMAP_PARAMETER_%02lld", prefix, (long long)m + 1);
        VKMD_TRY(vkmd_prmtop_read_section(p, pname, 'E', 1, r * r, -1, &grid));
        for (int64_t k = 0; k < r * r; ++k)
            if (!isfinite(grid.d[k]) || fabs(grid.d[k]) > 1e6) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %%FLAG %s: value %lld = %g, expected a finite energy "
                                "in kcal/mol",
                                p->path, vkmd_prmtop_section_line(p, pname), pname,
                                (long long)k + 1, grid.d[k]);
                goto cleanup;
            }
        s->cmap_maps[m].resolution = (int32_t)r;
        s->cmap_maps[m].grid = grid.d;
        grid.d = NULL;
        vkmd_prmtop_values_free(&grid);
    }
    snprintf(name, sizeof name, "%sCMAP_INDEX", prefix);
    VKMD_TRY(vkmd_prmtop_read_section(p, name, 'I', 1, 6 * nterm, -1, &index));
    s->cmaps = calloc((size_t)nterm + 1, sizeof *s->cmaps);
    if (!s->cmaps) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %lld CMAP terms", p->path, (long long)nterm);
        goto cleanup;
    }
    for (int64_t t = 0; t < nterm; ++t) {
        const int64_t *q = &index.i[6 * t];
        const int32_t *ln = &index.line[6 * t];
        vkmd_cmap *c = &s->cmaps[t];
        int32_t *at[5] = {&c->i, &c->j, &c->k, &c->l, &c->m};
        for (int a = 0; a < 5; ++a)
            VKMD_TRY(vkmd_prmtop_plain_atom(p, name, "CMAP term", t, ln[a], q[a], natom, at[a]));
        VKMD_TRY(vkmd_prmtop_type_index(p, name, "CMAP term", t, ln[5], q[5], ntype, &c->map));
        ++s->cmap_count;
    }
cleanup:
    vkmd_prmtop_values_free(&resol);
    vkmd_prmtop_values_free(&grid);
    vkmd_prmtop_values_free(&index);
    return res;
}

/* Chamber sections: Urey-Bradley, harmonic impropers, 1-4 LJ tables. */
vkmd_result vkmd_prmtop_read_charmm(const vkmd_prmtop_file *p, int32_t natom, int64_t ntypes,
                                    const vkmd_prmtop_values *nbidx, vkmd_system *s)
{
    const int chamber = vkmd_prmtop_is_chamber(p);
    vkmd_result res = VKMD_OK;
    vkmd_prmtop_values ub = {0}, ubk = {0}, ubr = {0}, imp = {0}, impk = {0}, impp = {0}, a14 = {0},
                       b14 = {0}, ipol = {0};
    VKMD_TRY(vkmd_prmtop_read_section(p, "IPOL", 'I', 0, 1, -1, &ipol));
    if (ipol.present && ipol.i[0] != 0) {
        res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                        "%s:%d: %%FLAG IPOL = %lld: polarisable force fields are not supported",
                        p->path, ipol.line[0], (long long)ipol.i[0]);
        goto cleanup;
    }
    const int64_t nlj = ntypes * (ntypes + 1) / 2;
    VKMD_TRY(vkmd_prmtop_read_section(p, "LENNARD_JONES_14_ACOEF", 'E', chamber, nlj, -1, &a14));
    VKMD_TRY(vkmd_prmtop_read_section(p, "LENNARD_JONES_14_BCOEF", 'E', chamber || a14.present, nlj,
                                      -1, &b14));
    if (a14.present) {
        s->lj14_a = calloc((size_t)(ntypes * ntypes), sizeof *s->lj14_a);
        s->lj14_b = calloc((size_t)(ntypes * ntypes), sizeof *s->lj14_b);
        if (!s->lj14_a || !s->lj14_b) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: 1-4 LJ tables", p->path);
            goto cleanup;
        }
        /* NONBONDED_PARM_INDEX was checked by the normal tables; a negative
         * (10-12) entry has no 1-4 LJ. */
        for (int64_t k = 0; k < ntypes * ntypes; ++k) {
            const int64_t idx = nbidx->i[k];
            if (idx > 0 && idx <= nlj) {
                s->lj14_a[k] = a14.d[idx - 1];
                s->lj14_b[k] = b14.d[idx - 1];
            }
        }
    }
    if (!chamber)
        goto cleanup;

    int64_t cnt[2];
    VKMD_TRY(vkmd_prmtop_read_counts(p, "CHARMM_UREY_BRADLEY_COUNT", 2, cnt));
    const int64_t nub = cnt[0], nubt = cnt[1];
    VKMD_TRY(vkmd_prmtop_read_section(p, "CHARMM_UREY_BRADLEY", 'I', 1, 3 * nub, -1, &ub));
    VKMD_TRY(
        vkmd_prmtop_read_section(p, "CHARMM_UREY_BRADLEY_FORCE_CONSTANT", 'E', 1, nubt, -1, &ubk));
    VKMD_TRY(
        vkmd_prmtop_read_section(p, "CHARMM_UREY_BRADLEY_EQUIL_VALUE", 'E', 1, nubt, -1, &ubr));
    s->urey_bradleys = calloc((size_t)nub + 1, sizeof *s->urey_bradleys);
    if (!s->urey_bradleys) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %lld Urey-Bradley terms", p->path,
                        (long long)nub);
        goto cleanup;
    }
    for (int64_t e = 0; e < nub; ++e) {
        const int64_t *q = &ub.i[3 * e];
        const int32_t *ln = &ub.line[3 * e];
        vkmd_bond *b = &s->urey_bradleys[e];
        int32_t t = 0;
        VKMD_TRY(
            vkmd_prmtop_plain_atom(p, "CHARMM_UREY_BRADLEY", "term", e, ln[0], q[0], natom, &b->i));
        VKMD_TRY(
            vkmd_prmtop_plain_atom(p, "CHARMM_UREY_BRADLEY", "term", e, ln[1], q[1], natom, &b->j));
        VKMD_TRY(
            vkmd_prmtop_type_index(p, "CHARMM_UREY_BRADLEY", "term", e, ln[2], q[2], nubt, &t));
        b->k = ubk.d[t];
        b->r0 = ubr.d[t];
        s->urey_bradley_count = (int32_t)e + 1;
    }

    int64_t nimp, nimpt;
    VKMD_TRY(vkmd_prmtop_read_counts(p, "CHARMM_NUM_IMPROPERS", 1, &nimp));
    VKMD_TRY(vkmd_prmtop_read_counts(p, "CHARMM_NUM_IMPR_TYPES", 1, &nimpt));
    VKMD_TRY(vkmd_prmtop_read_section(p, "CHARMM_IMPROPERS", 'I', 1, 5 * nimp, -1, &imp));
    VKMD_TRY(
        vkmd_prmtop_read_section(p, "CHARMM_IMPROPER_FORCE_CONSTANT", 'E', 1, nimpt, -1, &impk));
    VKMD_TRY(vkmd_prmtop_read_section(p, "CHARMM_IMPROPER_PHASE", 'E', 1, nimpt, -1, &impp));
    s->impropers_harmonic = calloc((size_t)nimp + 1, sizeof *s->impropers_harmonic);
    if (!s->impropers_harmonic) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: %lld impropers", p->path, (long long)nimp);
        goto cleanup;
    }
    for (int64_t e = 0; e < nimp; ++e) {
        const int64_t *q = &imp.i[5 * e];
        const int32_t *ln = &imp.line[5 * e];
        vkmd_improper_harmonic *d = &s->impropers_harmonic[e];
        int32_t *at[4] = {&d->i, &d->j, &d->k, &d->l};
        int32_t t = 0;
        for (int a = 0; a < 4; ++a)
            VKMD_TRY(vkmd_prmtop_plain_atom(p, "CHARMM_IMPROPERS", "improper", e, ln[a], q[a],
                                            natom, at[a]));
        VKMD_TRY(
            vkmd_prmtop_type_index(p, "CHARMM_IMPROPERS", "improper", e, ln[4], q[4], nimpt, &t));
        d->k_psi = impk.d[t];
        /* Radians (the %COMMENT says so); files from old ParmEd versions hold
         * degrees, which ParmEd itself recognises as |phase| > 2 pi. */
        d->psi0 = fabs(impp.d[t]) <= 2 * M_PI ? impp.d[t] : impp.d[t] * (M_PI / 180.0);
        s->improper_harmonic_count = (int32_t)e + 1;
    }
cleanup:
    vkmd_prmtop_values_free(&ub);
    vkmd_prmtop_values_free(&ubk);
    vkmd_prmtop_values_free(&ubr);
    vkmd_prmtop_values_free(&imp);
    vkmd_prmtop_values_free(&impk);
    vkmd_prmtop_values_free(&impp);
    vkmd_prmtop_values_free(&a14);
    vkmd_prmtop_values_free(&b14);
    vkmd_prmtop_values_free(&ipol);
    return res;
}
