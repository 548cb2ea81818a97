/* The equilibration's summary as text and JSON (see equilibrate.h): what
 * `vkmd equilibrate` prints, for any client of vkmd_equilibrate. */
#include "run/equilibrate.h"
#include "core/stop.h"

#include "core/json_write.h"

/* The restrained atoms as given: the mask, or the atom list's file. */
static const char *restrained(const vkmd_equil_desc *d)
{
    return d->mask ? d->mask : d->run.restraints.file ? d->run.restraints.file : "";
}

void vkmd_equil_summary_write_text(FILE *out, const vkmd_equil_desc *d, const vkmd_equil_summary *s)
{
    const int implicit = d->run.ff.gb.model != VKMD_GB_NONE;
    fprintf(out, "vkmd equilibrate: %s, %d restrained atoms ('%s', k %g kcal/mol/A^2), %.1f K, ",
            d->run.system, s->restrained_atoms, restrained(d), d->restraint_k,
            d->run.md.temperature_k);
    if (implicit)
        fprintf(out, "implicit solvent %s (constant volume: no density stage)\n",
                vkmd_gb_model_name(d->run.ff.gb.model));
    else
        fprintf(out, "%.4g bar\n", d->pressure_bar);
    fprintf(out, "  %-9s %8s %9s %8s %15s %9s %9s %9s %11s %9s\n", "stage", "steps", "mean T/K",
            "sd T/K", "density g/cm3", "sd", "final", "RMSD/A", "max RMSD/A", "wall s");
    for (int p = 0; p < s->stages_done; ++p) {
        const vkmd_equil_stage *st = &s->stage[p];
        fprintf(out, "  %-9s %8lld %9.2f %8.2f %15.5f %9.5f %9.5f %9.3f %11.3f %9.1f\n", st->name,
                (long long)st->steps, st->temperature_k, st->temperature_sd_k, st->density_g_cm3,
                st->density_sd_g_cm3, st->final_density_g_cm3, st->rmsd_a, st->max_rmsd_a,
                st->seconds);
    }
    if (implicit)
        fprintf(out, "  minimisation: %d iterations; no box (implicit solvent)\n",
                s->minimize_iterations);
    else
        fprintf(out,
                "  minimisation: %d iterations; barostat acceptance %.2f; density (mean of the "
                "second half of 'free') %.5f +/- %.5f (sd) g/cm^3; box %.4f x %.4f x %.4f A\n",
                s->minimize_iterations, s->barostat_acceptance, s->density_g_cm3,
                s->density_sd_g_cm3, s->box[0], s->box[1], s->box[2]);
    fprintf(out, "  final state: %s (also final.chk, final.pdb): vkmd run %s --coords %s\n",
            s->final_rst7, d->run.system, s->final_rst7);
}

void vkmd_equil_summary_write_json(FILE *out, const vkmd_equil_desc *d, const vkmd_equil_summary *s)
{
    fputs("{\"system\": ", out);
    vkmd_json_write_string(out, d->run.system);
    fputs(d->mask ? ", \"mask\": " : ", \"restrain_file\": ", out);
    vkmd_json_write_string(out, restrained(d));
    fprintf(out,
            ", \"restrained_atoms\": %d, \"restraint_k_kcal_mol_A2\": %.17g, "
            "\"temperature_K\": %.17g, \"pressure_bar\": %.17g, \"minimize_iterations\": %d, "
            "\"barostat_acceptance\": %.6g, \"density_g_cm3\": %.8g, \"density_sd_g_cm3\": %.8g, "
            "\"box_A\": [%.8g, %.8g, %.8g], \"final_rst7\": ",
            s->restrained_atoms, d->restraint_k, d->run.md.temperature_k, d->pressure_bar,
            s->minimize_iterations, s->barostat_acceptance, s->density_g_cm3, s->density_sd_g_cm3,
            s->box[0], s->box[1], s->box[2]);
    vkmd_json_write_string(out, s->final_rst7);
    fputs(", \"stages\": [", out);
    for (int p = 0; p < s->stages_done; ++p) {
        const vkmd_equil_stage *st = &s->stage[p];
        fprintf(out,
                "%s{\"name\": \"%s\", \"steps\": %lld, \"mean_temperature_K\": %.6g, "
                "\"temperature_sd_K\": %.6g, \"density_g_cm3\": %.8g, \"density_sd_g_cm3\": %.8g, "
                "\"final_density_g_cm3\": %.8g, \"solute_rmsd_A\": %.6g, "
                "\"max_solute_rmsd_A\": %.6g, \"potential_kcal_mol\": %.10g, \"wall_s\": %.3f}",
                p ? ", " : "", st->name, (long long)st->steps, st->temperature_k,
                st->temperature_sd_k, st->density_g_cm3, st->density_sd_g_cm3,
                st->final_density_g_cm3, st->rmsd_a, st->max_rmsd_a, st->potential, st->seconds);
    }
    fputs("]}\n", out);
}

void vkmd_equil_summary_write_stop(FILE *out, const vkmd_equil_desc *desc,
                                   const vkmd_equil_summary *s)
{
    const char *dir = desc->run.out_dir ? desc->run.out_dir : VKMD_RUN_OUT_DIR;
    if (s->partial[0]) {
        fprintf(out,
                "vkmd equilibrate: stopped by %s in the minimisation, not converged; its structure "
                "is %s: continue with the same options and --coords %s\n",
                vkmd_stop_name(s->stop_why), s->partial, s->partial);
        return;
    }
    fprintf(out,
            "vkmd equilibrate: stopped by %s at step %lld (%s); %s/checkpoint.chk holds step %lld "
            "and %s/stage_N_NAME.chk each finished stage: vkmd run --coords takes either\n",
            vkmd_stop_name(s->stop_why), (long long)s->stop_step, s->stopped_in, dir,
            (long long)s->checkpoint_step, dir);
}
