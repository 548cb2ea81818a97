/* Generalized Born settings and model names (see gb_settings.h). */
#include "system/gb_settings.h"

#include <math.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    int igb;
    const char *radius_set;
} models[VKMD_GB_MODEL_COUNT] = {
    [VKMD_GB_NONE] = {"none", 0, ""},        [VKMD_GB_HCT] = {"hct", 1, "mbondi"},
    [VKMD_GB_OBC1] = {"obc1", 2, "mbondi2"}, [VKMD_GB_OBC2] = {"obc2", 5, "mbondi2"},
    [VKMD_GB_GBN] = {"gbn", 7, "bondi"},     [VKMD_GB_GBN2] = {"gbn2", 8, "mbondi3"},
};

vkmd_result vkmd_gb_model_parse(const char *name, vkmd_gb_model *out)
{
    for (int m = VKMD_GB_HCT; name && m < VKMD_GB_MODEL_COUNT; ++m) {
        char igb[4];
        igb[0] = (char)('0' + models[m].igb);
        igb[1] = 0;
        if (!strcasecmp(name, models[m].name) || !strcmp(name, igb)) {
            *out = (vkmd_gb_model)m;
            return VKMD_OK;
        }
    }
    return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                     "unknown generalized Born model '%s': expected hct, obc1, obc2, gbn or gbn2 "
                     "(AMBER igb 1, 2, 5, 7 or 8)",
                     name ? name : "(null)");
}

const char *vkmd_gb_model_name(vkmd_gb_model model)
{
    return model >= 0 && model < VKMD_GB_MODEL_COUNT ? models[model].name : "?";
}

int vkmd_gb_model_igb(vkmd_gb_model model)
{
    return model >= 0 && model < VKMD_GB_MODEL_COUNT ? models[model].igb : 0;
}

const char *vkmd_gb_model_radius_set(vkmd_gb_model model)
{
    return model >= 0 && model < VKMD_GB_MODEL_COUNT ? models[model].radius_set : "";
}

static double or_default(double v, double d)
{
    return v == 0 ? d : v;
}

vkmd_result vkmd_gb_settings_resolve(const vkmd_gb_settings *in, vkmd_gb_settings *out)
{
    vkmd_gb_settings s = *in;
    if (s.model <= VKMD_GB_NONE || s.model >= VKMD_GB_MODEL_COUNT)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born: model %d is not one of hct, obc1, obc2, gbn, gbn2",
                         (int)s.model);
    s.solute_dielectric = or_default(s.solute_dielectric, 1.0);
    s.solvent_dielectric = or_default(s.solvent_dielectric, 78.5);
    s.temperature_k = or_default(s.temperature_k, 298.15); /* OpenMM createSystem's default */
    s.surface_tension_kcal_a2 =
        or_default(s.surface_tension_kcal_a2, VKMD_GB_SURFACE_TENSION_DEFAULT);
    s.probe_radius_a = or_default(s.probe_radius_a, VKMD_GB_PROBE_RADIUS_DEFAULT);
    if (!(s.solute_dielectric > 0) || !(s.solvent_dielectric > 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born: dielectrics must be > 0 (solute %g, solvent %g)",
                         s.solute_dielectric, s.solvent_dielectric);
    if (!(s.salt_molar >= 0) || !(s.temperature_k > 0) || !(s.cutoff_a >= 0) ||
        !(s.surface_tension_kcal_a2 >= 0) || !(s.probe_radius_a >= 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born: salt %g mol/L, temperature %g K, cutoff %g A, "
                         "surface tension %g kcal/mol/A^2 and probe radius %g A must be >= 0 "
                         "(temperature > 0)",
                         s.salt_molar, s.temperature_k, s.cutoff_a, s.surface_tension_kcal_a2,
                         s.probe_radius_a);
    *out = s;
    return VKMD_OK;
}

double vkmd_gb_kappa_per_a(const vkmd_gb_settings *r)
{
    return 0.73 * 50.33355 * sqrt(r->salt_molar / r->solvent_dielectric / r->temperature_k);
}
