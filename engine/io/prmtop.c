/* AMBER prmtop reader (see prmtop.h).
 *
 * The file is indexed once into %FLAG sections; each section is then read
 * with its own %FORMAT into a growable array, so a wrong count in POINTERS
 * gives "expected N values, found M" instead of a huge allocation. Every
 * message names path:line and the section. */
#include "io/prmtop.h"
#include "io/prmtop_sections.h"
#include "system/vsite.h"

#include "core/log.h"
#include "system/element.h"
#include "io/text.h"
#include "system/ff_settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    P_NATOM = 0,
    P_NTYPES,
    P_NBONH,
    P_MBONA,
    P_NTHETH,
    P_MTHETA,
    P_NPHIH,
    P_MPHIA,
    P_NHPARM,
    P_NPARM,
    P_NNB,
    P_NRES,
    P_NBONA,
    P_NTHETA,
    P_NPHIA,
    P_NUMBND,
    P_NUMANG,
    P_NPTRA,
    P_NATYP,
    P_NPHB,
    P_IFPERT,
    P_NBPER,
    P_NGPER,
    P_NDPER,
    P_MBPER,
    P_MGPER,
    P_MDPER,
    P_IFBOX,
    P_NMXRS,
    P_IFCAP,
    P_NUMEXTRA,
    P_MIN_COUNT = 30
};

static const char *const pointer_names[] = {
    "NATOM",  "NTYPES", "NBONH", "MBONA", "NTHETH", "MTHETA", "NPHIH",   "MPHIA",
    "NHPARM", "NPARM",  "NNB",   "NRES",  "NBONA",  "NTHETA", "NPHIA",   "NUMBND",
    "NUMANG", "NPTRA",  "NATYP", "NPHB",  "IFPERT", "NBPER",  "NGPER",   "NDPER",
    "MBPER",  "MGPER",  "MDPER", "IFBOX", "NMXRS",  "IFCAP",  "NUMEXTRA"};

/* Water residue names for SETTLE; TP4, TP5, T4E and OPC are 4- and 5-site
 * water names (OpenMM's AMBER reader knows the first three). */
static int is_water_name(const char *r)
{
    return !strcmp(r, "WAT") || !strcmp(r, "HOH") || !strcmp(r, "TIP3") || !strcmp(r, "SOL") ||
           !strcmp(r, "TP4") || !strcmp(r, "TP5") || !strcmp(r, "T4E") || !strcmp(r, "OPC");
}

/* Extra points (massless atoms, AMBER EP/LP) among atoms first..next-1;
 * a 4- or 5-site water counts as its 3 massive atoms for SETTLE. */
static int32_t massless_in(const vkmd_system *s, int32_t first, int32_t next)
{
    int32_t k = 0;
    for (int32_t a = first; a < next; ++a)
        k += s->atoms[a].mass == 0;
    return k;
}

/* Extra points: the frames of the massless atoms (system/vsite.h derives
 * them from the water residues, as OpenMM's AMBER reader does); NUMEXTRA
 * must count them. */
static vkmd_result read_extra_points(vkmd_system *s, const vkmd_prmtop_values *ptr,
                                     const char *path)
{
    VKMD_TRY_RETURN(vkmd_vsite_from_amber_waters(s, path));
    const int64_t numextra = ptr->count > P_NUMEXTRA ? ptr->i[P_NUMEXTRA] : 0;
    if (numextra != s->vsite_count)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                         "%s:%d: %%FLAG POINTERS: NUMEXTRA = %lld: extra points declared, but %d "
                         "atoms are massless; vkmd finds extra points by mass 0, as tleap "
                         "writes them, and cannot place these",
                         path, ptr->count > P_NUMEXTRA ? ptr->line[P_NUMEXTRA] : 1,
                         (long long)numextra, s->vsite_count);
    return VKMD_OK;
}

typedef struct cand14 {
    int32_t i, j;
    int64_t order;
    double scee, scnb;
} cand14;

