/* Generalized Born reference (ref/ref_gb.c) against OpenMM 7.7's Reference
 * platform: every case tests/oracles/openmm_gb.py wrote (the openmm_gb_data
 * fixture: ala2 and villin in vacuum with ParmEd's radius sets, the five
 * models plain, with 0.15 M salt, with ACE, and cutoffs) to 1e-6 relative in
 * the polar and nonpolar energies and 1e-6 RMS-relative in the forces;
 * central finite differences of the reference's energy for each model;
 * the prmtop reader's RADII / SCREEN / RADIUS_SET; the refusals (a
 * periodic box, no radii, an unknown model name). */
#include "io/load.h"
#include "ref/ref_gb.h"
#include "system/gb_params.h"
#include "system/gb_settings.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR

typedef struct gb_case {
    char system[64], prmtop[128];
    vkmd_gb_settings settings;
    double gb_energy, nonpolar_energy;
    int atom_count;
    double *forces;
} gb_case;

static int read_case(const char *name, gb_case *c)
{
    char path[512], line[512], model[16] = "";
    snprintf(path, sizeof path, "%s/gb_%s.openmm.txt", GEN, name);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "%s: cannot open (run the openmm_gb_generate fixture)\n", path);
        return 0;
    }
    memset(c, 0, sizeof *c);
    int ok = 1;
    while (ok && fgets(line, sizeof line, fp)) {
        double v;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "system %63s", c->system) == 1 ||
            sscanf(line, "prmtop %127s", c->prmtop) == 1 || sscanf(line, "model %15s", model) == 1)
            continue;
        if (sscanf(line, "salt_molar %lf", &v) == 1)
            c->settings.salt_molar = v;
        else if (sscanf(line, "temperature_k %lf", &v) == 1)
            c->settings.temperature_k = v;
        else if (sscanf(line, "nonpolar %lf", &v) == 1)
            c->settings.nonpolar = (int)v;
        else if (sscanf(line, "cutoff_a %lf", &v) == 1)
            c->settings.cutoff_a = v;
        else if (sscanf(line, "gb_energy %lf", &v) == 1)
            c->gb_energy = v;
        else if (sscanf(line, "nonpolar_energy %lf", &v) == 1)
            c->nonpolar_energy = v;
        else if (sscanf(line, "forces %d", &c->atom_count) == 1) {
            c->forces = calloc(3 * (size_t)c->atom_count, sizeof *c->forces);
            for (int k = 0; ok && k < 3 * c->atom_count; ++k)
                ok = fscanf(fp, "%lf", &c->forces[k]) == 1;
        }
    }
    fclose(fp);
    ok = ok && c->forces && vkmd_gb_model_parse(model, &c->settings.model) == VKMD_OK;
    CHECK_MSG(ok, "%s: malformed", path);
    return ok;
}

static vkmd_result load(const char *prmtop, const char *system, vkmd_system *out)
{
    char top[512], crd[512];
    snprintf(top, sizeof top, "%s/%s", GEN, prmtop);
    snprintf(crd, sizeof crd, "%s/%s.inpcrd", GEN, system);
    return vkmd_system_load(top, crd, out);
}

typedef struct model_figures {
    double max_e, max_f;
    int cases;
} model_figures;

static void check_case(const char *name, model_figures *figs)
{
    gb_case c;
    if (!read_case(name, &c))
        return;
    vkmd_system sys = {0};
    CHECK_OK(load(c.prmtop, c.system, &sys));
    if (sys.atom_count != c.atom_count) {
        CHECK_MSG(0, "%s: %d atoms, OpenMM %d", name, sys.atom_count, c.atom_count);
        goto done;
    }
    double *f = calloc(3 * (size_t)sys.atom_count, sizeof *f);
    double e_gb = 0, e_np = 0;
    CHECK_OK(ref_gb_energy_forces(&sys, &c.settings, sys.positions, &e_gb, &e_np, f, NULL));
    const double de = fabs(e_gb - c.gb_energy) / fabs(c.gb_energy);
    const double dnp = c.settings.nonpolar ? fabs(e_np - c.nonpolar_energy) / c.nonpolar_energy : 0;
    const double df = rms_rel_error(f, c.forces, 3 * sys.atom_count);
    printf("  %-32s E_gb %14.6f (OpenMM %14.6f, rel %.1e)  E_ace %10.6f (rel %.1e)  F rms-rel "
           "%.1e\n",
           name, e_gb, c.gb_energy, de, e_np, dnp, df);
    CHECK_MSG(de <= 1e-6, "%s: GB energy rel error %.3e", name, de);
    CHECK_MSG(dnp <= 1e-6, "%s: ACE energy rel error %.3e", name, dnp);
    CHECK_MSG(!c.settings.nonpolar || e_np > 0, "%s: no ACE energy", name);
    CHECK_MSG(df <= 1e-6, "%s: force RMS-rel error %.3e", name, df);
    model_figures *m = &figs[c.settings.model];
    m->max_e = fmax(m->max_e, fmax(de, dnp));
    m->max_f = fmax(m->max_f, df);
    m->cases++;
    free(f);
done:
    vkmd_system_destroy(&sys);
    free(c.forces);
}

