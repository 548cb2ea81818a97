/* OpenMM reference data: reader and comparison (see openmm_data.h). */
#include "openmm_data.h"

#include "io/load.h"
#include "io/prmtop.h"
#include "ref/ref.h"
#include "system/ff_settings.h"
#include "testlib.h"
#include "tolerance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Central tolerance of the external check: relative, or absolute for terms
 * near zero (kcal/mol). Both sides are double precision on the same file. */
#define OPENMM_REL_TOL TOL_OPENMM_ENERGY_REL
#define OPENMM_ABS_TOL TOL_OPENMM_ENERGY_ABS

/* Splits `line` into at most `max` whitespace-separated words (in place). */
static int split_words(char *line, char **words, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t\r", &save); w && n < max; w = strtok_r(NULL, " \t\r", &save))
        words[n++] = w;
    return n;
}

static int parse_double(const char *s, double *out)
{
    char *end = NULL;
    *out = strtod(s, &end);
    return end != s && *end == 0 && isfinite(*out);
}

static int parse_int(const char *s, int *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    *out = (int)v;
    return end != s && *end == 0 && v >= 0 && v < (1L << 30);
}

/* Parses words[1..count] as doubles into out[]. */
static int parse_doubles(char **words, int nwords, int count, double *out)
{
    if (nwords != count + 1)
        return 0;
    for (int k = 0; k < count; ++k)
        if (!parse_double(words[k + 1], &out[k]))
            return 0;
    return 1;
}

static int parse_ints(char **words, int nwords, int count, int *out)
{
    if (nwords != count + 1)
        return 0;
    for (int k = 0; k < count; ++k)
        if (!parse_int(words[k + 1], &out[k]))
            return 0;
    return 1;
}

vkmd_result openmm_data_load(const char *path, openmm_data *out)
{
    memset(out, 0, sizeof *out);
    char *buf = test_read_file(path, NULL);
    if (!buf)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot read", path);
    vkmd_result res = VKMD_OK;
    out->box_angles_deg[0] = out->box_angles_deg[1] = out->box_angles_deg[2] = 90.0;
    int have_system = 0, have_atoms = 0, forces_read = -1, lineno = 0;
    char *next = buf;
    while (next && *next) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        ++lineno;
        if (line[0] == '#') {
            if (!out->header[0])
                snprintf(out->header, sizeof out->header, "%s", line + 1 + (line[1] == ' '));
            continue;
        }
        char *w[8];
        int n = split_words(line, w, 8);
        if (n == 0)
            continue;
        const char *key = w[0];
        int ok = 1;
        if (forces_read >= 0 && forces_read < out->atom_count) {
            ok = n == 3;
            for (int k = 0; ok && k < 3; ++k)
                ok = parse_double(w[k], &out->forces[3 * forces_read + k]);
            if (!ok) {
                res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: expected three force components", path,
                                lineno);
                goto cleanup;
            }
            ++forces_read;
            continue;
        }
        if (!strcmp(key, "system")) {
            ok = n == 2;
            if (ok)
                snprintf(out->system, sizeof out->system, "%s", w[1]);
            have_system = ok;
        } else if (!strcmp(key, "atoms")) {
            ok = n == 2 && parse_int(w[1], &out->atom_count) && out->atom_count > 0;
            have_atoms = ok;
        } else if (!strcmp(key, "periodic")) {
            ok = parse_ints(w, n, 1, &out->periodic) && out->periodic <= 1;
        } else if (!strcmp(key, "box_a")) {
            ok = parse_doubles(w, n, 3, out->box_a);
        } else if (!strcmp(key, "box_angles_deg")) {
            ok = parse_doubles(w, n, 3, out->box_angles_deg);
        } else if (!strcmp(key, "cutoff_a")) {
            ok = parse_doubles(w, n, 1, &out->cutoff_a);
        } else if (!strcmp(key, "ewald_tolerance")) {
            ok = parse_doubles(w, n, 1, &out->ewald_tolerance);
        } else if (!strcmp(key, "ewald_alpha_per_a")) {
            ok = parse_doubles(w, n, 1, &out->ewald_alpha_per_a);
        } else if (!strcmp(key, "pme_grid")) {
            ok = parse_ints(w, n, 3, out->pme_grid);
        } else if (!strcmp(key, "pme_order")) {
            ok = parse_ints(w, n, 1, &out->pme_order);
        } else if (!strcmp(key, "dispersion_correction")) {
            ok = parse_ints(w, n, 1, &out->dispersion_correction);
        } else if (!strcmp(key, "net_charge")) {
            ok = parse_doubles(w, n, 1, &out->net_charge);
        } else if (!strcmp(key, "energy")) {
            ok = n == 3 && out->term_count < OPENMM_DATA_MAX_TERMS &&
                 strlen(w[1]) < sizeof out->terms[0].name;
            if (ok) {
                openmm_term *t = &out->terms[out->term_count++];
                snprintf(t->name, sizeof t->name, "%s", w[1]);
                ok = parse_double(w[2], &t->value);
            }
        } else if (!strcmp(key, "forces")) {
            int count = 0;
            ok = have_atoms && n == 2 && parse_int(w[1], &count) && count == out->atom_count &&
                 !out->forces;
            if (ok) {
                out->forces = calloc(3 * (size_t)count, sizeof *out->forces);
                if (!out->forces) {
                    res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: forces", path);
                    goto cleanup;
                }
                forces_read = 0;
            }
        } else {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: unknown key '%s'", path, lineno, key);
            goto cleanup;
        }
        if (!ok) {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s:%d: malformed '%s' record", path, lineno, key);
            goto cleanup;
        }
    }
    if (!have_system || !have_atoms || forces_read != out->atom_count)
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: expected 'system', 'atoms' and 'forces' with one line per atom (got "
                        "%d force lines)",
                        path, forces_read < 0 ? 0 : forces_read);
    else if (out->periodic && (out->cutoff_a <= 0 || out->ewald_alpha_per_a <= 0 ||
                               out->pme_grid[0] <= 0 || out->pme_order <= 0))
        res = vkmd_fail(VKMD_ERROR_PARSE,
                        "%s: periodic data needs cutoff_a, ewald_alpha_per_a, pme_grid, pme_order",
                        path);
