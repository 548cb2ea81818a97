/* The CHARMM terms of the CPU reference and the CMAP patches they use:
 *   - maths/cmap_spline on an analytic map (24 x 24, as CHARMM's): each
 *     cell's constant coefficient is the grid value, value and both slopes
 *     are continuous across every cell edge (the periodic one included), and
 *     the interpolant follows the analytic function between grid points;
 *   - the AMBER-style CMAP_* sections (ff19SB's names) read from a prmtop
 *     written at test time (tests/data/tiny.prmtop plus the sections);
 *   - ref_cmap, ref_urey_bradley and ref_impropers_harmonic forces against
 *     central finite differences of their energies at random geometries,
 *     and their sum is zero (no net force).
 * No device; the OpenMM comparison is test_ref_openmm_charmm_generated. */
#include "testlib.h"
#include "io/load.h"
#include "maths/cmap_spline.h"
#include "ref/ref.h"
#include "ref/ref_forms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RES 24

static double analytic(double phi, double psi)
{
    return 0.8 * cos(phi) + 0.5 * sin(2 * psi) + 0.3 * cos(phi - psi) - 0.2;
}

static void fill_map(vkmd_cmap_map *map)
{
    map->resolution = RES;
    map->grid = malloc(sizeof *map->grid * RES * RES);
    for (int p = 0; p < RES; ++p)
        for (int q = 0; q < RES; ++q)
            map->grid[p * RES + q] =
                analytic(-M_PI + p * 2 * M_PI / RES, -M_PI + q * 2 * M_PI / RES);
}

static double cell_eval(const double *c, int s, int t, double a, double b, double *da, double *db)
{
    return form_cmap(&c[(size_t)(s + RES * t) * 16], a, b, da, db);
}

static void check_spline(void)
{
    vkmd_cmap_map map;
    fill_map(&map);
    double *c = malloc(sizeof *c * 16 * RES * RES);
    CHECK_OK(vkmd_cmap_spline_coefficients(&map, c));
    double worst_grid = 0, worst_edge = 0, worst_fit = 0;
    uint64_t st = 12345;
    for (int s = 0; s < RES; ++s)
        for (int t = 0; t < RES; ++t) {
            worst_grid =
                fmax(worst_grid, fabs(c[(size_t)(s + RES * t) * 16] - map.grid[s * RES + t]));
            double u = test_uniform(&st);
            /* edge along phi: a = 1 of cell s meets a = 0 of cell s + 1 */
            double e0, a0, b0, e1, a1, b1;
            e0 = cell_eval(c, s, t, 1.0, u, &a0, &b0);
            e1 = cell_eval(c, (s + 1) % RES, t, 0.0, u, &a1, &b1);
            worst_edge = fmax(worst_edge, fmax(fabs(e0 - e1), fmax(fabs(a0 - a1), fabs(b0 - b1))));
            e0 = cell_eval(c, s, t, u, 1.0, &a0, &b0);
            e1 = cell_eval(c, s, (t + 1) % RES, u, 0.0, &a1, &b1);
            worst_edge = fmax(worst_edge, fmax(fabs(e0 - e1), fmax(fabs(a0 - a1), fabs(b0 - b1))));
        }
    for (int k = 0; k < 2000; ++k) {
        double phi = -M_PI + 2 * M_PI * test_uniform(&st);
        double psi = -M_PI + 2 * M_PI * test_uniform(&st);
        int32_t s, t;
        double a, b, da, db;
        vkmd_cmap_spline_cell(phi, RES, &s, &a);
        vkmd_cmap_spline_cell(psi, RES, &t, &b);
        worst_fit = fmax(worst_fit, fabs(cell_eval(c, s, t, a, b, &da, &db) - analytic(phi, psi)));
    }
    printf("spline: max |c0 - grid| %.2e, max jump across an edge (value, slopes) %.2e, max "
           "|spline - analytic| %.2e kcal/mol\n",
           worst_grid, worst_edge, worst_fit);
    CHECK(worst_grid < 1e-12);
    CHECK(worst_edge < 1e-10);
    CHECK(worst_fit < 1e-3);
    /* a bad map is refused */
    map.grid[5] = NAN;
    CHECK(vkmd_cmap_spline_coefficients(&map, c) == VKMD_ERROR_INVALID_ARGUMENT);
    free(map.grid);
    free(c);
}

/* tiny.prmtop with AMBER's CMAP sections appended (one term on atoms 1-5). */
static void write_cmap_prmtop(const char *path)
{
    FILE *in = fopen(VKMD_TEST_DATA_DIR "/tiny.prmtop", "r");
    FILE *out = fopen(path, "w");
    CHECK(in && out);
    if (!in || !out)
        return;
    char line[256];
    while (fgets(line, sizeof line, in))
        fputs(line, out);
    fprintf(out, "%%FLAG CMAP_COUNT\n%%FORMAT(2I8)\n%8d%8d\n", 1, 1);
    fprintf(out, "%%FLAG CMAP_RESOLUTION\n%%FORMAT(20I4)\n%4d\n", RES);
    fprintf(out, "%%FLAG CMAP_PARAMETER_01\n%%FORMAT(8(F9.5))\n");
    for (int k = 0; k < RES * RES; ++k) {
        int p = k / RES, q = k % RES;
        fprintf(out, "%9.5f%s", analytic(-M_PI + p * 2 * M_PI / RES, -M_PI + q * 2 * M_PI / RES),
                k % 8 == 7 ? "\n" : "");
    }
    fprintf(out, "%%FLAG CMAP_INDEX\n%%FORMAT(6I8)\n%8d%8d%8d%8d%8d%8d\n", 1, 2, 3, 4, 5, 1);
    fclose(in);
    fclose(out);
}

