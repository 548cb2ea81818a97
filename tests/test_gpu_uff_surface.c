/* Molecules on surfaces (system/uff_surface.h, ref/ref_uff_surface.h,
 * forces/pass_uff_surface.h): xylitol above a 2-layer NaCl(001) slab and
 * above graphene, UFF LJ 12-6 (and Morse for the direct checks), cutoff
 * 12 A.
 *
 * Checks, with the figures printed:
 *  1. the prefilter: the B-spline reproduces the grid values at the nodes;
 *  2. reference direct forces vs central differences of its energy;
 *  3. device grid values vs the reference sum at sampled points;
 *  4. device direct vs reference direct, and device grid vs reference grid,
 *     for a batch of replicas (every replica checked), surface-only, and
 *     the sum with the UFF pass (forces add into the same planes);
 *  5. GRID VS DIRECT (the documented tolerance, docs/UFF_SURFACES.md): at
 *     grid spacing 0.1 A (z from 1.0 A above the top atom to the cutoff),
 *     for xylitol with its lowest atom 2.5, 3.0 and 3.5 A above the top
 *     layer, 4 orientations and lateral shifts each, on both substrates:
 *     |E_grid - E_direct| <= TOL_GRID_ENERGY_ABS = 5e-3 kcal/mol per
 *     molecule and RMS(F_grid - F_direct) / RMS(F_direct) <=
 *     TOL_GRID_FORCE_RMS = 2e-3 (measured: 8e-4 kcal/mol and 6.8e-4;
 *     reference evaluation of the device-built
 *     grid, and the device's grid evaluation);
 *  6. XSF save/load round trip: the same float bits, same coefficients;
 *  7. an extended-XYZ substrate (the NaCl slab with a square and with an
 *     oblique cell of the same lattice) gives the built-in's energies.
 * Needs a device (grid values are built on it). */
#include "testlib.h"
#include "tolerance.h"
#include "forces/pass_uff.h"
#include "io/uff_surface_io.h"
#include "io/uff_load.h"
#include "forces/pass_uff_surface.h"
#include "ref/ref_uff.h"
#include "ref/ref_uff_surface.h"
#include "system/uff_batch.h"
#include "system/uff_surface.h"
#include "system/uff_terms.h"
#include "vk/barrier.h"
#include "vk/command.h"
#include "vk/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GRID_SPACING
#define GRID_SPACING 0.1 /* A; -DGRID_SPACING=... for a sweep (figures in docs/UFF_SURFACES.md) */
#endif

#define HEIGHTS      3
#define ORIENTATIONS 4
#define REPLICAS     (HEIGHTS * ORIENTATIONS)

static const double heights[HEIGHTS] = {2.5, 3.0, 3.5};

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double rng_uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* Random rotation about the centroid, lowest atom at height h, random
 * lateral shift of up to 10 A. */