cleanup:
    free(buf);
    if (res != VKMD_OK)
        openmm_data_free(out);
    return res;
}

void openmm_data_free(openmm_data *d)
{
    free(d->forces);
    memset(d, 0, sizeof *d);
}

int openmm_data_energy(const openmm_data *d, const char *name, double *out)
{
    for (int k = 0; k < d->term_count; ++k)
        if (!strcmp(d->terms[k].name, name)) {
            *out = d->terms[k].value;
            return 1;
        }
    return 0;
}

/* Compares vkmd's `got` with OpenMM's term `name` when the file has it. */
static void compare_term(const openmm_data *d, const char *name, double got)
{
    double want;
    if (openmm_data_energy(d, name, &want))
        check_close(name, got, want, OPENMM_REL_TOL, OPENMM_ABS_TOL);
}

/* The figures OpenMM gives directly or the script derives, against vkmd's
 * breakdown (see the script's docstring for what each OpenMM term holds). */
static void compare_energies(const openmm_data *d, const vkmd_system *sys,
                             const vkmd_ff_settings *s, const vkmd_energy *e)
{
    /* OpenMM 7.7 has no neutralizing-background term: compare without it
     * (vkmd_ref_compute leaves it at 0 too, like OpenMM), and check the term
     * vkmd can compute against the one the script derived. */
    const double net = e->coulomb_net_charge;
    compare_term(d, "bond", e->bond);
    compare_term(d, "angle", e->angle);
    compare_term(d, "dihedral", e->dihedral);
    compare_term(d, "nonbonded", e->lj + e->coulomb - net);
    compare_term(d, "nonbonded_lj", e->lj);
    compare_term(d, "nonbonded_coulomb", e->coulomb - net);
    compare_term(d, "lj_dispersion", e->lj_dispersion);
    compare_term(d, "lj14", e->lj14);
    compare_term(d, "coulomb14", e->coulomb14);
    compare_term(d, "coulomb_recip_group", e->coulomb_recip + e->coulomb_self);
    compare_term(d, "coulomb_self", e->coulomb_self);
    compare_term(d, "coulomb_recip", e->coulomb_recip);
    if (d->periodic)
        compare_term(d, "coulomb_net_charge_omitted",
                     vkmd_ewald_net_charge_energy(sys, s->ewald_alpha, vkmd_ff_coulomb_k(s)));
    compare_term(d, "total", e->total - net);

    /* Parts OpenMM cannot isolate, by difference of the terms above. */
    double lj, lj14, disp, coul, c14, recip_group;
    if (openmm_data_energy(d, "nonbonded_lj", &lj) && openmm_data_energy(d, "lj14", &lj14) &&
        openmm_data_energy(d, "lj_dispersion", &disp))
        check_close("lj_pair (derived)", e->lj_pair, lj - lj14 - disp, OPENMM_REL_TOL,
                    OPENMM_ABS_TOL);
    if (openmm_data_energy(d, "nonbonded_coulomb", &coul) &&
        openmm_data_energy(d, "coulomb14", &c14)) {
        if (!openmm_data_energy(d, "coulomb_recip_group", &recip_group))
            recip_group = 0;
        check_close("coulomb_real+excl (derived)", e->coulomb_real + e->coulomb_excl,
                    coul - c14 - recip_group, OPENMM_REL_TOL, OPENMM_ABS_TOL);
    }
    printf("  vkmd parts: lj_pair %.10g lj14 %.10g lj_dispersion %.10g coulomb_real %.10g "
           "coulomb_excl %.10g coulomb_recip %.10g coulomb_self %.10g coulomb_net_charge %.10g "
           "coulomb14 %.10g improper %.10g\n",
           e->lj_pair, e->lj14, e->lj_dispersion, e->coulomb_real, e->coulomb_excl,
           e->coulomb_recip, e->coulomb_self, e->coulomb_net_charge, e->coulomb14, e->improper);
}

