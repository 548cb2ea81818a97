/* Run summaries as text and JSON (see run_summary.h). */
#include "run/run_summary.h"

#include "core/json_write.h"
#include "core/stop.h"
#include <string.h>

/* A Langevin run exchanges energy with its bath: its total energy has no
 * drift to speak of, so only a Verlet (NVE) run reports one. */
static int reports_drift(const vkmd_run_desc *d)
{
    return d->md.integrator == VKMD_INTEGRATOR_VERLET;
}

void vkmd_run_summary_write_text(FILE *out, const vkmd_run *run, const vkmd_run_summary *s)
{
    const vkmd_run_desc *d = vkmd_run_desc_get(run);
    fprintf(out, "vkmd run: %lld steps of %s in %.1f s on %s: %.3f ns/day, T %.2f +- %.2f K",
            (long long)(s->last_step - s->first_step), d->system, s->wall_s, s->device,
            s->ns_per_day, s->mean_temperature_k, s->sd_temperature_k);
    const long long nt = (long long)s->temperature_samples;
    const char *reports = nt == 1 ? "report" : "reports";
    const double ps = d->md.dt_fs * 1e-3,
                 settle = 1.0 / d->md.friction_per_ps - (double)d->equilibrate * ps;
    if (reports_drift(d) || s->temperature_from_ps <= (double)s->first_step * ps)
        fprintf(out, " (mean +- sd over the %lld %s)", nt, reports);
    else if (s->temperature_from_ps < settle - 1e-9)
        fprintf(out,
                " (mean +- sd over the %lld %s of the run's second half; the %g/ps bath takes "
                "about %g ps to take hold)",
                nt, reports, d->md.friction_per_ps, settle);
    else
        fprintf(out,
                " (mean +- sd over the %lld %s from %g ps, once the %g/ps bath has taken hold)", nt,
                reports, s->temperature_from_ps, d->md.friction_per_ps);
    if (vkmd_run_system(run)->box.periodic)
        fprintf(out, ", density %.4f +- %.4f g/cm^3 (every report)", s->mean_density_g_cm3,
                s->sd_density_g_cm3);
    if (reports_drift(d))
        fprintf(out, ", energy drift %.4g kcal/mol/ns (%.3g kT/ns/dof)",
                s->drift.slope_kcal_mol_per_ns, s->drift.kt_per_ns_per_dof);
    fprintf(out, "; outputs in %s/\n", d->out_dir);
}

void vkmd_run_summary_write_json(FILE *out, const vkmd_run *run, const vkmd_run_summary *s)
{
    const vkmd_run_desc *d = vkmd_run_desc_get(run);
    const vkmd_precision_choice *c = vkmd_run_precision(run);
    fprintf(out, "{\"system\": ");
    vkmd_json_write_string(out, d->system);
    fprintf(out, ", \"device\": ");
    vkmd_json_write_string(out, s->device);
    fprintf(out,
            ", \"atoms\": %d, \"dof\": %lld, \"integrator\": \"%s\", \"dt_fs\": %g, "
            "\"steps\": %lld, \"first_step\": %lld, \"temperature_target_K\": %g, "
            "\"wall_s\": %.3f, \"ns_per_day\": %.4f, \"mean_temperature_K\": %.3f, "
            "\"sd_temperature_K\": %.3f, \"temperature_from_ps\": %g, "
            "\"temperature_reports\": %lld, \"final_total_kcal_mol\": %.6f",
            vkmd_run_system(run)->atom_count, (long long)s->dof,
            reports_drift(d) ? "verlet" : "langevin", d->md.dt_fs, (long long)s->last_step,
            (long long)s->first_step, d->md.temperature_k, s->wall_s, s->ns_per_day,
            s->mean_temperature_k, s->sd_temperature_k, s->temperature_from_ps,
            (long long)s->temperature_samples, s->final.total);
    if (vkmd_run_system(run)->box.periodic)
        fprintf(out, ", \"mean_density_g_cm3\": %.6f, \"sd_density_g_cm3\": %.6f",
                s->mean_density_g_cm3, s->sd_density_g_cm3);
    if (reports_drift(d))
        fprintf(out,
                ", \"energy_drift_kcal_mol_per_ns\": %.6g, "
                "\"energy_drift_stderr_kcal_mol_per_ns\": %.6g, "
                "\"energy_drift_kT_per_ns_per_dof\": %.6g",
                s->drift.slope_kcal_mol_per_ns, s->drift.slope_stderr_kcal_mol_per_ns,
                s->drift.kt_per_ns_per_dof);
    fprintf(out, ", \"max_water_violation_A\": %.3g, \"max_hbond_violation_rel\": %.3g",
            s->max_water_violation_a, s->max_hbond_violation_rel);
    if (s->minimized)
        fprintf(out,
                ", \"minimize\": {\"iterations\": %d, \"energy_initial_kcal_mol\": %.6f, "
                "\"energy_final_kcal_mol\": %.6f, \"max_force_kcal_mol_A\": %.6g, "
                "\"converged\": %s}",
                s->minimize.iterations, s->minimize.energy_initial, s->minimize.energy_final,
                s->minimize.max_force, s->minimize.converged ? "true" : "false");
    fprintf(out, ", ");
    vkmd_precision_print_json(out, c);
    fprintf(out, ", \"lj_precision\": \"%s\", \"lj_fp16_min_r_a\": %g",
            vkmd_lj_form_name(c->nonbonded_fp16), c->nonbonded_fp16 ? c->fp16_min_r_a : 0.0);
    fprintf(out, ", \"outputs\": {\"energy\": \"energy.csv\", \"trajectory\": ");
    if (d->traj_every > 0 && d->traj_path)
        vkmd_json_write_string(out, d->traj_path);
    else
        fprintf(out, "%s", d->traj_every > 0 ? "\"traj.dcd\"" : "null");
    fprintf(out, ", \"final\": \"final.pdb\", \"checkpoint\": \"checkpoint.chk\"");
    if (d->restart_out) {
        fprintf(out, ", \"restart\": ");
        vkmd_json_write_string(out, d->restart_out);
    }
    fprintf(out, "}}\n");
}

void vkmd_run_summary_write_stop(FILE *out, const char *prog, const vkmd_run *run,
                                 const vkmd_run_summary *s)
{
    (void)run;
    if (s->ended == VKMD_RUN_INTERRUPTED && s->partial_path) {
        const int eq = !strcmp(s->stopped_in, "equilibration");
        fprintf(out,
                "%s: %s stopped by %s %s; nothing of the run's dynamics was written; its state "
                "is %s: continue with the same options and --coords %s%s\n",
                prog, s->stopped_in, vkmd_stop_name(s->stop_why), s->stop_detail, s->partial_path,
                s->partial_path,
                eq ? " (--equilibrate the steps left)" : " (--minimize goes on from it)");
        return;
    }
    char what[96];
    if (s->ended == VKMD_RUN_ENDED)
        snprintf(what, sizeof what, "the window closed");
    else
        snprintf(what, sizeof what, "stopped by %s", vkmd_stop_name(s->stop_why));
    fprintf(out,
            "%s: %s at step %lld; checkpoint %s is at step %lld: continue with the same options "
            "and --restart %s\n",
            prog, what, (long long)s->last_step, s->checkpoint_path,
            (long long)s->last_checkpoint_step, s->checkpoint_path);
}
