/* MD in a triclinic cell on the device: rigid TIP3P water (SETTLE, PME, 8 A
 * cutoff) in a truncated octahedron, beside the same construction in a cube
 * of the same volume, both pass by pass (the fused step takes rectangular
 * boxes only):
 *   - NVE (velocity Verlet, 2 fs) from a Langevin-relaxed state: total-energy
 *     drift below TOL_NVE_DRIFT_REL of |E_total| over the run, the figure
 *     printed beside the cube's; SETTLE within TOL_MD_WATER_A;
 *   - wrapping: every molecule's first atom in the brick [0, ax) x [0, by) x
 *     [0, cz) and every molecule whole after the run;
 *   - Monte Carlo barostat moves on the octahedron: an accepted move scales
 *     the cell's vectors uniformly (angles kept) and its device energy equals
 *     the CPU reference at the new cell and positions (1e-5); a rejected move
 *     puts the state back bit for bit; a non-isotropic barostat is refused.
 * With VKMD_TEST_QUICK=1 the runs are shorter and the drift is printed, not
 * enforced. */
#include "test_md_common.h"
#include "tolerance.h"
#include "triclinic_water.h"
#include "core/units.h"
#include "forces/positions.h"
#include "ref/ref.h"
#include "vk/context.h"

/* Relaxes, then runs NVE; returns the drift (kcal/mol/ps), *out_rel the drift
 * over the run relative to |E_total|. */
static double nve(vkmd_vk_context *ctx, const char *name, const vkmd_system *sys,
                  const vkmd_ff_settings *s, int64_t relax, int64_t steps, int quick,
                  double *out_rel)
{
    const vkmd_md_desc d = {.settings = s,
                            .integrator = VKMD_INTEGRATOR_LANGEVIN,
                            .dt_fs = 2.0,
                            .temperature_k = 300,
                            .friction_per_ps = 1,
                            .seed = 77,
                            .unfused = 1,
                            .max_batch_steps = SAMPLE_EVERY};
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x0 = malloc(sizeof *x0 * n3), *v0 = malloc(sizeof *v0 * n3);
    relax_start(ctx, sys, &d, relax, x0, v0);
    vkmd_md_desc dv = d;
    dv.integrator = VKMD_INTEGRATOR_VERLET;
    dv.com_every = -1;
    vkmd_md *md = NULL;
    double drift = NAN;
    *out_rel = NAN;
    CHECK_OK(vkmd_md_create(ctx, sys, &dv, &md));
    if (md) {
        CHECK_OK(vkmd_md_set_state(ctx, md, x0, v0));
        series ser = {0};
        const double worst = run(ctx, md, steps, &ser);
        if (ser.n >= 2) {
            const double b = slope(&ser);
            const double len_ps = ser.t_ps[ser.n - 1] - ser.t_ps[0];
            double mean_e = 0, mean_t = 0;
            for (int i = 0; i < ser.n; ++i) {
                mean_e += ser.total[i] / ser.n;
                mean_t += ser.temp[i] / ser.n;
            }
            *out_rel = fabs(b * len_ps) / fabs(mean_e);
            printf("NVE %-21s %d atoms, 2 fs, %lld steps (%.1f ps): E_total %.3f kcal/mol, mean "
                   "T %.1f K, drift %.4f kcal/mol/ps = %.3e of |E_total| over the run (limit "
                   "%.0e), %.4f kT/ns/dof; max water violation %.2e A\n",
                   name, sys->atom_count, (long long)steps, len_ps, mean_e, mean_t, b, *out_rel,
                   TOL_NVE_DRIFT_REL,
                   b * 1000.0 / (VKMD_BOLTZMANN_KCAL * mean_t * (double)vkmd_md_dof(md)), worst);
            drift = b;
            if (!quick)
                CHECK_MSG(*out_rel < TOL_NVE_DRIFT_REL, "%s drift %.3e of |E|", name, *out_rel);
        }
        CHECK_MSG(worst <= TOL_MD_WATER_A, "water violation %.3e A", worst);
        series_free(&ser);

        /* wrapped whole molecules: the first atom of each water in the brick */
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x0, NULL));
        int outside = 0, broken = 0;
        const double(*v)[3] = sys->box.vec;
        for (int32_t m = 0; m < sys->atom_count / 3; ++m) {
            const double *o = &x0[9 * m];
            for (int c = 0; c < 3; ++c)
                outside += !(o[c] >= -1e-4 && o[c] < v[c][c] + 1e-4);
            for (int h = 1; h < 3; ++h) {
                const double dx = o[3 * h] - o[0], dy = o[3 * h + 1] - o[1],
                             dz = o[3 * h + 2] - o[2];
                broken += dx * dx + dy * dy + dz * dz > 1.1 * 1.1;
            }
        }
        printf("  after the run: %d oxygen coordinates outside the brick, %d O-H pairs not whole\n",
               outside, broken);
        CHECK(outside == 0 && broken == 0);
    }
    vkmd_md_destroy(ctx, md);
    free(x0);
    free(v0);
    return drift;
}

