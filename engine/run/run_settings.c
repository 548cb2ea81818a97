/* The settings record of a run (see run_settings.h). */
#include "run/run_settings.h"

#include "forces/positions.h"

#include <stdio.h>
#include <string.h>

void vkmd_run_settings_text(const vkmd_run_desc *d, const vkmd_ff_settings *ff,
                            const vkmd_precision_choice *c, char *out, size_t size)
{
    const vkmd_md_desc *m = &d->md;
    snprintf(out, size,
             "system %s\n"
             "integrator %s\ndt_fs %.17g\ntemperature_k %.17g\nfriction_per_ps %.17g\n"
             "constraints %s\nrigid_water %s\nconstraint_tol %.17g\nhmr_amu %.17g\n"
             "cutoff_a %.17g\newald_tolerance %.17g\npme_grid %dx%dx%d\ncom_every %d\n"
             "seed %llu\nreport_every %lld\ntraj_every %lld\n",
             d->system, m->integrator == VKMD_INTEGRATOR_VERLET ? "verlet" : "langevin", m->dt_fs,
             m->temperature_k, m->friction_per_ps,
             m->constraints == VKMD_CONSTRAINTS_NONE ? "none" : "hbonds",
             m->flexible_water ? "no" : "yes", m->constraint_tol, d->hmr_mass_amu, ff->cutoff_a,
             ff->ewald_tolerance, ff->pme_grid[0], ff->pme_grid[1], ff->pme_grid[2], m->com_every,
             (unsigned long long)m->seed, (long long)d->report_every, (long long)d->traj_every);
    size_t len = strlen(out);
    snprintf(out + len, size - len, "precision %s\npositions %s\n", vkmd_precision_name(c->chosen),
             vkmd_positions_mode_name(ff->positions));
    for (int32_t i = 0; i < d->stage_count; ++i) {
        const vkmd_run_stage *st = &d->stages[i];
        len = strlen(out);
        snprintf(out + len, size - len,
                 "stage_%d %s: %lld steps, %.17g K, %.17g bar, restraint_k %.17g\n", i + 1,
                 st->name, (long long)st->steps, st->temperature_k, st->pressure_bar,
                 st->restraint_k);
    }
    if (ff->nonbonded_fp16) {
        len = strlen(out);
        snprintf(out + len, size - len, "nonbonded %s beyond %.17g A\n",
                 ff->nonbonded_fp16 == VKMD_LJ_FP16_POWERS ? "fp16-powers" : "fp16",
                 ff->fp16_min_r_a);
    }
    if (ff->gb.model != VKMD_GB_NONE) { /* absent without: older checkpoints stay readable */
        const vkmd_gb_settings *g = &ff->gb;
        len = strlen(out);
        snprintf(out + len, size - len,
                 "implicit %s\nsalt_molar %.17g\ngbsa %s\nsolute_dielectric %.17g\n"
                 "solvent_dielectric %.17g\ngb_cutoff_a %.17g\n",
                 vkmd_gb_model_name(g->model), g->salt_molar, g->nonpolar ? "ace" : "none",
                 g->solute_dielectric, g->solvent_dielectric, g->cutoff_a);
    }
    if (m->pressure_bar > 0) { /* absent at constant volume: older checkpoints stay readable */
        len = strlen(out);
        snprintf(out + len, size - len, "pressure_bar %.17g\nbarostat %s\nbarostat_every %d\n",
                 m->pressure_bar, vkmd_barostat_mode_name(m->barostat), m->barostat_every);
    }
}

void vkmd_run_settings_restraints(const vkmd_restraint_spec *spec, const vkmd_restraints *r,
                                  char *out, size_t size)
{
    const int mask = spec->mask && spec->mask[0];
    snprintf(out, size,
             "restraint_selection %s:%.200s\nrestraints %d atoms %016llx\nrestraint_k %.17g\n"
             "restraint_flat_bottom_a %.17g\n",
             mask ? "mask" : "file", mask ? spec->mask : spec->file, r->count,
             (unsigned long long)vkmd_restraints_digest(r), r->k, r->flat_bottom_a);
}

vkmd_result vkmd_run_settings_check(const vkmd_checkpoint *c, const char *now, const char *path)
{
    for (const char *line = now; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        char key[64], want[256];
        const char *sp = memchr(line, ' ', len);
        if (sp && (size_t)(sp - line) < sizeof key) {
            memcpy(key, line, (size_t)(sp - line));
            key[sp - line] = 0;
            const size_t vl = len - (size_t)(sp - line) - 1;
            char value[256];
            snprintf(value, sizeof value, "%.*s", (int)vl, sp + 1);
            if (!vkmd_checkpoint_setting(c, key, want, sizeof want))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: the checkpoint has no '%s'",
                                 path, key);
            if (strcmp(want, value))
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "%s: the checkpoint was written with %s %s, this run has %s %s: "
                                 "give the same options as the run that wrote it",
                                 path, key, want, key, value);
        }
        line = end ? end + 1 : line + len;
    }
    char want[256];
    if (!strstr(now, "\nrestraints ") &&
        vkmd_checkpoint_setting(c, "restraints", want, sizeof want))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: the checkpoint was written with restraints (%s), this run has none: "
                         "give the same options as the run that wrote it",
                         path, want);
    if (!strstr(now, "\nnonbonded ") && vkmd_checkpoint_setting(c, "nonbonded", want, sizeof want))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: the checkpoint was written with --nonbonded %s, this run uses fp32 "
                         "LJ: give the same options as the run that wrote it",
                         path, want);
    if (!strstr(now, "\npressure_bar ") &&
        vkmd_checkpoint_setting(c, "pressure_bar", want, sizeof want))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: the checkpoint was written with --pressure %s, this run has constant "
                         "volume: give the same options as the run that wrote it",
                         path, want);
    return VKMD_OK;
}

int vkmd_run_settings_precision(const vkmd_checkpoint *c, const vkmd_precision_request *req,
                                vkmd_precision_request *out)
{
    char want[256];
    if (req->precision != VKMD_PRECISION_AUTO || req->positions_set || req->lj_set ||
        !vkmd_checkpoint_setting(c, "precision", want, sizeof want))
        return 0;
    *out = (vkmd_precision_request){0};
    if (vkmd_precision_parse(want, &out->precision) != VKMD_OK)
        return -1;
    if (vkmd_checkpoint_setting(c, "positions", want, sizeof want)) {
        if (vkmd_positions_mode_parse(want, &out->positions) != VKMD_OK)
            return -1;
        out->positions_set = 1;
    }
    if (vkmd_checkpoint_setting(c, "nonbonded", want, sizeof want)) {
        char form[64] = "";
        double min_r = 0;
        out->lj_set = 1;
        if (sscanf(want, "%63s beyond %lf", form, &min_r) == 2) {
            if (vkmd_lj_form_parse(form, &out->lj) != VKMD_OK || !(min_r >= 0 && min_r <= 1e3)) {
                vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                          "the checkpoint's nonbonded record '%s' is not FORM beyond R A", want);
                return -1;
            }
            out->lj_min_r_a = min_r;
        }
    }
    return 1;
}