static void check_openmm(void)
{
    char path[512], name[128];
    snprintf(path, sizeof path, "%s/gb_cases.txt", GEN);
    FILE *fp = fopen(path, "r");
    CHECK_MSG(fp != NULL, "%s: missing (run the openmm_gb_generate fixture)", path);
    if (!fp)
        return;
    model_figures figs[VKMD_GB_MODEL_COUNT] = {0};
    int n = 0;
    printf("reference vs OpenMM 7.7 Reference (kcal/mol):\n");
    while (fscanf(fp, "%127s", name) == 1) {
        check_case(name, figs);
        ++n;
    }
    fclose(fp);
    CHECK_MSG(n >= 30, "%d cases, expected >= 30", n);
    for (int m = VKMD_GB_HCT; m < VKMD_GB_MODEL_COUNT; ++m) {
        printf("  %-5s %2d cases: max rel energy error %.2e, max RMS-rel force error %.2e\n",
               vkmd_gb_model_name((vkmd_gb_model)m), figs[m].cases, figs[m].max_e, figs[m].max_f);
        CHECK(figs[m].cases >= 3);
    }
}

/* Central differences of E_gb + E_ace against the reference's forces on a
 * few atoms (every coordinate), h = 1e-5 A. */
static void check_fd(const char *prmtop, const char *system, vkmd_gb_settings s, const char *what)
{
    vkmd_system sys = {0};
    CHECK_OK(load(prmtop, system, &sys));
    if (!sys.positions)
        return;
    const int n = sys.atom_count;
    double *f = calloc(3 * (size_t)n, sizeof *f), *x = sys.positions;
    double e0, np0;
    CHECK_OK(ref_gb_energy_forces(&sys, &s, x, &e0, &np0, f, NULL));
    const int atoms[] = {0, 4, 6, n / 2, n - 1};
    const double h = 1e-5;
    double worst = 0, scale = 0;
    for (size_t a = 0; a < sizeof atoms / sizeof *atoms; ++a)
        for (int k = 0; k < 3; ++k) {
            const int q = 3 * atoms[a] + k;
            const double x0 = x[q];
            double ep, npp, em, npm;
            x[q] = x0 + h;
            CHECK_OK(ref_gb_energy_forces(&sys, &s, x, &ep, &npp, NULL, NULL));
            x[q] = x0 - h;
            CHECK_OK(ref_gb_energy_forces(&sys, &s, x, &em, &npm, NULL, NULL));
            x[q] = x0;
            const double fd = -((ep + npp) - (em + npm)) / (2 * h);
            worst = fmax(worst, fabs(fd - f[q]));
            scale = fmax(scale, fabs(f[q]));
        }
    printf("  finite differences %-28s max |F - F_fd| %.2e kcal/mol/A (max |F| %.2f)\n", what,
           worst, scale);
    CHECK_MSG(worst <= 1e-5 * fmax(1.0, scale), "%s: finite-difference error %.3e", what, worst);
    free(f);
    vkmd_system_destroy(&sys);
}

static void check_reader(void)
{
    vkmd_system sys = {0};
    CHECK_OK(load("gb_ala2_vac_mbondi2.prmtop", "ala2_vac", &sys));
    CHECK(sys.gb_params_present && sys.gb_radius && sys.gb_screen);
    if (sys.gb_params_present) {
        /* ParmEd's mbondi2 on ACE-ALA-NME: CH3, H1, ..., C, O, N, H. */
        const double radius[8] = {1.7, 1.2, 1.2, 1.2, 1.7, 1.5, 1.55, 1.3};
        const double screen[8] = {0.72, 0.85, 0.85, 0.85, 0.72, 0.85, 0.79, 0.85};
        for (int a = 0; a < 8; ++a) {
            CHECK_MSG(fabs(sys.gb_radius[a] - radius[a]) < 1e-12, "atom %d radius %g", a + 1,
                      sys.gb_radius[a]);
            CHECK_MSG(fabs(sys.gb_screen[a] - screen[a]) < 1e-12, "atom %d screen %g", a + 1,
                      sys.gb_screen[a]);
        }
    }
    CHECK_MSG(!strcmp(sys.gb_radius_set, "H(N)-modified Bondi radii (mbondi2)"), "RADIUS_SET '%s'",
              sys.gb_radius_set);
    printf("  reader: RADII %.2f %.2f ... SCREEN %.2f %.2f ..., RADIUS_SET '%s'\n",
           sys.gb_radius ? sys.gb_radius[0] : 0, sys.gb_radius ? sys.gb_radius[1] : 0,
           sys.gb_screen ? sys.gb_screen[0] : 0, sys.gb_screen ? sys.gb_screen[1] : 0,
           sys.gb_radius_set);
    vkmd_system_destroy(&sys);
}

