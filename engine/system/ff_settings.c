/* Defaults and validation of the non-bonded settings (see ff_settings.h). */
#include "system/ff_settings.h"
#include "core/options.h"

#include <math.h>
#include <string.h>

int vkmd_ff_fft_size(int n)
{
    if (n < 1)
        n = 1;
    for (;; ++n) {
        int m = n;
        static const int primes[] = {2, 3, 5, 7};
        for (int p = 0; p < 4; ++p)
            while (m % primes[p] == 0)
                m /= primes[p];
        if (m == 1)
            return n;
    }
}

double vkmd_ff_coulomb_k(const vkmd_ff_settings *s)
{
    return s->coulomb == VKMD_COULOMB_AMBER ? VKMD_COULOMB_K_AMBER : VKMD_COULOMB_K_OPENMM;
}

vkmd_result vkmd_ff_settings_resolve(vkmd_ff_settings *s, const vkmd_system *sys)
{
    if (s->cutoff_a == 0)
        s->cutoff_a = VKMD_FF_CUTOFF_A;
    if (s->ewald_tolerance == 0)
        s->ewald_tolerance = 5e-4;
    if (s->pme_order == 0)
        s->pme_order = 5;
    if (!(s->cutoff_a > 0) || !isfinite(s->cutoff_a))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "cutoff must be > 0 A (got %g)", s->cutoff_a);
    if (!(s->ewald_tolerance > 0 && s->ewald_tolerance < 0.5))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "Ewald tolerance must be in (0, 0.5) (got %g)", s->ewald_tolerance);
    if (s->pme_order < 3 || s->pme_order > 12)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "PME order must be 3..12 (got %d)",
                         s->pme_order);
    if (s->coulomb != VKMD_COULOMB_OPENMM && s->coulomb != VKMD_COULOMB_AMBER)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown Coulomb constant choice %d",
                         (int)s->coulomb);
    if (s->positions < 0 || s->positions > 2) /* VKMD_POSITIONS_FP32 .. SPLIT_INT */
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown positions mode %d", s->positions);
    if (s->ewald_alpha == 0)
        s->ewald_alpha = sqrt(-log(2.0 * s->ewald_tolerance)) / s->cutoff_a;
    if (!(s->ewald_alpha > 0) || !isfinite(s->ewald_alpha))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "Ewald alpha must be > 0 1/A (got %g)",
                         s->ewald_alpha);
    if (s->gb.model != VKMD_GB_NONE) {
        if (sys->box.periodic)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "implicit solvent (%s) needs a system without a periodic box: this "
                             "one has a box (explicit solvent); strip the water and the box "
                             "(e.g. ParmEd's strip and box=None) or run it without --implicit",
                             vkmd_gb_model_name(s->gb.model));
        vkmd_gb_settings gb;
        VKMD_TRY_RETURN(vkmd_gb_settings_resolve(&s->gb, &gb));
        s->gb = gb;
    }
    if (!sys->box.periodic)
        return VKMD_OK; /* no cutoff, no PME: plain Coulomb over all pairs */
    for (int d = 0; d < 3; ++d) {
        if (s->pme_grid[d] == 0) {
            /* OpenMM NonbondedForceImpl::calcPMEParameters: the box
             * vectors' diagonal (ax, by, cz) for a triclinic cell. */
            const double edge = sys->box.triclinic ? sys->box.vec[d][d] : sys->box.len[d];
            int n = (int)ceil(2.0 * s->ewald_alpha * edge / (3.0 * pow(s->ewald_tolerance, 0.2)));
            if (n < 6)
                n = 6;
            s->pme_grid[d] = s->openmm_reference_grid ? n : vkmd_ff_fft_size(n);
        }
        if (s->pme_grid[d] < s->pme_order)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "PME grid %dx%dx%d: every dimension must be >= the order %d",
                             s->pme_grid[0], s->pme_grid[1], s->pme_grid[2], s->pme_order);
    }
    return vkmd_system_check_coordinates(sys, s->cutoff_a, "system");
}

void vkmd_energy_sum(vkmd_energy *e)
{
    e->lj = e->lj_pair + e->lj14 + e->lj_dispersion;
    e->coulomb = e->coulomb_real + e->coulomb_recip + e->coulomb_self + e->coulomb_excl +
                 e->coulomb_net_charge + e->coulomb14;
    e->total = e->bond + e->angle + e->dihedral + e->lj + e->coulomb + e->restraint +
               e->urey_bradley + e->improper_harmonic + e->cmap + e->gb + e->nonpolar;
}

vkmd_result vkmd_lj_option_parse(const char *opt, const char *s, int *out_lj, double *out_min_r_a)
{
    static const struct {
        const char *name;
        int value;
    } forms[] = {
        {"fp32", VKMD_LJ_FP32}, {"fp16-powers", VKMD_LJ_FP16_POWERS}, {"fp16", VKMD_LJ_FP16}};
    for (size_t k = 0; k < sizeof forms / sizeof *forms; ++k) {
        const size_t n = strlen(forms[k].name);
        if (strncmp(s, forms[k].name, n) != 0)
            continue;
        if (s[n] == 0) {
            *out_lj = forms[k].value;
            *out_min_r_a = 0;
            return VKMD_OK;
        }
        if (s[n] == ':' && forms[k].value != VKMD_LJ_FP32) {
            *out_lj = forms[k].value;
            return vkmd_option_double(opt, s + n + 1, 0, 1e3, out_min_r_a);
        }
    }
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                     "%s: '%s' is not fp32, fp16[:R] or fp16-powers[:R]", opt, s);
}