static int cand14_cmp(const void *pa, const void *pb)
{
    const cand14 *a = pa, *b = pb;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    if (a->j != b->j)
        return a->j < b->j ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static int cand14_order_cmp(const void *pa, const void *pb)
{
    const cand14 *a = pa, *b = pb;
    return (a->order > b->order) - (a->order < b->order);
}

/* The generalized Born radii (A) and screening factors (RADII, SCREEN) and
 * the RADIUS_SET line, kept only when both sections are there; values
 * must be finite and >= 0. */
static vkmd_result read_gb_params(const vkmd_prmtop_file *p, int32_t natom,
                                  const vkmd_prmtop_values *radii, const vkmd_prmtop_values *screen,
                                  vkmd_system *s)
{
    const vkmd_prmtop_section *set = vkmd_prmtop_find_section(p, "RADIUS_SET");
    if (set && set->begin < set->end && set->begin < p->text.line_count)
        vkmd_text_field_str(p->text.lines[set->begin], p->text.lens[set->begin], s->gb_radius_set,
                            sizeof s->gb_radius_set);
    if (!radii->present || !screen->present)
        return VKMD_OK;
    const vkmd_prmtop_values *v[2] = {radii, screen};
    const char *name[2] = {"RADII", "SCREEN"};
    for (int k = 0; k < 2; ++k)
        for (int32_t a = 0; a < natom; ++a)
            if (!(v[k]->d[a] >= 0) || !isfinite(v[k]->d[a]))
                return vkmd_fail(VKMD_ERROR_PARSE,
                                 "%s:%d: %%FLAG %s: atom %d has %g, expected a finite value >= 0",
                                 p->path, vkmd_prmtop_section_line(p, name[k]), name[k], a + 1,
                                 v[k]->d[a]);
    s->gb_radius = malloc((size_t)natom * sizeof *s->gb_radius);
    s->gb_screen = malloc((size_t)natom * sizeof *s->gb_screen);
    if (!s->gb_radius || !s->gb_screen)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory for the GB radii", p->path);
    memcpy(s->gb_radius, radii->d, (size_t)natom * sizeof *s->gb_radius);
    memcpy(s->gb_screen, screen->d, (size_t)natom * sizeof *s->gb_screen);
    s->gb_params_present = 1;
    return VKMD_OK;
}

/* Refuses sections that carry physics vkmd does not compute. */
static vkmd_result check_unsupported_sections(const vkmd_prmtop_file *p)
{
    static const struct {
        const char *flag, *what;
    } refuse[] = {
        {"AMOEBA_FORCEFIELD", "AMOEBA prmtops are not supported"},
    };
    for (size_t k = 0; k < sizeof refuse / sizeof *refuse; ++k) {
        const vkmd_prmtop_section *s = vkmd_prmtop_find_section(p, refuse[k].flag);
        if (s)
            return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s:%d: %%FLAG %s: %s", p->path,
                             s->flag_line + 1, refuse[k].flag, refuse[k].what);
    }
    return VKMD_OK;
}