/* Barostat moves on the octahedron until one is accepted and one rejected. */
static void barostat(vkmd_vk_context *ctx, vkmd_system *sys, const vkmd_ff_settings *s)
{
    vkmd_md_desc aniso = {
        .settings = s, .seed = 3, .pressure_bar = 1, .barostat = VKMD_BAROSTAT_ANISO};
    vkmd_md *md = NULL;
    vkmd_result r = vkmd_md_create(ctx, sys, &aniso, &md);
    printf("anisotropic barostat on the octahedron: %s\n", vkmd_last_error());
    CHECK(r == VKMD_ERROR_INVALID_ARGUMENT && !md);

    const vkmd_md_desc d = {.settings = s, .seed = 11, .temperature_k = 300, .unfused = 1};
    CHECK_OK(vkmd_md_create(ctx, sys, &d, &md));
    vkmd_barostat *b = NULL;
    CHECK_OK(vkmd_barostat_create(3000, 25, VKMD_BAROSTAT_ISO, VKMD_BOLTZMANN_KCAL * 300, 11,
                                  vkmd_md_molecules(md)->count, &b));
    if (!md || !b)
        return;
    CHECK_OK(vkmd_md_init_velocities(ctx, md, 300, 5));
    CHECK_OK(vkmd_md_step(ctx, md, 10));
    const size_t n3 = 3 * (size_t)sys->atom_count;
    double *x = malloc(sizeof *x * n3), *xa = malloc(sizeof *xa * n3), *f = malloc(sizeof *f * n3);
    int accepted = 0, rejected = 0;
    for (int tries = 0; tries < 60 && !(accepted && rejected); ++tries) {
        vkmd_box before, after;
        vkmd_md_get_cell(md, &before);
        CHECK_OK(vkmd_md_read(ctx, md, NULL, x, NULL));
        int acc = 0;
        CHECK_OK(vkmd_md_barostat_move(ctx, md, b, &acc));
        vkmd_md_get_cell(md, &after);
        CHECK_OK(vkmd_md_read(ctx, md, NULL, xa, NULL));
        if (acc && !accepted) {
            accepted = 1;
            const double sc = after.len[0] / before.len[0];
            double worst = 0;
            for (int i = 0; i < 3; ++i) {
                worst = fmax(worst, fabs(after.angle_deg[i] - before.angle_deg[i]));
                for (int j = 0; j < 3; ++j)
                    worst = fmax(worst, fabs(after.vec[i][j] - sc * before.vec[i][j]));
            }
            vkmd_energy eg, er;
            CHECK_OK(vkmd_forcefield_readback(ctx, vkmd_md_forcefield(md), &eg, NULL));
            vkmd_system at = *sys; /* the arrays are shared, positions swapped for the check */
            double *keep = at.positions;
            at.positions = xa;
            at.box = after;
            CHECK_OK(vkmd_ref_compute(&at, s, &er, f));
            at.positions = keep;
            printf("accepted move: edge %.4f -> %.4f A (scale %.6f), largest change of an angle "
                   "or of a vector from the uniform scaling %.2e; device total %.4f vs "
                   "reference %.4f kcal/mol at the new cell\n",
                   before.len[0], after.len[0], sc, worst, eg.total, er.total);
            CHECK(worst < 1e-9 && after.triclinic);
            check_close("energy after the move (kcal/mol)", eg.total, er.total,
                        TOL_FP32_TOTAL_REL * 10, TOL_FP32_ENERGY_ZERO);
        } else if (!acc && !rejected) {
            rejected = 1;
            int same = !memcmp(&before, &after, sizeof before) && !memcmp(x, xa, n3 * sizeof *x);
            printf("rejected move: cell and positions %s\n",
                   same ? "bitwise as before" : "CHANGED");
            CHECK(same);
        }
        CHECK_OK(vkmd_md_step(ctx, md, 5));
    }
    CHECK(accepted && rejected);
    vkmd_md_report rep;
    CHECK_OK(vkmd_md_read(ctx, md, &rep, NULL, NULL));
    printf("after the moves: volume %.1f A^3 (cell %.1f), density %.4f g/cm^3, T %.1f K\n",
           rep.volume_a3, vkmd_box_volume_a3(&rep.cell), rep.density_g_cm3, rep.temperature_k);
    CHECK(rep.cell.triclinic && fabs(rep.volume_a3 - vkmd_box_volume_a3(&rep.cell)) < 1e-9);
    CHECK(isfinite(rep.total) && isfinite(rep.temperature_k));
    free(x);
    free(xa);
    free(f);
    vkmd_barostat_destroy(b);
    vkmd_md_destroy(ctx, md);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int rc = test_vk_open("test_md_triclinic", &ctx);
    if (rc >= 0)
        return rc;
    const int quick = test_quick();
    const int64_t relax = quick ? 100 : 300, steps = quick ? 200 : 800;
    vkmd_box oct, cube;
    CHECK_OK(vkmd_box_set(&oct, (double[]){24, 24, 24}, (double[]){OCT_DEG, OCT_DEG, OCT_DEG},
                          "octahedron"));
    const double edge = cbrt(vkmd_box_volume_a3(&oct));
    vkmd_box_set_rect(&cube, (double[]){edge, edge, edge});
    vkmd_system so = {0}, sc = {0};
    triclinic_water(&oct, &so);
    triclinic_water(&cube, &sc);
    vkmd_ff_settings s = {.cutoff_a = 8.0}, s_cube = {.cutoff_a = 8.0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &so));
    CHECK_OK(vkmd_ff_settings_resolve(&s_cube, &sc));
    double rel_oct = NAN, rel_cube = NAN;
    const double d_oct = nve(ctx, "truncated octahedron", &so, &s, relax, steps, quick, &rel_oct);
    const double d_cube =
        nve(ctx, "cube (same volume)", &sc, &s_cube, relax, steps, quick, &rel_cube);
    printf("drift: octahedron %.4f kcal/mol/ps (%.2e of |E|), cube %.4f kcal/mol/ps (%.2e of "
           "|E|)\n",
           d_oct, rel_oct, d_cube, rel_cube);
    barostat(ctx, &so, &s);
    vkmd_system_destroy(&so);
    vkmd_system_destroy(&sc);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_md_triclinic");
}