static void check_refusals(void)
{
    vkmd_gb_settings s = {.model = VKMD_GB_OBC2};
    double e, np;
    vkmd_system sys = {0};
    /* The committed prmtop: RADII all zero. */
    CHECK_OK(vkmd_system_load(VKMD_TEST_DATA_DIR "/ala2_vac.prmtop",
                              VKMD_TEST_DATA_DIR "/ala2_vac.inpcrd", &sys));
    CHECK(sys.gb_params_present);
    vkmd_result r = ref_gb_energy_forces(&sys, &s, sys.positions, &e, &np, NULL, NULL);
    printf("  zero radii: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "zero GB radii"));
    vkmd_system_destroy(&sys);

    CHECK_OK(load("gb_ala2_vac_mbondi2.prmtop", "ala2_vac", &sys));
    sys.box.periodic = 1;
    r = ref_gb_energy_forces(&sys, &s, sys.positions, &e, &np, NULL, NULL);
    printf("  periodic box: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "periodic"));
    sys.box.periodic = 0;
    sys.gb_params_present = 0; /* as a prmtop without RADII / SCREEN */
    r = ref_gb_energy_forces(&sys, &s, sys.positions, &e, &np, NULL, NULL);
    printf("  no radii: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "no GB radii"));
    sys.gb_params_present = 1;
    /* GBn's neck tables end at 2 A. */
    sys.gb_radius[0] = 2.5;
    s.model = VKMD_GB_GBN;
    r = ref_gb_energy_forces(&sys, &s, sys.positions, &e, &np, NULL, NULL);
    printf("  GBn radius 2.5 A: %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);
    vkmd_system_destroy(&sys);

    vkmd_gb_model m;
    const char *names[] = {"hct", "OBC1", "obc2", "gbn", "GBn2", "5"};
    const vkmd_gb_model want[] = {VKMD_GB_HCT, VKMD_GB_OBC1, VKMD_GB_OBC2,
                                  VKMD_GB_GBN, VKMD_GB_GBN2, VKMD_GB_OBC2};
    for (int k = 0; k < 6; ++k) {
        CHECK_OK(vkmd_gb_model_parse(names[k], &m));
        CHECK(m == want[k]);
    }
    r = vkmd_gb_model_parse("obc3", &m);
    printf("  model 'obc3': %s: %s\n", vkmd_result_str(r), vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT && strstr(vkmd_last_error(), "obc3"));
}

int main(void)
{
    check_reader();
    check_refusals();
    check_openmm();
    static const struct {
        vkmd_gb_model model;
        const char *set;
    } fd[] = {{VKMD_GB_HCT, "mbondi"},
              {VKMD_GB_OBC1, "mbondi2"},
              {VKMD_GB_OBC2, "mbondi2"},
              {VKMD_GB_GBN, "bondi"},
              {VKMD_GB_GBN2, "mbondi3"}};
    for (size_t k = 0; k < sizeof fd / sizeof *fd; ++k) {
        char prmtop[64], what[64];
        snprintf(prmtop, sizeof prmtop, "gb_ala2_vac_%s.prmtop", fd[k].set);
        vkmd_gb_settings s = {.model = fd[k].model, .salt_molar = 0.15, .nonpolar = 1};
        snprintf(what, sizeof what, "%s salt ACE (ala2)", vkmd_gb_model_name(fd[k].model));
        check_fd(prmtop, "ala2_vac", s, what);
    }
    vkmd_gb_settings cut = {
        .model = VKMD_GB_GBN2, .salt_molar = 0.15, .nonpolar = 1, .cutoff_a = 12.0};
    check_fd("gb_villin_vac_mbondi3.prmtop", "villin_vac", cut, "gbn2 salt ACE cutoff (villin)");
    return test_finish("test_ref_gb");
}