vkmd_result vkmd_prmtop_read(const char *path, vkmd_system *out)
{
    memset(out, 0, sizeof *out);
    vkmd_prmtop_file p = {.path = path};
    vkmd_system s = {0};
    vkmd_result res = VKMD_OK;
    vkmd_prmtop_values ptr = {0}, names = {0}, charge = {0}, znum = {0}, mass = {0}, tidx = {0},
                       nexcl = {0}, excl = {0}, nbidx = {0}, acoef = {0}, bcoef = {0}, hba = {0},
                       hbb = {0}, ccoef = {0}, rlab = {0}, rptr = {0}, bk = {0}, br = {0}, ak = {0},
                       at = {0}, dk = {0}, dn = {0}, dp = {0}, scee = {0}, scnb = {0}, bh = {0},
                       ba = {0}, ah = {0}, aa = {0}, dh = {0}, da = {0}, atype = {0}, box = {0},
                       radii = {0}, screen = {0};
    cand14 *cands = NULL;

    VKMD_TRY(vkmd_text_read(path, &p.text));
    if (p.text.size == 0) {
        res =
            vkmd_fail(VKMD_ERROR_PARSE, "%s:1: the file is empty (expected an AMBER prmtop)", path);
        goto cleanup;
    }
    if (vkmd_text_is_netcdf(&p.text)) {
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:1: expected an AMBER prmtop, found a binary NetCDF file", path);
        goto cleanup;
    }
    VKMD_TRY(vkmd_prmtop_index_sections(&p));
    VKMD_TRY(check_unsupported_sections(&p));

    /* POINTERS */
    VKMD_TRY(vkmd_prmtop_read_section(&p, "POINTERS", 'I', 1, -1, -1, &ptr));
    if (!ptr.present) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: %%FLAG POINTERS: required section is missing", path);
        goto cleanup;
    }
    if (ptr.count < P_MIN_COUNT) {
        const vkmd_prmtop_section *sp = vkmd_prmtop_find_section(&p, "POINTERS");
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s:%d: %%FLAG POINTERS: expected at least %d values, "
                        "found %lld",
                        path, sp->end, P_MIN_COUNT, (long long)ptr.count);
        goto cleanup;
    }
    for (int k = 0; k < P_MIN_COUNT + 1 && k < ptr.count; ++k) {
        int64_t lim = k == P_NATOM ? MAX_ATOMS : k == P_NTYPES ? MAX_TYPES : MAX_COUNT;
        int64_t lo = (k == P_NATOM || k == P_NTYPES) ? 1 : 0;
        if (ptr.i[k] < lo || ptr.i[k] > lim) {
            res = vkmd_fail(
                VKMD_ERROR_PARSE, "%s:%d: %%FLAG POINTERS: %s = %lld, expected %lld..%lld", path,
                ptr.line[k], pointer_names[k], (long long)ptr.i[k], (long long)lo, (long long)lim);
            goto cleanup;
        }
    }
    const int32_t natom = (int32_t)ptr.i[P_NATOM];
    const int64_t ntypes = ptr.i[P_NTYPES];
    const int64_t nres = ptr.i[P_NRES], nnb = ptr.i[P_NNB], nphb = ptr.i[P_NPHB];
    const int64_t numbnd = ptr.i[P_NUMBND], numang = ptr.i[P_NUMANG], nptra = ptr.i[P_NPTRA];
    const int64_t ifbox = ptr.i[P_IFBOX];
    {
        const char *why = NULL;
        int k = -1;
        /* NUMEXTRA > 0: extra points, read as massless atoms and given their
         * frames below (read_extra_points). */
        if (ptr.i[P_IFPERT] > 0)
            k = P_IFPERT, why = "perturbation data (IFPERT) is not supported";
        else if (ptr.i[P_IFCAP] > 0)
            k = P_IFCAP, why = "solvent caps (IFCAP) are not supported";
        if (why) {
            res = vkmd_fail(VKMD_ERROR_UNSUPPORTED, "%s:%d: %%FLAG POINTERS: %s = %lld: %s", path,
                            ptr.line[k], pointer_names[k], (long long)ptr.i[k], why);
            goto cleanup;
        }
    }

    /* Sections in the order tleap writes them, so a truncated file reports
     * the section it ends in rather than a later one as missing. Topology
     * counts may include constraint/perturbed extras (NBONA vs MBONA). */
    VKMD_TRY(vkmd_prmtop_read_section(&p, "ATOM_NAME", 'A', 1, natom, -1, &names));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "CHARGE", 'E', 1, natom, -1, &charge));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "ATOMIC_NUMBER", 'I', 0, natom, -1, &znum));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "MASS", 'E', 1, natom, -1, &mass));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "ATOM_TYPE_INDEX", 'I', 1, natom, -1, &tidx));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "NUMBER_EXCLUDED_ATOMS", 'I', 1, natom, -1, &nexcl));
    VKMD_TRY(
        vkmd_prmtop_read_section(&p, "NONBONDED_PARM_INDEX", 'I', 1, ntypes * ntypes, -1, &nbidx));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "RESIDUE_LABEL", 'A', 1, nres, -1, &rlab));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "RESIDUE_POINTER", 'I', 1, nres, -1, &rptr));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "BOND_FORCE_CONSTANT", 'E', 1, numbnd, -1, &bk));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "BOND_EQUIL_VALUE", 'E', 1, numbnd, -1, &br));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "ANGLE_FORCE_CONSTANT", 'E', 1, numang, -1, &ak));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "ANGLE_EQUIL_VALUE", 'E', 1, numang, -1, &at));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "DIHEDRAL_FORCE_CONSTANT", 'E', 1, nptra, -1, &dk));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "DIHEDRAL_PERIODICITY", 'E', 1, nptra, -1, &dn));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "DIHEDRAL_PHASE", 'E', 1, nptra, -1, &dp));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "SCEE_SCALE_FACTOR", 'E', 0, nptra, -1, &scee));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "SCNB_SCALE_FACTOR", 'E', 0, nptra, -1, &scnb));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "LENNARD_JONES_ACOEF", 'E', 1, ntypes * (ntypes + 1) / 2,
                                      -1, &acoef));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "LENNARD_JONES_BCOEF", 'E', 1, ntypes * (ntypes + 1) / 2,
                                      -1, &bcoef));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "LENNARD_JONES_CCOEF", 'E', 0, ntypes * (ntypes + 1) / 2,
                                      -1, &ccoef));
    VKMD_TRY(
        vkmd_prmtop_read_section(&p, "BONDS_INC_HYDROGEN", 'I', 1, 3 * ptr.i[P_NBONH], -1, &bh));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "BONDS_WITHOUT_HYDROGEN", 'I', 1, 3 * ptr.i[P_MBONA],
                                      3 * ptr.i[P_NBONA], &ba));
    VKMD_TRY(
        vkmd_prmtop_read_section(&p, "ANGLES_INC_HYDROGEN", 'I', 1, 4 * ptr.i[P_NTHETH], -1, &ah));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "ANGLES_WITHOUT_HYDROGEN", 'I', 1, 4 * ptr.i[P_MTHETA],
                                      4 * ptr.i[P_NTHETA], &aa));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "DIHEDRALS_INC_HYDROGEN", 'I', 1, 5 * ptr.i[P_NPHIH], -1,
                                      &dh));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "DIHEDRALS_WITHOUT_HYDROGEN", 'I', 1, 5 * ptr.i[P_MPHIA],
                                      5 * ptr.i[P_NPHIA], &da));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "EXCLUDED_ATOMS_LIST", 'I', 1, nnb, -1, &excl));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "HBOND_ACOEF", 'E', 0, nphb, -1, &hba));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "HBOND_BCOEF", 'E', 0, nphb, -1, &hbb));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "AMBER_ATOM_TYPE", 'A', 0, natom, -1, &atype));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "RADII", 'E', 0, natom, -1, &radii));
    VKMD_TRY(vkmd_prmtop_read_section(&p, "SCREEN", 'E', 0, natom, -1, &screen));

    /* Title */
    {
        const vkmd_prmtop_section *st = vkmd_prmtop_find_section(&p, "TITLE");
        if (!st)
            st = vkmd_prmtop_find_section(&p, "CTITLE");
        if (st && st->begin < st->end && st->begin < p.text.line_count)
            vkmd_text_field_str(p.text.lines[st->begin], p.text.lens[st->begin], s.title,
                                sizeof s.title);
    }

    /* Atoms. Chamber files store charges times sqrt(332.0716), CHARMM's
     * Coulomb constant (ParmEd's CHARMM_ELECTROSTATIC), not AMBER's 18.2223. */
    const double qscale = vkmd_prmtop_is_chamber(&p) ? sqrt(332.0716) : VKMD_AMBER_CHARGE_SCALE;
    s.atom_count = natom;
    s.atoms = calloc((size_t)natom, sizeof *s.atoms);
    s.lj_type_count = (int32_t)ntypes;
    s.lj_a = calloc((size_t)(ntypes * ntypes), sizeof *s.lj_a);
    s.lj_b = calloc((size_t)(ntypes * ntypes), sizeof *s.lj_b);
    if (!s.atoms || !s.lj_a || !s.lj_b) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory for %d atoms", path, natom);
        goto cleanup;
    }
    for (int32_t a = 0; a < natom; ++a) {
        vkmd_atom *x = &s.atoms[a];
        snprintf(x->name, sizeof x->name, "%s", names.s[a]);
        if (atype.present)
            snprintf(x->type_name, sizeof x->type_name, "%s", atype.s[a]);
        x->charge = charge.d[a] / qscale;
        x->mass = mass.d[a];
        if (!(x->mass >= 0)) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s: %%FLAG MASS: atom %d (%s) has mass %g, "
                            "expected >= 0",
                            path, a + 1, x->name, x->mass);
            goto cleanup;
        }
        if (znum.present)
            x->element = znum.i[a] > 0 && znum.i[a] < 200 ? (int32_t)znum.i[a] : 0;
        else
            x->element = vkmd_element_from_mass(x->mass);
        VKMD_TRY(vkmd_prmtop_type_index(&p, "ATOM_TYPE_INDEX", "atom", a, tidx.line[a], tidx.i[a],
                                        ntypes, &x->lj_type));
    }

    /* Residues */
    for (int64_t r = 0; r < nres; ++r) {
        int64_t first = rptr.i[r];
        int64_t next = r + 1 < nres ? rptr.i[r + 1] : natom + 1;
        if ((r == 0 && first != 1) || first < 1 || next <= first || next > natom + 1) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s:%d: %%FLAG RESIDUE_POINTER: residue %lld starts at atom %lld, "
                            "expected increasing first atoms from 1 up to %d",
                            path, rptr.line[r], (long long)r + 1, (long long)first, natom);
            goto cleanup;
        }
        for (int64_t a = first - 1; a < next - 1; ++a) {
            s.atoms[a].res_index = (int32_t)r;
            snprintf(s.atoms[a].res_name, sizeof s.atoms[a].res_name, "%s", rlab.s[r]);
        }
    }

    /* LJ type tables: NONBONDED_PARM_INDEX[nt*i+j] points into ACOEF/BCOEF
     * (1-based); a negative index selects a 10-12 H-bond pair instead. */
    for (int64_t ti = 0; ti < ntypes; ++ti) {
        for (int64_t tj = 0; tj < ntypes; ++tj) {
            int64_t k = ti * ntypes + tj;
            int64_t idx = nbidx.i[k];
            const int64_t nlj = ntypes * (ntypes + 1) / 2;
            if (idx != nbidx.i[tj * ntypes + ti]) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %%FLAG NONBONDED_PARM_INDEX: entry (%lld,%lld) = %lld "
                                "differs from (%lld,%lld) = %lld; expected a symmetric matrix",
                                path, nbidx.line[k], (long long)ti + 1, (long long)tj + 1,
                                (long long)idx, (long long)tj + 1, (long long)ti + 1,
                                (long long)nbidx.i[tj * ntypes + ti]);
                goto cleanup;
            }
            if (idx > 0 && idx <= nlj) {
                s.lj_a[k] = acoef.d[idx - 1];
                s.lj_b[k] = bcoef.d[idx - 1];
                if (ccoef.present && ccoef.d[idx - 1] != 0) {
                    res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                                    "%s: %%FLAG LENNARD_JONES_CCOEF: 12-6-4 ion terms are not "
                                    "supported (entry %lld = %g)",
                                    path, (long long)idx, ccoef.d[idx - 1]);
                    goto cleanup;
                }
            } else if (idx < 0 && -idx <= nphb && hba.present && hbb.present) {
                if (hba.d[-idx - 1] != 0 || hbb.d[-idx - 1] != 0) {
                    res = vkmd_fail(VKMD_ERROR_UNSUPPORTED,
                                    "%s:%d: %%FLAG NONBONDED_PARM_INDEX: types %lld-%lld use a "
                                    "10-12 hydrogen-bond term (HBOND_ACOEF %g, HBOND_BCOEF %g); "
                                    "10-12 terms are not supported",
                                    path, nbidx.line[k], (long long)ti + 1, (long long)tj + 1,
                                    hba.d[-idx - 1], hbb.d[-idx - 1]);
                    goto cleanup;
                }
            } else {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %%FLAG NONBONDED_PARM_INDEX: entry %lld = %lld, expected "
                                "1..%lld (or -1..-%lld with HBOND_ACOEF/BCOEF)",
                                path, nbidx.line[k], (long long)k + 1, (long long)idx,
                                (long long)nlj, (long long)nphb);
                goto cleanup;
            }
        }
    }

    /* Bonds */
    s.bond_count = (int32_t)(bh.count / 3 + ba.count / 3);
    s.bonds = calloc((size_t)s.bond_count + 1, sizeof *s.bonds);
    s.angle_count = (int32_t)(ah.count / 4 + aa.count / 4);
    s.angles = calloc((size_t)s.angle_count + 1, sizeof *s.angles);
    s.dihedral_count = (int32_t)(dh.count / 5 + da.count / 5);
    s.dihedrals = calloc((size_t)s.dihedral_count + 1, sizeof *s.dihedrals);
    cands = calloc((size_t)s.dihedral_count + 1, sizeof *cands);
    if (!s.bonds || !s.angles || !s.dihedrals || !cands) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    {
        int32_t nb = 0;
        const vkmd_prmtop_values *lists[2] = {&bh, &ba};
        const char *secs[2] = {"BONDS_INC_HYDROGEN", "BONDS_WITHOUT_HYDROGEN"};
        for (int w = 0; w < 2; ++w) {
            const vkmd_prmtop_values *v = lists[w];
            for (int64_t e = 0; e < v->count / 3; ++e) {
                const int64_t *q = &v->i[3 * e];
                const int32_t *ln = &v->line[3 * e];
                vkmd_bond *b = &s.bonds[nb++];
                int32_t t;
                VKMD_TRY(vkmd_prmtop_atom_index(&p, secs[w], "bond", e, ln[0], q[0], natom, &b->i));
                VKMD_TRY(vkmd_prmtop_atom_index(&p, secs[w], "bond", e, ln[1], q[1], natom, &b->j));
                VKMD_TRY(vkmd_prmtop_type_index(&p, secs[w], "bond", e, ln[2], q[2], numbnd, &t));
                b->k = bk.d[t];
                b->r0 = br.d[t];
            }
        }
    }
    {
        int32_t na = 0;
        const vkmd_prmtop_values *lists[2] = {&ah, &aa};
        const char *secs[2] = {"ANGLES_INC_HYDROGEN", "ANGLES_WITHOUT_HYDROGEN"};
        for (int w = 0; w < 2; ++w) {
            const vkmd_prmtop_values *v = lists[w];
            for (int64_t e = 0; e < v->count / 4; ++e) {
                const int64_t *q = &v->i[4 * e];
                const int32_t *ln = &v->line[4 * e];
                vkmd_angle *g = &s.angles[na++];
                int32_t t;
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "angle", e, ln[0], q[0], natom, &g->i));
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "angle", e, ln[1], q[1], natom, &g->j));
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "angle", e, ln[2], q[2], natom, &g->k));
                VKMD_TRY(vkmd_prmtop_type_index(&p, secs[w], "angle", e, ln[3], q[3], numang, &t));
                g->k_theta = ak.d[t];
                g->theta0 = at.d[t];
            }
        }
    }
    int32_t ncand = 0;
    {
        int32_t nd = 0;
        const vkmd_prmtop_values *lists[2] = {&dh, &da};
        const char *secs[2] = {"DIHEDRALS_INC_HYDROGEN", "DIHEDRALS_WITHOUT_HYDROGEN"};
        for (int w = 0; w < 2; ++w) {
            const vkmd_prmtop_values *v = lists[w];
            for (int64_t e = 0; e < v->count / 5; ++e) {
                const int64_t *q = &v->i[5 * e];
                const int32_t *ln = &v->line[5 * e];
                vkmd_dihedral *d = &s.dihedrals[nd++];
                int32_t t;
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "dihedral", e, ln[0], q[0], natom, &d->i));
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "dihedral", e, ln[1], q[1], natom, &d->j));
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "dihedral", e, ln[2], q[2], natom, &d->k));
                VKMD_TRY(
                    vkmd_prmtop_atom_index(&p, secs[w], "dihedral", e, ln[3], q[3], natom, &d->l));
                VKMD_TRY(
                    vkmd_prmtop_type_index(&p, secs[w], "dihedral", e, ln[4], q[4], nptra, &t));
                double n = fabs(dn.d[t]);
                if (n > 1000) {
                    res = vkmd_fail(VKMD_ERROR_PARSE,
                                    "%s: %%FLAG DIHEDRAL_PERIODICITY: type %d has periodicity "
                                    "%g, expected 0..1000",
                                    path, t + 1, dn.d[t]);
                    goto cleanup;
                }
                d->k_phi = dk.d[t];
                d->phase = dp.d[t];
                d->periodicity = (int32_t)lround(n);
                d->improper = q[3] < 0;
                if (q[2] >= 0 && q[3] >= 0 && d->i != d->l) {
                    cand14 *c = &cands[ncand++];
                    c->i = d->i < d->l ? d->i : d->l;
                    c->j = d->i < d->l ? d->l : d->i;
                    c->order = nd;
                    c->scee = scee.present ? scee.d[t] : 1.2;
                    c->scnb = scnb.present ? scnb.d[t] : 2.0;
                    if (!(c->scee > 0) || !(c->scnb > 0)) {
                        res = vkmd_fail(VKMD_ERROR_PARSE,
                                        "%s:%d: %%FLAG %s: dihedral %lld computes a 1-4 pair but "
                                        "its type %d has SCEE %g / SCNB %g, expected > 0",
                                        path, ln[0], secs[w], (long long)e + 1, t + 1, c->scee,
                                        c->scnb);
                        goto cleanup;
                    }
                }
            }
        }
    }
    /* 1-4 pairs: de-duplicate identical pairs keeping the first. */
    if (ncand > 0) {
        qsort(cands, (size_t)ncand, sizeof *cands, cand14_cmp);
        int32_t u = 1;
        for (int32_t c = 1; c < ncand; ++c)
            if (cands[c].i != cands[u - 1].i || cands[c].j != cands[u - 1].j)
                cands[u++] = cands[c];
        ncand = u;
        qsort(cands, (size_t)ncand, sizeof *cands, cand14_order_cmp);
    }
    s.pair14_count = ncand;
    s.pairs14 = calloc((size_t)ncand + 1, sizeof *s.pairs14);
    /* Exclusions: EXCLUDED_ATOMS_LIST (1-based, 0 = none) plus every 1-4 pair. */
    s.exclusions = calloc((size_t)(nnb + ncand) + 1, sizeof *s.exclusions);
    if (!s.pairs14 || !s.exclusions) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto cleanup;
    }
    for (int32_t c = 0; c < ncand; ++c)
        s.pairs14[c] = (vkmd_pair14){cands[c].i, cands[c].j, cands[c].scee, cands[c].scnb};
    {
        int64_t pos = 0, ne = 0;
        for (int32_t a = 0; a < natom; ++a) {
            int64_t cnt = nexcl.i[a];
            if (cnt < 0 || cnt > nnb - pos) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %%FLAG NUMBER_EXCLUDED_ATOMS: atom %d has %lld "
                                "exclusions; the counts must add up to NNB = %lld",
                                path, nexcl.line[a], a + 1, (long long)cnt, (long long)nnb);
                goto cleanup;
            }
            for (int64_t e = pos; e < pos + cnt; ++e) {
                int64_t j = excl.i[e];
                if (j == 0)
                    continue;
                if (j < 1 || j > natom) {
                    res = vkmd_fail(VKMD_ERROR_PARSE,
                                    "%s:%d: %%FLAG EXCLUDED_ATOMS_LIST: entry %lld = %lld, "
                                    "expected an atom number 1..%d or 0",
                                    path, excl.line[e], (long long)e + 1, (long long)j, natom);
                    goto cleanup;
                }
                s.exclusions[ne++] = (vkmd_pair){a, (int32_t)(j - 1)};
            }
            pos += cnt;
        }
        if (pos != nnb) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s: %%FLAG NUMBER_EXCLUDED_ATOMS: the counts add up to %lld, "
                            "expected NNB = %lld",
                            path, (long long)pos, (long long)nnb);
            goto cleanup;
        }
        for (int32_t c = 0; c < ncand; ++c)
            s.exclusions[ne++] = (vkmd_pair){cands[c].i, cands[c].j};
        s.exclusion_count = (int32_t)ne;
    }

    /* Rigid waters */
    {
        int32_t nw = 0;
        s.waters = calloc((size_t)nres + 1, sizeof *s.waters);
        if (!s.waters) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
            goto cleanup;
        }
        for (int64_t r = 0; r < nres; ++r) {
            int32_t first = (int32_t)rptr.i[r] - 1;
            int32_t next = r + 1 < nres ? (int32_t)rptr.i[r + 1] - 1 : natom;
            if (next - first - massless_in(&s, first, next) != 3 || !is_water_name(rlab.s[r]))
                continue;
            int32_t o = -1, h[2], nh = 0;
            for (int32_t a = first; a < next; ++a) {
                if (s.atoms[a].element == 8 && o < 0)
                    o = a;
                else if (s.atoms[a].element == 1 && nh < 2)
                    h[nh++] = a;
            }
            if (o >= 0 && nh == 2)
                s.waters[nw++] = (vkmd_water){o, h[0], h[1]};
        }
        s.water_count = nw;
    }

    VKMD_TRY(read_gb_params(&p, natom, &radii, &screen, &s));
    VKMD_TRY(vkmd_prmtop_read_charmm(&p, natom, ntypes, &nbidx, &s));
    VKMD_TRY(vkmd_prmtop_read_cmap(&p, natom, &s));

    /* Box */
    if (ifbox > 0) {
        VKMD_TRY(vkmd_prmtop_read_section(&p, "BOX_DIMENSIONS", 'E', 1, 4, -1, &box));
        const vkmd_prmtop_section *sb = vkmd_prmtop_find_section(&p, "BOX_DIMENSIONS");
        const int line = sb->begin + 1;
        if (ifbox > 3) {
            res = vkmd_fail(VKMD_ERROR_PARSE,
                            "%s: %%FLAG POINTERS: IFBOX = %lld, expected 0 (no box), 1 "
                            "(rectangular or triclinic), 2 (truncated octahedron) or 3 (general "
                            "triclinic)",
                            path, (long long)ifbox);
            goto cleanup;
        }
        for (int d = 0; d < 3; ++d) {
            if (!(box.d[d + 1] > 0)) {
                res = vkmd_fail(VKMD_ERROR_PARSE,
                                "%s:%d: %%FLAG BOX_DIMENSIONS: box edge %c = %g, expected > 0",
                                path, line, "abc"[d], box.d[d + 1]);
                goto cleanup;
            }
        }
        if (ifbox == 1 && fabs(box.d[0] - 90.0) <= 1e-3) {
            vkmd_box_set_rect(&s.box, &box.d[1]);
        } else {
            /* The file has beta only: all three angles are beta, as OpenMM's
             * AmberPrmtopFile reads it (an octahedron's 109.4712 degrees);
             * an inpcrd/rst7 box line, which has all three, replaces it. */
            const double angles[3] = {box.d[0], box.d[0], box.d[0]};
            char where[600];
            snprintf(where, sizeof where, "%s:%d: %%FLAG BOX_DIMENSIONS (IFBOX = %lld)", path, line,
                     (long long)ifbox);
            VKMD_TRY(vkmd_box_set(&s.box, &box.d[1], angles, where));
        }
    }

    VKMD_TRY(vkmd_system_finalize(&s, path));
    VKMD_TRY(read_extra_points(&s, &ptr, path));
    vkmd_log_debug("%s: %d atoms, %d LJ types, %d bonds, %d angles, %d dihedrals, %d 1-4 pairs, "
                   "%d exclusions, %d waters",
                   path, s.atom_count, s.lj_type_count, s.bond_count, s.angle_count,
                   s.dihedral_count, s.pair14_count, s.exclusion_count, s.water_count);
    *out = s;
    memset(&s, 0, sizeof s);

cleanup:
    vkmd_system_destroy(&s);
    free(cands);
    vkmd_prmtop_values *all[] = {
        &ptr,  &names, &charge, &znum, &mass, &tidx, &nexcl, &excl,  &nbidx, &acoef, &bcoef, &hba,
        &hbb,  &ccoef, &rlab,   &rptr, &bk,   &br,   &ak,    &at,    &dk,    &dn,    &dp,    &scee,
        &scnb, &bh,    &ba,     &ah,   &aa,   &dh,   &da,    &atype, &box,   &radii, &screen};
    for (size_t k = 0; k < sizeof all / sizeof *all; ++k)
        vkmd_prmtop_values_free(all[k]);
    free(p.secs);
    vkmd_text_free(&p.text);
    return res;
}