static void place(const double *src, int32_t n, double h, double *dst)
{
    double q[4], len = 0;
    for (int k = 0; k < 4; ++k) {
        q[k] = rng_uniform() - 0.5;
        len += q[k] * q[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 4; ++k)
        q[k] /= len;
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double rot[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                              {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                              {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    double c[3] = {0, 0, 0};
    for (int32_t a = 0; a < n; ++a)
        for (int k = 0; k < 3; ++k)
            c[k] += src[3 * a + k] / n;
    double zmin = INFINITY;
    for (int32_t a = 0; a < n; ++a) {
        for (int i = 0; i < 3; ++i) {
            dst[3 * a + i] = 0;
            for (int k = 0; k < 3; ++k)
                dst[3 * a + i] += rot[i][k] * (src[3 * a + k] - c[k]);
        }
        zmin = fmin(zmin, dst[3 * a + 2]);
    }
    const double sx = 10 * rng_uniform(), sy = 10 * rng_uniform();
    for (int32_t a = 0; a < n; ++a) {
        dst[3 * a + 0] += sx;
        dst[3 * a + 1] += sy;
        dst[3 * a + 2] += h - zmin;
    }
}

static void check_prefilter(const vkmd_uff_surface_grid *g)
{
    double max_err = 0, max_v = 0;
    for (int32_t k = 0; k < g->nz; k += 7)
        for (int32_t j = 0; j < g->ny; j += 3)
            for (int32_t i = 0; i < g->nx; i += 3) {
                const double u = (double)i / g->nx, v = (double)j / g->ny;
                const double p[3] = {u * g->a[0] + v * g->b[0], u * g->a[1] + v * g->b[1],
                                     g->z0 + k * g->dz};
                const double e = vkmd_uff_surface_grid_eval(g, 0, p, NULL, NULL);
                const double ref = g->values[((size_t)k * g->ny + j) * g->nx + i];
                max_err = fmax(max_err, fabs(e - ref) / fmax(1.0, fabs(ref)));
                max_v = fmax(max_v, fabs(ref));
            }
    printf("prefilter: spline at the nodes vs values: max |err| / max(1, |v|) = %.3e (values up "
           "to %.3e)\n",
           max_err, max_v);
    CHECK(max_err < 1e-9);
}

static void check_fd(const vkmd_uff_surface *s, const int32_t *ch, int32_t n, const double *pos,
                     const char *what)
{
    double *f = calloc(3 * (size_t)n, sizeof *f), *fd = calloc(3 * (size_t)n, sizeof *fd);
    double *p = malloc(3 * (size_t)n * sizeof *p);
    memcpy(p, pos, 3 * (size_t)n * sizeof *p);
    const double e0 = ref_uff_surface_direct(s, ch, n, pos, f);
    const double h = 1e-5;
    for (int32_t i = 0; i < 3 * n; ++i) {
        const double x = p[i];
        p[i] = x + h;
        const double ep = ref_uff_surface_direct(s, ch, n, p, NULL);
        p[i] = x - h;
        const double em = ref_uff_surface_direct(s, ch, n, p, NULL);
        p[i] = x;
        fd[i] = -(ep - em) / (2 * h);
    }
    const double err = rms_rel_error(f, fd, 3 * n);
    printf("%s: E = %.6f kcal/mol, forces vs central differences RMS-rel %.3e\n", what, e0, err);
    CHECK(err < TOL_FD_FORCE_RMS);
    CHECK(fabs(e0) > 1e-3);
    free(f);
    free(fd);
    free(p);
}

typedef struct setup {
    vkmd_uff_molecule *mol;
    int32_t mol_count;
    vkmd_uff_typing types;
    vkmd_uff_terms terms;
    vkmd_uff_param_table params;
    char labels[16][VKMD_UFF_LABEL_MAX];
    int32_t label_count;
} setup;

/* Runs the surface pass alone (clear + surface) or after the UFF pass on
 * the batch coordinates xyz; forces [3 * atoms], surface energies [R]. */
static void gpu_run(vkmd_vk_context *ctx, vkmd_pass_uff *uff, vkmd_pass_uff_surface *sp,
                    const double *xyz, int with_uff, double *forces, vkmd_uff_energy *uff_e,
                    double *surf_e, int32_t *below)
{
    VkCommandBuffer cb = VK_NULL_HANDLE;
    CHECK_OK(vkmd_pass_uff_upload_positions(ctx, uff, xyz));
    CHECK_OK(vkmd_vk_oneshot_begin(ctx, &cb));
    vkmd_pass_uff_record_clear(uff, cb);
    if (with_uff)
        vkmd_pass_uff_record(uff, cb);
    vkmd_pass_uff_surface_record(sp, cb);
    vkmd_vk_barrier_compute_to_transfer(cb);
    CHECK_OK(vkmd_vk_oneshot_submit(ctx, cb));
    CHECK_OK(vkmd_pass_uff_readback(ctx, uff, forces, uff_e));
    CHECK_OK(vkmd_pass_uff_surface_readback(ctx, sp, surf_e, below));
}

/* The built-in NaCl slab written as extended XYZ, once with its square
 * cell and once with the oblique cell a' = a, b' = a + b (the same
 * lattice), shifted in z: the same direct energies and forces. */
static void check_xyz_substrate(setup *su, const double *pos)
{
    vkmd_uff_substrate nacl = {0}, sq = {0}, ob = {0};
    vkmd_uff_surface s0 = {0}, s1 = {0}, s2 = {0};
    const int32_t n = su->mol[0].atom_count;
    int32_t *ch = malloc((size_t)n * sizeof *ch);
    double *f0 = calloc(3 * (size_t)n, sizeof *f0), *f1 = calloc(3 * (size_t)n, sizeof *f1),
           *f2 = calloc(3 * (size_t)n, sizeof *f2);
    CHECK_OK(vkmd_uff_substrate_nacl(2, &nacl));
    char path[2][512];
    for (int v = 0; v < 2; ++v) {
        snprintf(path[v], sizeof path[v], "%s/surface_nacl_%s.xyz", VKMD_TEST_GEN_DIR,
                 v ? "oblique" : "square");
        FILE *fp = fopen(path[v], "w");
        CHECK(fp != NULL);
        if (!fp)
            continue;
        const double a = nacl.a[0];
        fprintf(fp, "%d\nLattice=\"%.6f 0 0 %.6f %.6f 0 0 0 20\" Properties=species:S:1:pos:R:3\n",
                nacl.atom_count, a, v ? a : 0.0, a);
        for (int32_t i = 0; i < nacl.atom_count; ++i)
            fprintf(fp, "%s %.6f %.6f %.6f\n", nacl.z[i] == 11 ? "Na" : "Cl",
                    nacl.pos[3 * i] + (v ? 3 * a : 0), nacl.pos[3 * i + 1] - (v ? a : 0),
                    nacl.pos[3 * i + 2] + 7.5);
        fclose(fp);
    }
    CHECK_OK(vkmd_uff_substrate_read_xyz(path[0], &su->params, &sq));
    CHECK_OK(vkmd_uff_substrate_read_xyz(path[1], &su->params, &ob));
    const char(*labels)[VKMD_UFF_LABEL_MAX] = (const char(*)[VKMD_UFF_LABEL_MAX])su->labels;
    CHECK_OK(vkmd_uff_surface_build(&nacl, &su->params, labels, su->label_count, NULL, &s0));
    CHECK_OK(vkmd_uff_surface_build(&sq, &su->params, labels, su->label_count, NULL, &s1));
    CHECK_OK(vkmd_uff_surface_build(&ob, &su->params, labels, su->label_count, NULL, &s2));
    CHECK_OK(vkmd_uff_surface_atom_channels(&s0, &su->types, ch));
    const double e0 = ref_uff_surface_direct(&s0, ch, n, pos, f0);
    const double e1 = ref_uff_surface_direct(&s1, ch, n, pos, f1);
    const double e2 = ref_uff_surface_direct(&s2, ch, n, pos, f2);
    const double d1 = max_abs_error(f1, f0, 3 * n), d2 = max_abs_error(f2, f0, 3 * n);
    printf("extended XYZ NaCl: E built-in %.10f, square cell file %.10f, oblique cell file "
           "%.10f kcal/mol; forces max |diff| %.2e, %.2e\n",
           e0, e1, e2, d1, d2);
    CHECK(fabs(e1 - e0) < 1e-5 && fabs(e2 - e0) < 1e-5);
    CHECK(d1 < 1e-4 && d2 < 1e-4);
    vkmd_uff_surface_free(&s0);
    vkmd_uff_surface_free(&s1);
    vkmd_uff_surface_free(&s2);
    vkmd_uff_substrate_free(&nacl);
    vkmd_uff_substrate_free(&sq);
    vkmd_uff_substrate_free(&ob);
    free(ch);
    free(f0);
    free(f1);
    free(f2);
}

static void run_substrate(vkmd_vk_context *ctx, setup *su, const char *spec)
{
    vkmd_uff_substrate sub = {0};
    vkmd_uff_surface surf = {0}, morse = {0};
    vkmd_uff_surface_grid grid = {0}, loaded = {0};
    vkmd_uff_batch batch = {0};
    vkmd_pass_uff *uff = NULL;
    vkmd_pass_uff_surface *sp_direct = NULL, *sp_grid = NULL;
    const int32_t n = su->mol[0].atom_count;
    const int32_t total = n * REPLICAS;
    double *xyz = malloc(3 * (size_t)total * sizeof *xyz);
    double *f_ref = calloc(3 * (size_t)total, sizeof *f_ref);
    double *f_grid = calloc(3 * (size_t)total, sizeof *f_grid);
    double *f_gpu = calloc(3 * (size_t)total, sizeof *f_gpu);
    int32_t *ch = malloc((size_t)total * sizeof *ch);
    double e_direct[REPLICAS], e_grid[REPLICAS], e_gpu[REPLICAS];
    int32_t below[REPLICAS];
    vkmd_uff_energy uff_e[REPLICAS];

    printf("---- %s ----\n", spec);
    CHECK_OK(vkmd_uff_substrate_load(spec, &su->params, &sub));
    const vkmd_uff_surface_desc dl = {.form = VKMD_UFF_SURFACE_FORM_LJ};
    const vkmd_uff_surface_desc dm = {.form = VKMD_UFF_SURFACE_FORM_MORSE};
    CHECK_OK(vkmd_uff_surface_build(&sub, &su->params,
                                    (const char(*)[VKMD_UFF_LABEL_MAX])su->labels, su->label_count,
                                    &dl, &surf));
    CHECK_OK(vkmd_uff_surface_build(&sub, &su->params,
                                    (const char(*)[VKMD_UFF_LABEL_MAX])su->labels, su->label_count,
                                    &dm, &morse));
    printf("%s: %d atoms in a %.4f x %.4f cell, %d images within the cutoff, %d channels\n", spec,
           sub.atom_count, hypot(sub.a[0], sub.a[1]), hypot(sub.b[0], sub.b[1]), surf.image_count,
           surf.channel_count);
    CHECK_OK(vkmd_uff_surface_atom_channels(&surf, &su->types, ch));
    for (int32_t r = 1; r < REPLICAS; ++r)
        memcpy(ch + r * n, ch, (size_t)n * sizeof *ch);
    for (int32_t hi = 0; hi < HEIGHTS; ++hi)
        for (int32_t o = 0; o < ORIENTATIONS; ++o)
            place(su->mol[0].positions, n, heights[hi],
                  xyz + 3 * (size_t)n * (hi * ORIENTATIONS + o));

    /* 2. reference forces vs differences */
    check_fd(&surf, ch, n, xyz, "direct LJ, replica 0");
    check_fd(&morse, ch, n, xyz + 3 * (size_t)n * ORIENTATIONS, "direct Morse, replica 4");
    if (!strcmp(spec, "nacl"))
        check_xyz_substrate(su, xyz);

    /* 3. device grid vs reference sum at sampled points */
    const vkmd_uff_surface_grid_desc gd = {.spacing_a = GRID_SPACING};
    CHECK_OK(vkmd_uff_surface_grid_alloc(&surf, &gd, &grid));
    printf("grid: %d x %d x %d points x %d channels, z %.2f .. %.2f A, spacing %.4f x %.4f x "
           "%.4f A\n",
           grid.nx, grid.ny, grid.nz, grid.channel_count, grid.z0,
           grid.z0 + (grid.nz - 1) * grid.dz, hypot(grid.a[0], grid.a[1]) / grid.nx,
           hypot(grid.b[0], grid.b[1]) / grid.ny, grid.dz);
    CHECK_OK(vkmd_pass_uff_surface_grid_compute(ctx, &surf, &grid));
    {
        const int64_t points = vkmd_uff_surface_grid_points(&grid);
        double max_rel = 0;
        for (int32_t s = 0; s < 4000; ++s) {
            const int64_t idx = (int64_t)(rng_uniform() * (double)(points * grid.channel_count));
            const int32_t c = (int32_t)(idx / points);
            const int64_t rest = idx % points;
            const int32_t k = (int32_t)(rest / ((int64_t)grid.nx * grid.ny));
            const int32_t j = (int32_t)((rest / grid.nx) % grid.ny), i = (int32_t)(rest % grid.nx);
            const double u = (double)i / grid.nx, v = (double)j / grid.ny;
            const double p[3] = {u * grid.a[0] + v * grid.b[0], u * grid.a[1] + v * grid.b[1],
                                 grid.z0 + k * grid.dz};
            const double ref = ref_uff_surface_point(&surf, c, p);
            max_rel = fmax(max_rel, fabs(grid.values[idx] - ref) / fmax(fabs(ref), 1e-2));
        }
        printf("device grid values vs reference at 4000 points: max |err| / max(|v|, 0.01) = "
               "%.3e\n",
               max_rel);
        CHECK(max_rel < 1e-4);
    }
    check_prefilter(&grid);

    /* 5 (reference side). grid vs direct */
    double worst_de = 0, worst_f = 0;
    for (int32_t r = 0; r < REPLICAS; ++r) {
        const double *p = xyz + 3 * (size_t)n * r;
        e_direct[r] = ref_uff_surface_direct(&surf, ch, n, p, f_ref + 3 * (size_t)n * r);
        int32_t b = 0;
        e_grid[r] = ref_uff_surface_grid(&grid, ch, n, p, f_grid + 3 * (size_t)n * r, &b);
        CHECK(b == 0);
        const double de = fabs(e_grid[r] - e_direct[r]);
        const double fe =
            rms_rel_error(f_grid + 3 * (size_t)n * r, f_ref + 3 * (size_t)n * r, 3 * n);
        worst_de = fmax(worst_de, de);
        worst_f = fmax(worst_f, fe);
        printf("  replica %2d height %.1f: E direct %10.5f grid %10.5f |dE| %.2e kcal/mol, F "
               "RMS-rel %.2e\n",
               r, heights[r / ORIENTATIONS], e_direct[r], e_grid[r], de, fe);
    }
    printf("%s grid vs direct (reference evaluation, spacing %.2f A): max |dE| = %.3e kcal/mol "
           "(tol %.0e), max force RMS-rel = %.3e (tol %.0e)\n",
           spec, GRID_SPACING, worst_de, TOL_GRID_ENERGY_ABS, worst_f, TOL_GRID_FORCE_RMS);
    CHECK(worst_de <= TOL_GRID_ENERGY_ABS);
    CHECK(worst_f <= TOL_GRID_FORCE_RMS);

    /* 4. device passes vs reference, every replica */
    const vkmd_uff_terms *mols[1] = {&su->terms};
    CHECK_OK(vkmd_uff_batch_build(mols, 1, NULL, REPLICAS, &batch));
    CHECK_OK(vkmd_pass_uff_create(ctx, &batch, NULL, &uff));
    const vkmd_pass_uff_surface_desc sdd = {.mode = VKMD_UFF_SURFACE_MODE_DIRECT};
    const vkmd_pass_uff_surface_desc sdg = {.mode = VKMD_UFF_SURFACE_MODE_GRID, .grid = &grid};
    CHECK_OK(vkmd_pass_uff_surface_create(ctx, &surf, &batch, ch, vkmd_pass_uff_positions(uff),
                                          vkmd_pass_uff_forces(uff), vkmd_pass_uff_energies(uff),
                                          &sdd, &sp_direct));
    CHECK_OK(vkmd_pass_uff_surface_create(ctx, &surf, &batch, ch, vkmd_pass_uff_positions(uff),
                                          vkmd_pass_uff_forces(uff), vkmd_pass_uff_energies(uff),
                                          &sdg, &sp_grid));
    for (int mode = 0; mode < 2; ++mode) {
        vkmd_pass_uff_surface *sp = mode ? sp_grid : sp_direct;
        const double *fr = mode ? f_grid : f_ref;
        const double *er = mode ? e_grid : e_direct;
        gpu_run(ctx, uff, sp, xyz, 0, f_gpu, NULL, e_gpu, below);
        double worst_e = 0, worst_fr = 0, worst_vs_direct = 0;
        for (int32_t r = 0; r < REPLICAS; ++r) {
            worst_e = fmax(worst_e, fabs(e_gpu[r] - er[r]) / fmax(fabs(er[r]), 1.0));
            worst_fr = fmax(
                worst_fr, rms_rel_error(f_gpu + 3 * (size_t)n * r, fr + 3 * (size_t)n * r, 3 * n));
            worst_vs_direct =
                fmax(worst_vs_direct,
                     rms_rel_error(f_gpu + 3 * (size_t)n * r, f_ref + 3 * (size_t)n * r, 3 * n));
            CHECK(below[r] == 0);
            if (mode)
                CHECK(fabs(e_gpu[r] - e_direct[r]) <= TOL_GRID_ENERGY_ABS);
        }
        printf("device %s vs reference %s, %d replicas: energy max rel %.3e, forces max RMS-rel "
               "%.3e; device %s forces vs reference direct max RMS-rel %.3e\n",
               mode ? "grid" : "direct", mode ? "grid" : "direct", REPLICAS, worst_e, worst_fr,
               mode ? "grid" : "direct", worst_vs_direct);
        CHECK(worst_e < 1e-5);
        CHECK(worst_fr < 1e-4);
        CHECK(worst_vs_direct <= TOL_GRID_FORCE_RMS);
    }
    /* the UFF pass and the surface add into the same planes: UFF + surface
     * equals the UFF pass alone plus the surface pass alone (integer sums) */
    {
        double *f_alone = calloc(3 * (size_t)total, sizeof *f_alone);
        vkmd_uff_energy alone_e[REPLICAS];
        gpu_run(ctx, uff, sp_direct, xyz, 0, f_alone, NULL, e_gpu, below);
        CHECK_OK(vkmd_pass_uff_evaluate(ctx, uff, xyz, f_gpu, alone_e));
        for (int32_t i = 0; i < 3 * total; ++i)
            f_alone[i] += f_gpu[i];
        gpu_run(ctx, uff, sp_direct, xyz, 1, f_gpu, uff_e, e_gpu, below);
        const double diff = max_abs_error(f_gpu, f_alone, 3 * total);
        double worst_e = 0;
        for (int32_t r = 0; r < REPLICAS; ++r)
            worst_e = fmax(worst_e, fabs(uff_e[r].total - alone_e[r].total));
        printf("device UFF + direct surface in one sequence vs the two passes alone: forces max "
               "|diff| %.3e kcal/mol/A, UFF totals max |diff| %.3e kcal/mol\n",
               diff, worst_e);
        CHECK(diff < 1e-8);
        CHECK(worst_e == 0);
        free(f_alone);
    }

    /* 6. XSF round trip */
    {
        char path[512];
        snprintf(path, sizeof path, "%s/surface_%s.xsf", VKMD_TEST_GEN_DIR, spec);
        CHECK_OK(vkmd_uff_surface_grid_save(path, &grid));
        CHECK_OK(vkmd_uff_surface_grid_load(path, &loaded));
        CHECK_OK(vkmd_uff_surface_grid_check(&surf, &loaded));
        CHECK(loaded.form == VKMD_UFF_SURFACE_FORM_LJ && loaded.cutoff_a == surf.cutoff_a);
        CHECK(vkmd_uff_surface_grid_check(&morse, &loaded) == VKMD_ERROR_INVALID_ARGUMENT);
        const size_t count = (size_t)vkmd_uff_surface_grid_points(&grid) * grid.channel_count;
        const int same_shape = loaded.nx == grid.nx && loaded.ny == grid.ny &&
                               loaded.nz == grid.nz && loaded.channel_count == grid.channel_count;
        CHECK(same_shape);
        if (same_shape) {
            const int same_values = memcmp(loaded.values, grid.values, count * sizeof(float)) == 0;
            double max_coef = 0;
            const size_t nc = (size_t)grid.nx * grid.ny * (grid.nz + 2) * grid.channel_count;
            for (size_t i = 0; i < nc; ++i)
                max_coef = fmax(max_coef, fabs(loaded.coef[i] - grid.coef[i]));
            printf("XSF round trip %s: %zu values bitwise %s, z0 %.17g vs %.17g, dz %.17g vs "
                   "%.17g, coefficients max |diff| %.3e\n",
                   path, count, same_values ? "identical" : "DIFFERENT", loaded.z0, grid.z0,
                   loaded.dz, grid.dz, max_coef);
            CHECK(same_values);
            CHECK(max_coef < 1e-9);
            int32_t b = 0;
            const double e = ref_uff_surface_grid(&loaded, ch, n, xyz, NULL, &b);
            CHECK(fabs(e - e_grid[0]) < 1e-9);
        }
    }

    vkmd_pass_uff_surface_destroy(ctx, sp_grid);
    vkmd_pass_uff_surface_destroy(ctx, sp_direct);
    vkmd_pass_uff_destroy(ctx, uff);
    vkmd_uff_batch_free(&batch);
    vkmd_uff_surface_grid_free(&loaded);
    vkmd_uff_surface_grid_free(&grid);
    vkmd_uff_surface_free(&morse);
    vkmd_uff_surface_free(&surf);
    vkmd_uff_substrate_free(&sub);
    free(xyz);
    free(f_ref);
    free(f_grid);
    free(f_gpu);
    free(ch);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_uff_surface", &ctx);
    if (early >= 0)
        return early;
    setup su = {0};
    CHECK_OK(vkmd_uff_molecule_load("xylitol", &su.mol, &su.mol_count));
    CHECK_OK(vkmd_uff_params_load_default(&su.params));
    CHECK_OK(vkmd_uff_setup(&su.mol[0], NULL, &su.types, &su.terms));
    su.label_count = vkmd_uff_surface_labels(&su.types, su.labels);
    printf("xylitol: %d atoms, %d UFF types:", su.mol[0].atom_count, su.label_count);
    for (int32_t i = 0; i < su.label_count; ++i)
        printf(" %s", su.labels[i]);
    printf("\n");
    run_substrate(ctx, &su, "nacl");
    run_substrate(ctx, &su, "graphene");
    vkmd_uff_terms_free(&su.terms);
    vkmd_uff_typing_free(&su.types);
    vkmd_uff_params_destroy(&su.params);
    vkmd_uff_molecule_array_free(su.mol, su.mol_count);
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_uff_surface");
}