typedef double (*term_fn)(const vkmd_system *sys, double *f);

static double cmap_energy(const vkmd_system *sys, double *f)
{
    double e = 0;
    CHECK_OK(ref_cmap(sys, f, &e));
    return e;
}

/* Forces of `fn` against central differences of its energy. */
static void check_fd(const char *what, vkmd_system *sys, term_fn fn)
{
    const int n3 = 3 * sys->atom_count;
    double *f = calloc((size_t)n3, sizeof *f);
    double e = fn(sys, f);
    double worst = 0, fmax_abs = 0, net[3] = {0, 0, 0};
    const double h = 1e-6;
    for (int k = 0; k < n3; ++k) {
        const double x0 = sys->positions[k];
        sys->positions[k] = x0 + h;
        double ep = fn(sys, NULL);
        sys->positions[k] = x0 - h;
        double em = fn(sys, NULL);
        sys->positions[k] = x0;
        double fd = -(ep - em) / (2 * h);
        worst = fmax(worst, fabs(fd - f[k]));
        fmax_abs = fmax(fmax_abs, fabs(f[k]));
        net[k % 3] += f[k];
    }
    double net_len = sqrt(net[0] * net[0] + net[1] * net[1] + net[2] * net[2]);
    printf("  %-18s E %12.6f kcal/mol  max |F - F_fd| %.2e of max |F| %.3f; |sum F| %.1e\n", what,
           e, worst, fmax_abs, net_len);
    CHECK_MSG(worst <= 1e-6 * fmax(fmax_abs, 1.0), "%s: finite differences %.3e", what, worst);
    CHECK_MSG(net_len <= 1e-9 * fmax(fmax_abs, 1.0), "%s: net force %.3e", what, net_len);
    free(f);
}

static void check_terms(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tiny_cmap.prmtop", VKMD_TEST_GEN_DIR);
    write_cmap_prmtop(path);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(path, VKMD_TEST_DATA_DIR "/tiny.inpcrd", &sys));
    if (!sys.positions)
        return;
    printf("%s: %d CMAP term(s), %d map(s) of %d x %d\n", path, sys.cmap_count, sys.cmap_map_count,
           sys.cmap_map_count ? sys.cmap_maps[0].resolution : 0,
           sys.cmap_map_count ? sys.cmap_maps[0].resolution : 0);
    CHECK(sys.cmap_count == 1 && sys.cmap_map_count == 1 && sys.cmap_maps[0].resolution == RES);
    CHECK(sys.cmaps[0].i == 0 && sys.cmaps[0].j == 1 && sys.cmaps[0].k == 2 &&
          sys.cmaps[0].l == 3 && sys.cmaps[0].m == 4 && sys.cmaps[0].map == 0);
    check_close("grid value (2, 3)", sys.cmap_maps[0].grid[2 * RES + 3],
                analytic(-M_PI + 2 * 2 * M_PI / RES, -M_PI + 3 * 2 * M_PI / RES), 0, 6e-6);
    /* Add CHARMM's other two terms on the same atoms (no file needed). */
    sys.urey_bradleys = calloc(2, sizeof *sys.urey_bradleys);
    sys.urey_bradleys[0] = (vkmd_bond){.i = 0, .j = 2, .k = 30.0, .r0 = 2.4};
    sys.urey_bradleys[1] = (vkmd_bond){.i = 1, .j = 3, .k = 11.0, .r0 = 2.1};
    sys.urey_bradley_count = 2;
    sys.impropers_harmonic = calloc(1, sizeof *sys.impropers_harmonic);
    sys.impropers_harmonic[0] =
        (vkmd_improper_harmonic){.i = 1, .j = 0, .k = 2, .l = 3, .k_psi = 20.0, .psi0 = 0.3};
    sys.improper_harmonic_count = 1;
    uint64_t st = 777;
    for (int trial = 0; trial < 6; ++trial) {
        for (int k = 0; k < 3 * sys.atom_count; ++k)
            sys.positions[k] = 3.0 * test_uniform(&st) + (k % 3 == 0 ? 1.2 * (k / 3) : 0);
        printf("geometry %d\n", trial + 1);
        check_fd("CMAP", &sys, cmap_energy);
        check_fd("Urey-Bradley", &sys, ref_urey_bradley);
        check_fd("harmonic improper", &sys, ref_impropers_harmonic);
    }
    vkmd_system_destroy(&sys);
}

int main(void)
{
    check_spline();
    check_terms();
    return test_finish("test_ref_cmap");
}
