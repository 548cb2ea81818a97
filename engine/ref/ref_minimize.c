/* CPU double FIRE minimisation (see ref_minimize.h and sim/minimize.h for
 * the algorithm; FIRE's update itself is ref_fire.c, shared with the UFF
 * reference). Sums run over atoms in index order; the device sums in a
 * fixed tree order in float, so the two paths agree closely for the first
 * iterations and part slowly after (float against double forces, and a
 * FIRE reset that one path takes a step earlier than the other): tests
 * compare early energies closely and minima by energy and force norm. */
#include "ref/ref_minimize.h"
#include "core/units.h"
#include "ref/ref.h"
#include "ref/ref_fire.h"
#include "ref/ref_md.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_state {
    const vkmd_system *sys;
    const vkmd_ff_settings *s;
    const vkmd_constraint_set *set;
    const vkmd_minimize_desc *d;
    const double *mass;     /* [N] amu */
    const double *inv_mass; /* [N] 1/amu */
    double *f;              /* [3N] the force FIRE uses (constrained with a set) */
    double *a;              /* [3N] A/fs^2 */
    double energy;
} ref_state;

/* E, f and a at `pos` (see sim/minimize.h for the constrained f = m a_c). */
static vkmd_result evaluate(ref_state *r, double *pos)
{
    vkmd_result res = VKMD_OK;
    vkmd_system at = *r->sys;
    at.positions = pos;
    vkmd_energy e;
    VKMD_TRY(vkmd_ref_compute(&at, r->s, &e, r->f));
    r->energy = e.total;
    const int32_t n = r->sys->atom_count;
    for (int32_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            r->a[3 * i + c] = r->f[3 * i + c] * r->inv_mass[i] * VKMD_ACCEL_PER_FORCE_MASS;
    if (r->set) {
        VKMD_TRY(
            vkmd_host_constraints_velocities(r->set, r->mass, pos, r->a, r->d->constraint_tol));
        for (int32_t i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c)
                r->f[3 * i + c] = r->a[3 * i + c] * r->mass[i] / VKMD_ACCEL_PER_FORCE_MASS;
    }
cleanup:
    return res;
}

vkmd_result ref_minimize_run(const vkmd_system *sys, const vkmd_ff_settings *s,
                             const vkmd_constraint_set *set, const vkmd_minimize_desc *desc,
                             double *pos, vkmd_minimize_result *out)
{
    vkmd_result res = VKMD_OK;
    const vkmd_minimize_desc d = vkmd_minimize_desc_resolve(desc);
    const int32_t n = sys->atom_count;
    *out = (vkmd_minimize_result){0};
    double *buf = NULL;
    if ((res = vkmd_minimize_desc_check(&d)) != VKMD_OK)
        return res;
    if (set && set->constraint_count == 0)
        set = NULL;
    buf = calloc(14 * (size_t)n, sizeof *buf);
    if (!buf)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "reference minimisation of %d atoms", n);
    double *inv_mass = buf, *f = buf + n, *a = buf + 4 * n, *v = buf + 7 * n, *ref = buf + 10 * n;
    double *mass = buf + 13 * n;
    for (int32_t i = 0; i < n; ++i) {
        if (!(sys->atoms[i].mass > 0)) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "reference minimisation: atom %d (%s) has mass %g", i,
                            sys->atoms[i].name, sys->atoms[i].mass);
            goto cleanup;
        }
        mass[i] = sys->atoms[i].mass;
        inv_mass[i] = 1.0 / mass[i];
    }
    ref_state r = {.sys = sys,
                   .s = s,
                   .set = set,
                   .d = &d,
                   .mass = mass,
                   .inv_mass = inv_mass,
                   .f = f,
                   .a = a};
    if (set) { /* the start, constrained with itself as the reference */
        memcpy(ref, pos, 3 * (size_t)n * sizeof *pos);
        VKMD_TRY(vkmd_host_constraints_positions(set, mass, ref, pos, NULL, 0, d.constraint_tol));
    }

    ref_fire_state fire = ref_fire_start(&d.fire);
    for (int32_t it = 0;; ++it) {
        VKMD_TRY(evaluate(&r, pos));
        double f2 = 0, m2 = 0, p = 0, v2 = 0;
        for (int32_t i = 0; i < n; ++i) {
            const double *fi = f + 3 * i, *vi = v + 3 * i;
            const double fi2 = fi[0] * fi[0] + fi[1] * fi[1] + fi[2] * fi[2];
            f2 += fi2;
            m2 = fi2 > m2 ? fi2 : m2;
            p += fi[0] * vi[0] + fi[1] * vi[1] + fi[2] * vi[2];
            v2 += vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2];
        }
        const double fnorm = sqrt(f2), fmax = sqrt(m2), vnorm = sqrt(v2);
        if (!isfinite(f2) || !isfinite(p) || !isfinite(r.energy)) {
            res =
                vkmd_fail(VKMD_ERROR_NUMERIC,
                          "reference minimisation: non-finite energy or forces after %d moves", it);
            goto cleanup;
        }
        if (it == 0)
            out->energy_initial = r.energy;
        out->energy_final = r.energy;
        out->iterations = it;
        out->max_force = fmax;
        out->rms_force = sqrt(f2 / n);
        if (d.progress)
            d.progress(d.progress_user, it, r.energy, fmax);
        if (fmax < d.force_tol) {
            out->converged = 1;
            break;
        }
        if (it >= d.max_iterations)
            break;
        const ref_fire_step step = ref_fire_update(&d.fire, p, fnorm, vnorm, it, &fire);
        memcpy(ref, pos, 3 * (size_t)n * sizeof *pos);
        for (int32_t i = 0; i < n; ++i) {
            double dx[3];
            ref_fire_move_atom(&d.fire, &step, f + 3 * i, a + 3 * i, v + 3 * i, dx);
            for (int c = 0; c < 3; ++c)
                pos[3 * i + c] += dx[c];
        }
        if (set)
            VKMD_TRY(
                vkmd_host_constraints_positions(set, mass, ref, pos, NULL, 0, d.constraint_tol));
    }
cleanup:
    free(buf);
    return res;
}