/* vkmd's default settings (a zeroed struct) must pick what OpenMM picked;
 * the grid as OpenMM's Reference platform picks it when asked for that
 * (openmm_reference_grid), else rounded up to FFT-friendly sizes. */
static void compare_defaults(const openmm_data *d, const vkmd_system *sys_coords,
                             const char *prmtop)
{
    /* OpenMM sizes the grid from the System's default box, which
     * AmberPrmtopFile builds from the prmtop (BOX_DIMENSIONS: beta for all
     * three angles), not from the inpcrd's box. For rectangular boxes and
     * octahedra the two agree; a rhombic dodecahedron's prmtop says 60 60 60
     * (the same lattice, another basis), so compare vkmd's rule on the
     * prmtop's box, as OpenMM does. */
    vkmd_system view = *sys_coords, prm;
    memset(&prm, 0, sizeof prm);
    if (sys_coords->box.triclinic && vkmd_prmtop_read(prmtop, &prm) == VKMD_OK) {
        view.box = prm.box;
        printf("  grid from the prmtop's box (angles %.7f %.7f %.7f), as OpenMM\n",
               prm.box.angle_deg[0], prm.box.angle_deg[1], prm.box.angle_deg[2]);
    }
    vkmd_system_destroy(&prm);
    const vkmd_system *sys = &view;
    vkmd_ff_settings def, rounded;
    memset(&def, 0, sizeof def);
    memset(&rounded, 0, sizeof rounded);
    def.openmm_reference_grid = 1;
    CHECK_OK(vkmd_ff_settings_resolve(&def, sys));
    CHECK_OK(vkmd_ff_settings_resolve(&rounded, sys));
    for (int k = 0; k < 3; ++k)
        CHECK(rounded.pme_grid[k] == vkmd_ff_fft_size(d->pme_grid[k]));
    check_close("default cutoff_a", def.cutoff_a, d->cutoff_a, 1e-12, 0);
    check_close("default ewald_alpha_per_a", def.ewald_alpha, d->ewald_alpha_per_a, 1e-12, 0);
    printf(
        "  reference pme_grid %d %d %d  OpenMM %d %d %d  (default, rounded: %d %d %d)  order %d  "
        "OpenMM %d\n",
        def.pme_grid[0], def.pme_grid[1], def.pme_grid[2], d->pme_grid[0], d->pme_grid[1],
        d->pme_grid[2], rounded.pme_grid[0], rounded.pme_grid[1], rounded.pme_grid[2],
        def.pme_order, d->pme_order);
    for (int k = 0; k < 3; ++k)
        CHECK_MSG(def.pme_grid[k] == d->pme_grid[k], "default grid dimension %d: %d, OpenMM %d", k,
                  def.pme_grid[k], d->pme_grid[k]);
    CHECK(def.pme_order == d->pme_order);
    CHECK(def.no_dispersion_correction == !d->dispersion_correction);
}

