/* vkmd run: molecular dynamics of a system on a Vulkan device
 * (engine/sim/md.h), headless: energies to energy.csv, frames to traj.dcd,
 * the last frame to final.pdb, a progress bar (or plain lines when stderr is
 * not a terminal) and, with --json, a summary on stdout. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "run_output.h"
#include "core/log.h"
#include "core/units.h"
#include "io/dcd.h"
#include "io/load.h"
#include "io/pdb.h"
#include "sim/md.h"
#include "sim/minimize.h"
#include "system/hmr.h"
#include "vk/context.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct run_request {
    const char *system, *coords, *device, *out_dir;
    int64_t steps, report_every, traj_every, equilibrate;
    vkmd_md_desc md;
    vkmd_ff_settings ff;
    double hmr_mass;
    int minimize, json, no_window;
    double min_tol;
    int min_iterations;
} run_request;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd run SYSTEM [options]\n"
            "  SYSTEM                 AMBER prmtop, or water:N (N TIP3P waters)\n"
            "  --coords FILE          coordinates: inpcrd, rst7 or pdb (default: SYSTEM's\n"
            "                         basename .inpcrd or .rst7)\n"
            "  --steps N              steps to run (default 10000)\n"
            "  --dt FS                time step in fs (default 2)\n"
            "  --integrator langevin|verlet   Langevin middle (default) or velocity Verlet (NVE)\n"
            "  --temperature K        bath and initial temperature (default 300)\n"
            "  --friction PER_PS      Langevin friction in 1/ps (default 1)\n"
            "  --constraints none|hbonds   bonds to hydrogen fixed (default hbonds)\n"
            "  --rigid-water yes|no   SETTLE waters (default yes)\n"
            "  --constraint-tol T     relative constraint tolerance (default 1e-5)\n"
            "  --hmr MASS             hydrogen mass repartitioning to MASS amu (e.g. 1.5 or 3\n"
            "                         for 4 fs steps; default off)\n"
            "  --minimize             minimise the energy on the device before dynamics\n"
            "  --min-tol F            minimiser force tolerance, kcal/mol/A (default: engine's)\n"
            "  --equilibrate N        N Langevin steps at --temperature before the run, not\n"
            "                         reported (e.g. before an NVE run; default 0)\n"
            "  --seed S               random seed for velocities and Langevin noise (default 1)\n"
            "  --com-every N          remove centre-of-mass motion every N steps (default 100;\n"
            "                         0 never)\n"
            "  --report-every N       energy.csv row and progress every N steps (default 1000)\n"
            "  --traj-every N         traj.dcd frame every N steps (default: --report-every;\n"
            "                         0 no trajectory)\n"
            "  --out DIR              output directory (default vkmd_run; created)\n"
            "  --cutoff A             non-bonded cutoff in A (default 9)\n"
            "  --ewald-tolerance T    Ewald error tolerance (default 5e-4)\n"
            "  --device gpu|N|NAME    Vulkan device (default: the best one)\n"
            "  --no-window            headless (the only mode until the viewer lands)\n"
            "  --json                 summary as one JSON object on stdout\n");
}

static vkmd_result parse(int argc, char **argv, run_request *q)
{
    vkmd_result r = VKMD_OK;
    int seed = 1, com = 100, minimize_iter = 0;
    const char *traj = NULL;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        double dv = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--coords")) {
            ARGS_VALUE();
            q->coords = v;
        } else if (!strcmp(a, "--steps") || !strcmp(a, "--report-every") ||
                   !strcmp(a, "--equilibrate")) {
            ARGS_VALUE();
            if (v && (r = args_double(a, v, 0, 1e15, &dv)) == VKMD_OK) {
                if (dv != floor(dv))
                    r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: '%s' is not a whole number", a,
                                  v);
                int64_t n = (int64_t)dv;
                if (!strcmp(a, "--steps"))
                    q->steps = n;
                else if (!strcmp(a, "--report-every"))
                    q->report_every = n > 0 ? n : -1;
                else
                    q->equilibrate = n;
            }
        } else if (!strcmp(a, "--traj-every")) {
            ARGS_VALUE();
            traj = v;
        } else if (!strcmp(a, "--dt")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 10, &q->md.dt_fs);
        } else if (!strcmp(a, "--integrator")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "langevin"))
                q->md.integrator = VKMD_INTEGRATOR_LANGEVIN;
            else if (v && !strcmp(v, "verlet"))
                q->md.integrator = VKMD_INTEGRATOR_VERLET;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                              "--integrator: '%s' is not langevin or verlet", v);
        } else if (!strcmp(a, "--temperature")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e4, &q->md.temperature_k);
        } else if (!strcmp(a, "--friction")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-6, 1e3, &q->md.friction_per_ps);
        } else if (!strcmp(a, "--constraints")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "hbonds"))
                q->md.constraints = VKMD_CONSTRAINTS_HBONDS;
            else if (v && !strcmp(v, "none"))
                q->md.constraints = VKMD_CONSTRAINTS_NONE;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                              "--constraints: '%s' is not none or hbonds", v);
        } else if (!strcmp(a, "--rigid-water")) {
            ARGS_VALUE();
            if (v && !strcmp(v, "yes"))
                q->md.flexible_water = 0;
            else if (v && !strcmp(v, "no"))
                q->md.flexible_water = 1;
            else if (v)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--rigid-water: '%s' is not yes or no",
                              v);
        } else if (!strcmp(a, "--constraint-tol")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-10, 0.01, &q->md.constraint_tol);
        } else if (!strcmp(a, "--hmr")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1.0, 10.0, &q->hmr_mass);
        } else if (!strcmp(a, "--minimize")) {
            q->minimize = 1;
        } else if (!strcmp(a, "--min-tol")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-6, 1e4, &q->min_tol);
        } else if (!strcmp(a, "--min-iterations")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 1, 10000000, &minimize_iter);
        } else if (!strcmp(a, "--seed")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 0, 2147483647, &seed);
        } else if (!strcmp(a, "--com-every")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 0, 2147483647, &com);
        } else if (!strcmp(a, "--out")) {
            ARGS_VALUE();
            q->out_dir = v;
        } else if (!strcmp(a, "--cutoff")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-3, 1e4, &q->ff.cutoff_a);
        } else if (!strcmp(a, "--ewald-tolerance")) {
            ARGS_VALUE();
            if (v)
                r = args_double(a, v, 1e-12, 0.49, &q->ff.ewald_tolerance);
        } else if (!strcmp(a, "--device")) {
            ARGS_VALUE();
            q->device = v;
        } else if (!strcmp(a, "--no-window")) {
            q->no_window = 1;
        } else if (!strcmp(a, "--json")) {
            q->json = 1;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!q->system) {
            q->system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !q->system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see vkmd run --help)");
    if (r == VKMD_OK && traj) {
        double dv = 0;
        r = args_double("--traj-every", traj, 0, 1e15, &dv);
        q->traj_every = dv > 0 ? (int64_t)dv : -1;
    }
    q->md.seed = (uint64_t)seed;
    q->md.com_every = com > 0 ? com : -1;
    q->min_iterations = minimize_iter;
    return r;
}

static vkmd_result make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create the output directory: %s", path,
                         strerror(errno));
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return vkmd_fail(VKMD_ERROR_IO, "%s: exists and is not a directory", path);
    return VKMD_OK;
}

static vkmd_result check_finite(const vkmd_md_report *r)
{
    if (!isfinite(r->total) || !isfinite(r->kinetic))
        return vkmd_fail(VKMD_ERROR_NUMERIC,
                         "the simulation blew up before step %lld: potential %g, kinetic %g "
                         "kcal/mol (try a smaller --dt, --minimize, or check the input)",
                         (long long)r->step, r->potential.total, r->kinetic);
    return VKMD_OK;
}

int cmd_run(int argc, char **argv)
{
    run_request q;
    memset(&q, 0, sizeof q);
    q.steps = 10000;
    q.report_every = 1000;
    q.out_dir = "vkmd_run";
    vkmd_result res = parse(argc, argv, &q);
    if (res != VKMD_OK) {
        tool_error("run", res);
        return 2;
    }
    if (q.report_every < 0)
        q.report_every = q.steps > 0 ? q.steps : 1;
    if (q.traj_every == 0)
        q.traj_every = q.report_every;

    int exit_code = 1;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    vkmd_vk_context *ctx = NULL;
    vkmd_md *md = NULL;
    vkmd_dcd_writer *dcd = NULL;
    run_csv *csv = NULL;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    int progress_on = 0;
    double *x = NULL, *tt = NULL, *et = NULL;
    int64_t samples = 0;
    char path[4096];
    double t_sum = 0, wall = 0;
    vkmd_minimize_result minres;
    memset(&minres, 0, sizeof minres);

    VKMD_TRY(vkmd_system_load(q.system, q.coords, &sys));
    const char *source = q.coords ? q.coords : q.system;
    VKMD_TRY(vkmd_system_check_coordinates(&sys, q.ff.cutoff_a > 0 ? q.ff.cutoff_a : 9.0, source));
    VKMD_TRY(vkmd_ff_settings_resolve(&q.ff, &sys));
    if (q.hmr_mass > 0)
        VKMD_TRY(vkmd_system_repartition_hydrogen_mass(&sys, q.hmr_mass, NULL));
    VKMD_TRY(make_dir(q.out_dir));

    const vkmd_vk_context_desc cdesc = {.device =
                                            q.device && strcmp(q.device, "gpu") ? q.device : NULL};
    VKMD_TRY(vkmd_vk_context_create(&cdesc, &ctx));
    if (!q.no_window)
        vkmd_log_info("run: no viewer yet in this build; running headless");
    q.md.settings = &q.ff;
    VKMD_TRY(vkmd_md_create(ctx, &sys, &q.md, &md));
    if (q.minimize) {
        const vkmd_minimize_desc mdsc = {.force_tol = q.min_tol,
                                         .max_iterations = q.min_iterations};
        VKMD_TRY(vkmd_md_minimize(ctx, md, &mdsc, &minres));
        fprintf(stderr,
                "vkmd run: minimised in %d iterations: %.4f -> %.4f kcal/mol, max force %.3g "
                "kcal/mol/A%s\n",
                minres.iterations, minres.energy_initial, minres.energy_final, minres.max_force,
                minres.converged ? "" : " (not converged)");
    }
    const double temp = q.md.temperature_k > 0 ? q.md.temperature_k : 300;
    if (!sys.velocities)
        VKMD_TRY(vkmd_md_init_velocities(ctx, md, temp, q.md.seed));
    if (q.equilibrate > 0) {
        /* Langevin at the bath temperature, then back to the run's integrator. */
        VKMD_TRY(vkmd_md_set_integrator(md, VKMD_INTEGRATOR_LANGEVIN));
        VKMD_TRY(vkmd_md_step(ctx, md, q.equilibrate));
        VKMD_TRY(vkmd_md_set_integrator(md, q.md.integrator));
        fprintf(stderr, "vkmd run: equilibrated %lld Langevin steps at %.1f K\n",
                (long long)q.equilibrate, temp);
    }
    const int64_t base = vkmd_md_steps_done(md);

    const int64_t nrep = q.steps / q.report_every + 2;
    x = malloc(sizeof *x * 3 * (size_t)sys.atom_count);
    tt = malloc(sizeof *tt * (size_t)nrep);
    et = malloc(sizeof *et * (size_t)nrep);
    if (!x || !tt || !et) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "run: out of memory");
        goto cleanup;
    }
    const double dt = q.md.dt_fs > 0 ? q.md.dt_fs : 2.0;
    const char *integ = q.md.integrator == VKMD_INTEGRATOR_VERLET ? "verlet" : "langevin";
    char settings[1024];
    snprintf(settings, sizeof settings,
             "constraints %s (tolerance %g), rigid water %s, cutoff %g A, PME grid %dx%dx%d, "
             "Ewald tolerance %g, seed %llu, device %s",
             q.md.constraints == VKMD_CONSTRAINTS_NONE ? "none" : "hbonds",
             q.md.constraint_tol > 0 ? q.md.constraint_tol : 1e-5,
             q.md.flexible_water ? "no" : "yes", q.ff.cutoff_a, q.ff.pme_grid[0], q.ff.pme_grid[1],
             q.ff.pme_grid[2], q.ff.ewald_tolerance, (unsigned long long)q.md.seed, ctx->info.name);
    const int verlet = q.md.integrator == VKMD_INTEGRATOR_VERLET;
    const run_csv_desc cd = {
        .system = q.system,
        .atom_count = sys.atom_count,
        .dof = vkmd_md_dof(md),
        .integrator = verlet ? "velocity-verlet" : "langevin-middle",
        .dt_fs = dt,
        .temperature_k = verlet ? 0 : temp,
        .friction_per_ps = verlet ? 0 : (q.md.friction_per_ps > 0 ? q.md.friction_per_ps : 1.0),
        .settings = settings};
    snprintf(path, sizeof path, "%s/energy.csv", q.out_dir);
    VKMD_TRY(run_csv_create(path, &cd, &csv));
    if (q.traj_every > 0) {
        snprintf(path, sizeof path, "%s/traj.dcd", q.out_dir);
        const vkmd_dcd_desc dd = {.atom_count = sys.atom_count,
                                  .periodic = sys.box.periodic,
                                  .dt_fs = dt,
                                  .steps_per_frame = (int32_t)q.traj_every,
                                  .first_step = q.traj_every,
                                  .title = "vkmd run"};
        VKMD_TRY(vkmd_dcd_writer_create(path, &dd, &dcd));
    }

    /* Step 0 row, then blocks up to the next report or frame. */
    vkmd_md_report rep;
    VKMD_TRY(vkmd_md_read(ctx, md, &rep, NULL, NULL));
    VKMD_TRY(check_finite(&rep));
    run_energy_row row = {0,  0.0, rep.potential.total, rep.kinetic, rep.total, rep.temperature_k,
                          0.0};
    VKMD_TRY(run_csv_write(csv, &row));
    const double t0 = run_now_s();
    const run_progress_desc pd = {.last_step = q.steps > 0 ? q.steps : 1, .dt_fs = dt};
    run_progress_init(&prog, &pd, t0);
    progress_on = 1;
    double t_last = t0;
    int64_t done = 0, last_report = 0;
    while (done < q.steps) {
        int64_t next = (done / q.report_every + 1) * q.report_every;
        if (q.traj_every > 0) {
            int64_t nt = (done / q.traj_every + 1) * q.traj_every;
            if (nt < next)
                next = nt;
        }
        if (next > q.steps)
            next = q.steps;
        VKMD_TRY(vkmd_md_step(ctx, md, next - done));
        done = next;
        const int is_report = done % q.report_every == 0 || done == q.steps;
        const int is_frame = q.traj_every > 0 && done % q.traj_every == 0;
        VKMD_TRY(vkmd_md_read(ctx, md, &rep, is_frame ? x : NULL, NULL));
        rep.step -= base;
        VKMD_TRY(check_finite(&rep));
        if (is_frame)
            VKMD_TRY(vkmd_dcd_writer_append(dcd, x, &sys.box));
        if (is_report) {
            const double t = run_now_s();
            const double ns_day = run_ns_per_day(done - last_report, dt, t - t_last);
            t_last = t;
            last_report = done;
            row = (run_energy_row){done,
                                   (double)done * dt * 1e-3,
                                   rep.potential.total,
                                   rep.kinetic,
                                   rep.total,
                                   rep.temperature_k,
                                   ns_day};
            VKMD_TRY(run_csv_write(csv, &row));
            run_progress_update(&prog, done, ns_day, rep.temperature_k, t);
            tt[samples] = (double)done * dt * 1e-3;
            et[samples] = rep.total;
            t_sum += rep.temperature_k;
            ++samples;
        }
    }
    wall = run_now_s() - t0;
    run_progress_finish(&prog);
    progress_on = 0;
    VKMD_TRY(vkmd_md_read(ctx, md, &rep, x, NULL));
    {
        vkmd_system out = sys;
        out.positions = x;
        snprintf(path, sizeof path, "%s/final.pdb", q.out_dir);
        VKMD_TRY(vkmd_pdb_write(path, &out));
    }
    double water_a = 0, hbond_rel = 0;
    VKMD_TRY(vkmd_md_constraint_violation(ctx, md, &water_a, &hbond_rel));
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));

    const double ns_day = run_ns_per_day(q.steps, dt, wall);
    const double mean_t = samples ? t_sum / (double)samples : rep.temperature_k;
    run_drift drift;
    memset(&drift, 0, sizeof drift);
    if (samples >= 2)
        VKMD_TRY(run_drift_fit(tt, et, (int32_t)samples, mean_t, vkmd_md_dof(md), &drift));
    if (q.json) {
        printf("{\"system\": ");
        json_string(stdout, q.system);
        printf(", \"device\": ");
        json_string(stdout, ctx->info.name);
        printf(", \"atoms\": %d, \"dof\": %lld, \"integrator\": \"%s\", \"dt_fs\": %g, "
               "\"steps\": %lld, \"temperature_target_K\": %g, \"wall_s\": %.3f, "
               "\"ns_per_day\": %.4f, \"mean_temperature_K\": %.3f, "
               "\"final_total_kcal_mol\": %.6f, \"energy_drift_kcal_mol_per_ns\": %.6g, "
               "\"energy_drift_stderr_kcal_mol_per_ns\": %.6g, \"energy_drift_kT_per_ns_per_dof\": "
               "%.6g, "
               "\"max_water_violation_A\": %.3g, \"max_hbond_violation_rel\": %.3g",
               sys.atom_count, (long long)vkmd_md_dof(md), integ, dt, (long long)q.steps, temp,
               wall, ns_day, mean_t, rep.total, drift.slope_kcal_mol_per_ns,
               drift.slope_stderr_kcal_mol_per_ns, drift.kt_per_ns_per_dof, water_a, hbond_rel);
        if (q.minimize)
            printf(", \"minimize\": {\"iterations\": %d, \"energy_initial_kcal_mol\": %.6f, "
                   "\"energy_final_kcal_mol\": %.6f, \"max_force_kcal_mol_A\": %.6g, "
                   "\"converged\": %s}",
                   minres.iterations, minres.energy_initial, minres.energy_final, minres.max_force,
                   minres.converged ? "true" : "false");
        printf(", \"outputs\": {\"energy\": \"energy.csv\", \"trajectory\": %s, "
               "\"final\": \"final.pdb\"}}\n",
               q.traj_every > 0 ? "\"traj.dcd\"" : "null");
    } else {
        printf("vkmd run: %lld steps of %s in %.1f s on %s: %.3f ns/day, mean T %.2f K, "
               "energy drift %.4g kcal/mol/ns (%.3g kT/ns/dof); outputs in %s/\n",
               (long long)q.steps, q.system, wall, ctx->info.name, ns_day, mean_t,
               drift.slope_kcal_mol_per_ns, drift.kt_per_ns_per_dof, q.out_dir);
    }
    exit_code = 0;
cleanup:
    if (exit_code != 0) {
        if (progress_on)
            run_progress_finish(&prog);
        tool_error("run", res);
    }
    if (vkmd_dcd_writer_close(dcd) != VKMD_OK && exit_code == 0) {
        tool_error("run", VKMD_ERROR_IO);
        exit_code = 1;
    }
    run_csv_close(csv);
    if (ctx) {
        vkmd_md_destroy(ctx, md);
        vkmd_vk_context_destroy(ctx);
    }
    free(x);
    free(tt);
    free(et);
    vkmd_system_destroy(&sys);
    return exit_code;
}
