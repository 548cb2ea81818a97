/* JSON reports of runs over UFF replicas (see uff_replicas_json.h). */
#include "io/uff_replicas_json.h"

void vkmd_uff_relax_write_json(FILE *out, const vkmd_uff_relax_report *rep)
{
    const vkmd_uff_fire_result *res = rep->results;
    int32_t converged = 0;
    for (int32_t r = 0; r < rep->replica_count; ++r)
        converged += res[r].converged;
    fprintf(out,
            "{\n  \"units\": {\"energy\": \"kcal/mol\", \"force\": \"kcal/mol/angstrom\", "
            "\"length\": \"angstrom\"},\n  \"vkmd_version\": \"%s\",\n  \"molecule\": \"%s\",\n"
            "  \"device\": \"%s\",\n  \"minimiser\": \"FIRE\",\n  \"n_atoms\": %d,\n"
            "  \"n_replicas\": %d,\n  \"ftol_kcal_per_mol_A\": %g,\n  \"criterion\": \"%s\",\n"
            "  \"max_steps\": %d,\n  \"host_checks\": %d,\n  \"n_converged\": %d,\n"
            "  \"out\": \"%s\",\n  \"replicas\": [",
            VKMD_VERSION, rep->molecule, rep->device, rep->atom_count, rep->replica_count,
            rep->params.ftol, rep->params.criterion == VKMD_UFF_FIRE_RMS_FORCE ? "rms" : "max",
            rep->params.max_steps, rep->host_checks, converged, rep->out);
    for (int32_t r = 0; r < rep->replica_count; ++r)
        fprintf(out,
                "%s\n    {\"replica\": %d, \"energy_initial_kcal_per_mol\": %.10f, "
                "\"energy_final_kcal_per_mol\": %.10f, \"steps\": %d, \"converged\": %s, "
                "\"max_force_kcal_per_mol_A\": %.4e, \"rms_force_kcal_per_mol_A\": %.4e}",
                r ? "," : "", r + 1, res[r].energy_initial, res[r].energy_final, res[r].steps,
                res[r].converged ? "true" : "false", res[r].fmax, res[r].frms);
    fprintf(out, "\n  ]\n}\n");
}

void vkmd_uff_md_write_json(FILE *out, const vkmd_uff_md_report *rep)
{
    double all = 0;
    for (int32_t r = 0; r < rep->replica_count; ++r)
        all += rep->mean_temperature_k[r] / rep->replica_count;
    fprintf(out,
            "{\n  \"units\": {\"energy\": \"kcal/mol\", \"temperature\": \"K\", \"time\": "
            "\"fs\", \"length\": \"angstrom\"},\n  \"vkmd_version\": \"%s\",\n"
            "  \"molecule\": \"%s\",\n  \"device\": \"%s\",\n  \"integrator\": \"BAOAB "
            "Langevin\",\n  \"n_atoms\": %d,\n  \"n_replicas\": %d,\n  \"steps\": %d,\n"
            "  \"dt_fs\": %g,\n  \"temperature_k\": %g,\n  \"friction_per_ps\": %g,\n"
            "  \"seed\": %lld,\n  \"mean_temperature_k\": %.4f,\n  \"replicas\": [",
            VKMD_VERSION, rep->molecule, rep->device, rep->atom_count, rep->replica_count,
            rep->steps, rep->dt_fs, rep->temperature_k, rep->friction_per_ps, (long long)rep->seed,
            all);
    for (int32_t r = 0; r < rep->replica_count; ++r)
        fprintf(out,
                "%s\n    {\"replica\": %d, \"mean_temperature_k\": %.4f, "
                "\"final_potential_kcal_per_mol\": %.6f}",
                r ? "," : "", r + 1, rep->mean_temperature_k[r], rep->final_energy[r].total);
    fprintf(out, "\n  ]\n}\n");
}