void openmm_check_system(const char *dir, const char *name)
{
    char prmtop[1024], inpcrd[1024], data_path[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", dir, name);
    snprintf(inpcrd, sizeof inpcrd, "%s/%s.inpcrd", dir, name);
    snprintf(data_path, sizeof data_path, "%s/%s.openmm.txt", dir, name);
    openmm_data d;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    double *f = NULL;
    vkmd_result res = openmm_data_load(data_path, &d);
    printf("== %s (%s)\n", name, res == VKMD_OK ? d.header : "no data");
    CHECK_OK(res);
    if (res != VKMD_OK)
        return;
    res = vkmd_system_load(prmtop, inpcrd, &sys);
    CHECK_OK(res);
    if (res != VKMD_OK)
        goto cleanup;
    printf("  %d atoms, periodic %d, box %.6f %.6f %.6f A, net charge %.6f e\n", sys.atom_count,
           sys.box.periodic, sys.box.len[0], sys.box.len[1], sys.box.len[2],
           vkmd_system_net_charge(&sys));
    CHECK_MSG(sys.atom_count == d.atom_count, "%d atoms, OpenMM %d", sys.atom_count, d.atom_count);
    CHECK_MSG(sys.box.periodic == d.periodic, "periodic %d, OpenMM %d", sys.box.periodic,
              d.periodic);
    if (sys.atom_count != d.atom_count || sys.box.periodic != d.periodic)
        goto cleanup;
    for (int k = 0; k < 3 && d.periodic; ++k)
        CHECK_MSG(fabs(sys.box.len[k] - d.box_a[k]) <= 1e-6, "box edge %d: %.8f A, OpenMM %.8f", k,
                  sys.box.len[k], d.box_a[k]);
    for (int k = 0; k < 3 && d.periodic; ++k) {
        const double got = sys.box.triclinic ? sys.box.angle_deg[k] : 90.0;
        CHECK_MSG(fabs(got - d.box_angles_deg[k]) <= 1e-6, "box angle %d: %.8f deg, OpenMM %.8f", k,
                  got, d.box_angles_deg[k]);
    }
    if (sys.box.triclinic)
        printf("  triclinic: angles %.7f %.7f %.7f deg, vectors a (%.6f) b (%.6f %.6f) c (%.6f "
               "%.6f %.6f) A\n",
               sys.box.angle_deg[0], sys.box.angle_deg[1], sys.box.angle_deg[2], sys.box.vec[0][0],
               sys.box.vec[1][0], sys.box.vec[1][1], sys.box.vec[2][0], sys.box.vec[2][1],
               sys.box.vec[2][2]);
    check_close("net charge", vkmd_system_net_charge(&sys), d.net_charge, 0, 1e-6);

    /* Exactly the settings OpenMM used. */
    vkmd_ff_settings s;
    memset(&s, 0, sizeof s);
    if (d.periodic) {
        s.cutoff_a = d.cutoff_a;
        s.ewald_tolerance = d.ewald_tolerance;
        s.ewald_alpha = d.ewald_alpha_per_a;
        for (int k = 0; k < 3; ++k)
            s.pme_grid[k] = d.pme_grid[k];
        s.pme_order = d.pme_order;
        printf("  OpenMM settings: cutoff %.4f A, alpha %.12f 1/A, grid %d %d %d, order %d\n",
               d.cutoff_a, d.ewald_alpha_per_a, d.pme_grid[0], d.pme_grid[1], d.pme_grid[2],
               d.pme_order);
    }
    s.no_dispersion_correction = !d.dispersion_correction;
    res = vkmd_ff_settings_resolve(&s, &sys);
    CHECK_OK(res);
    if (res != VKMD_OK)
        goto cleanup;

    const int n3 = 3 * sys.atom_count;
    f = malloc(sizeof *f * (size_t)n3);
    vkmd_energy e;
    memset(&e, 0, sizeof e);
    res = f ? vkmd_ref_compute(&sys, &s, &e, f) : VKMD_ERROR_OUT_OF_MEMORY;
    CHECK_OK(res);
    if (res != VKMD_OK)
        goto cleanup;

    compare_energies(&d, &sys, &s, &e);
    double rel = rms_rel_error(f, d.forces, n3);
    printf("  forces: RMS(F_vkmd - F_openmm)/RMS(F_openmm) %.3e (limit %.0e), max |diff| %.3e "
           "kcal/mol/A, RMS(F_openmm) %.6f kcal/mol/A\n",
           rel, TOL_OPENMM_FORCE_RMS, max_abs_error(f, d.forces, n3), rms(d.forces, n3));
    CHECK_MSG(rel <= TOL_OPENMM_FORCE_RMS, "%s: relative RMS force error %.3e", name, rel);
    if (d.periodic)
        compare_defaults(&d, &sys, prmtop);
cleanup:
    free(f);
    vkmd_system_destroy(&sys);
    openmm_data_free(&d);
}
