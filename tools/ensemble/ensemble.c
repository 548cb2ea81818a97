/* vkmd-mpi ensemble: many replicas of a system (or many systems) over MPI,
 * one rank per replica and per GPU, each rank running the engine's run
 * controller (engine/run/run.h) on the device of its node-local rank
 * (rank_device.h):
 *   - independent walkers: the same system with a seed per replica (seed +
 *     replica), outputs in DIR/replica_<r>/;
 *   - --multidir D1 D2 ...: rank r runs SYSTEM (relative paths resolved in
 *     D_r) with outputs in D_r;
 *   - --remd T1,T2,... or --remd-range TMIN:TMAX:COUNT: temperature replica
 *     exchange (run/remd.h). Replica r starts at T_r; every --exchange-every
 *     steps the run controller's `retemper` hook gathers the potentials
 *     (MPI_Allgather), every rank makes the same Metropolis decisions from the
 *     same state and random stream, and each rank takes its new bath (the run
 *     scales its velocities by sqrt(T_new / T_old)).
 *
 * Rounds. Every --exchange-every steps (also without exchanges) the ranks
 * meet in one MPI_Allgather of (status, potential, step); a rank whose run
 * failed joins the next round once with status "failed" instead, so the
 * others stop at that step with a message naming it, and nobody waits for
 * ever; each replica's last checkpoint (written at the same steps on every
 * rank) stays intact. After the runs every rank meets in one last round.
 *
 * Checkpoints: every replica's checkpoint.chk is written at the same steps
 * (the common --checkpoint-every); after each, every rank writes the
 * exchange state (remd_state.txt: ladder assignment, attempt counter = the
 * random stream's position, counts) into its replica directory. --restart
 * continues every replica from its checkpoint; the steps of all checkpoints
 * and exchange states must agree, and the continuation is bitwise the run
 * that did not stop.
 *
 * Outputs of the ensemble (rank 0, in --out DIR; written by the engine's
 * run/remd_files.h): replicas.csv (at each round: each replica's
 * temperature index during the steps that led to it, and its potential
 * energy), exchange.csv (every tried pair), ensemble.json (the summary:
 * acceptance per pair, per-replica speed and temperatures), and with
 * --demux temperature_<i>.dcd, the frames sampled at ladder temperature i.
 * What is left here is MPI: the rounds, the gathers, who stops when. */
#include "ensemble.h"
#include "core/options.h"
#include "core/stop.h"
#include "run/run_options.h"
#include "rank_device.h"
#include "run/remd_files.h"
#include "run/run.h"
#include "sim/md.h"
#include "vk/context.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { ROUND_CONTINUE = 0, ROUND_DONE = 1, ROUND_FAILED = 2, ROUND_N = 4 };

typedef struct ensemble {
    vkmd_run_options o; /* o.run: every replica's run, placed by place_replica */
    const char *out, *remd_text, *remd_range;
    int64_t exchange_every;
    int restart, demux;
    char **dirs;
    int dir_count;
    MPI_Comm comm;
    int rank, size, local_rank;
    int remd_on;
    vkmd_remd remd;
    char replica_dir[4096], system_path[4096], coords_path[4096], traj_path[4200],
        restart_out[4200], restrain_file[4200], reference[4200];
    char ck_path[4200], state_path[4200], device_name[256];
    vkmd_remd_logs logs; /* rank 0 */
    int peer_failed;     /* a round saw a failed rank: no last round */
    double *round;       /* [ROUND_N * size]: status, potential, step, stop request */
    int stop_why;        /* a round saw a stop request (core/stop.h): all stop there */
    int64_t fail_step;   /* VKMD_ENSEMBLE_FAIL (tests): this rank fails here */
} ensemble;

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: mpirun -n R vkmd-mpi ensemble SYSTEM [options]\n"
        "  R replicas, one per MPI rank, each on the GPU of its node-local rank\n"
        "  SYSTEM                 AMBER prmtop, or water:N\n"
        "  outputs in --out DIR (default vkmd_ensemble): replica_<r>/ per replica\n"
        "  (energy.csv, traj.dcd, final.pdb, checkpoint.chk), replicas.csv,\n"
        "  exchange.csv, ensemble.json\n"
        "  --multidir D1 D2 ...   independent systems: rank r runs SYSTEM found in D_r, outputs\n"
        "                         in D_r (as many directories as ranks; last option)\n"
        "  --remd T1,T2,...       temperature replica exchange on this ladder (K, ascending,\n"
        "                         one temperature per rank)\n"
        "  --remd-range A:B:N     ... on N temperatures from A to B K, geometric\n"
        "  --exchange-every N     steps between exchange attempts (default: --report-every);\n"
        "                         a multiple of --report-every\n"
        "  --demux                write DIR/temperature_<i>.dcd: each ladder temperature's\n"
        "                         frames, gathered from the replicas that held it\n"
        "  --restart              continue every replica from its checkpoint.chk (and the\n"
        "                         exchange from remd_state.txt); give the same options\n"
        "MD options (the same in vkmd run and vkmd equilibrate):\n");
    vkmd_run_options_usage(out, VKMD_RUN_OPTIONS_ALL);
}

static vkmd_result parse(int argc, char **argv, ensemble *e)
{
    vkmd_run_desc *d = &e->o.run;
    vkmd_result r = VKMD_OK;
    const vkmd_option opts[] = {
        VKMD_OPT_WHOLE("--exchange-every", &e->exchange_every, 0),
        VKMD_OPT_STRING("--remd", &e->remd_text), VKMD_OPT_STRING("--remd-range", &e->remd_range),
        VKMD_OPT_FLAG("--restart", &e->restart), VKMD_OPT_FLAG("--demux", &e->demux)};
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (vkmd_run_options_parse(&e->o, VKMD_RUN_OPTIONS_ALL, "", argc, argv, &i, &r) ||
            vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return VKMD_RESULT_COUNT; /* help shown */
        } else if (!strcmp(a, "--multidir")) {
            e->dirs = argv + i + 1;
            e->dir_count = argc - i - 1;
            if (e->dir_count == 0)
                r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--multidir needs directories");
            break;
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!d->system) {
            d->system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r != VKMD_OK)
        return r;
    if (!d->system)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see --help)");
    if (e->remd_text && e->remd_range)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "give --remd or --remd-range, not both");
    e->remd_on = e->remd_text || e->remd_range;
    if (e->remd_on && d->md.temperature_k > 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--temperature with --remd: each replica's temperature is the ladder's");
    if (e->remd_on && e->o.integrator)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--integrator verlet with --remd: replica exchange needs the bath");
    if (e->remd_on && e->dir_count)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--remd with --multidir: replica exchange runs one system");
    if (e->dir_count && e->dir_count != e->size)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--multidir has %d directories for %d ranks (one directory per rank)",
                         e->dir_count, e->size);
    if (e->demux && d->traj_path)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--demux reads the replicas' traj.dcd (leave --traj out)");
    vkmd_run_options_finish(&e->o);
    e->out = d->out_dir ? d->out_dir : "vkmd_ensemble";
    if (e->remd_on) {
        double ladder[VKMD_REMD_MAX_REPLICAS];
        int32_t n = 0;
        VKMD_TRY_RETURN(
            vkmd_remd_ladder_parse(e->remd_text ? e->remd_text : e->remd_range, ladder, &n));
        if (e->remd_range && !strchr(e->remd_range, ':'))
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "--remd-range '%s' (expected TMIN:TMAX:COUNT)", e->remd_range);
        if (n != e->size)
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "the ladder has %d temperatures but there are %d ranks: run one "
                             "rank per replica (mpirun -n %d)",
                             n, e->size, n);
        VKMD_TRY_RETURN(vkmd_remd_init(&e->remd, ladder, n, (uint64_t)e->o.seed));
        d->md.temperature_k = ladder[e->rank];
    }
    /* Every rank's run must agree on when rounds and checkpoints happen. */
    vkmd_run_desc checked;
    VKMD_TRY_RETURN(vkmd_run_desc_resolve(d, &checked));
    if (e->exchange_every == 0)
        e->exchange_every = checked.report_every;
    if (e->exchange_every % checked.report_every != 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--exchange-every %lld is not a multiple of --report-every %lld",
                         (long long)e->exchange_every, (long long)checked.report_every);
    if (e->demux && (checked.traj_every <= 0 || e->exchange_every % checked.traj_every != 0))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--demux needs a trajectory whose --traj-every divides --exchange-every");
    return VKMD_OK;
}

/* ---- rounds ------------------------------------------------------------- */

/* One round: every rank's (status, potential, step, stop request) into e->round. Returns
 * the first rank whose status is not `expect`, or -1. */
static int round_all(ensemble *e, int status, double potential, int64_t step, int expect)
{
    const double mine[ROUND_N] = {status, potential, (double)step, vkmd_stop_pending()};
    MPI_Allgather(mine, ROUND_N, MPI_DOUBLE, e->round, ROUND_N, MPI_DOUBLE, e->comm);
    for (int r = 0; r < e->size; ++r)
        if ((int)e->round[ROUND_N * r] != expect)
            return r;
    return -1;
}

static vkmd_result peer_failure(ensemble *e, int who, int64_t step)
{
    e->peer_failed = 1;
    const int st = (int)e->round[ROUND_N * who];
    return vkmd_fail(VKMD_ERROR_IO,
                     "replica %d (rank %d) %s before step %lld; the ensemble stops: every "
                     "replica's last checkpoint is intact (continue with --restart)",
                     who, who, st == ROUND_FAILED ? "failed" : "ended early", (long long)step);
}

/* ---- the run's hooks ---------------------------------------------------- */

static vkmd_result ens_begin(void *user, const vkmd_run_info *info)
{
    ensemble *e = user;
    if (e->remd_on) /* a restart's bath: the exchange state's, not the settings' */
        VKMD_TRY_RETURN(
            vkmd_md_set_temperature(info->md, vkmd_remd_temperature_of(&e->remd, e->rank)));
    return VKMD_OK;
}

static vkmd_result ens_retemper(void *user, const vkmd_run_sample *s, double *t)
{
    ensemble *e = user;
    if (s->step % e->exchange_every != 0)
        return VKMD_OK;
    if (e->fail_step > 0 && s->step >= e->fail_step)
        return vkmd_fail(VKMD_ERROR_NUMERIC,
                         "replica %d: failure asked for by VKMD_ENSEMBLE_FAIL at step %lld",
                         e->rank, (long long)s->step);
    const double u = s->report->potential.total;
    const int who = round_all(e, ROUND_CONTINUE, u, s->step, ROUND_CONTINUE);
    if (who >= 0)
        return peer_failure(e, who, s->step);
    for (int r = 0; r < e->size; ++r)
        if ((int64_t)e->round[ROUND_N * r + 2] != s->step) {
            e->peer_failed = 1;
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "replica %d is at step %lld, replica %d at step %lld: the replicas "
                             "must run the same steps",
                             r, (long long)e->round[ROUND_N * r + 2], e->rank, (long long)s->step);
        }
    for (int r = 0; r < e->size; ++r) /* every rank stops at this step, checkpointed */
        e->stop_why = (int)e->round[ROUND_N * r + 3] ? (int)e->round[ROUND_N * r + 3] : e->stop_why;
    if (e->stop_why)
        return VKMD_OK;
    double pot[VKMD_REMD_MAX_REPLICAS];
    int32_t before[VKMD_REMD_MAX_REPLICAS];
    for (int r = 0; r < e->size; ++r) {
        pot[r] = e->round[ROUND_N * r + 1];
        before[r] = e->remd_on ? e->remd.temp_index[r] : r;
    }
    vkmd_remd_logs_round(&e->logs, s->step, s->time_ps, before, pot);
    if (!e->remd_on)
        return VKMD_OK;
    vkmd_remd_pair pairs[VKMD_REMD_MAX_REPLICAS / 2 + 1];
    int32_t np = 0;
    VKMD_TRY_RETURN(vkmd_remd_exchange(&e->remd, pot, pairs, &np));
    vkmd_remd_logs_pairs(&e->logs, s->step, &e->remd, pairs, np, pot);
    *t = vkmd_remd_temperature_of(&e->remd, e->rank);
    return VKMD_OK;
}

static int ens_stop(void *user)
{
    return ((const ensemble *)user)->stop_why != 0;
}

static vkmd_result ens_checkpoint(void *user, int64_t step, const char *path)
{
    ensemble *e = user;
    (void)path;
    VKMD_TRY_RETURN(vkmd_remd_logs_flush(&e->logs));
    return e->remd_on ? vkmd_remd_save(&e->remd, step, e->state_path) : VKMD_OK;
}

/* ---- setup -------------------------------------------------------------- */

static int is_absolute_or_builtin(const char *p)
{
    return p[0] == '/' || !strncmp(p, "water:", 6);
}

static vkmd_result make_dir(const char *dir)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot create the directory: %s", dir,
                         strerror(errno));
    return VKMD_OK;
}

/* *path, when relative, as a path in dir (into buf). */
static void place_path(const char **path, const char *dir, char *buf, size_t size)
{
    if (*path && !is_absolute_or_builtin(*path)) {
        snprintf(buf, size, "%s/%s", dir, *path);
        *path = buf;
    }
}

/* This rank's system, coordinates and inputs (in its --multidir directory),
 * output directory and outputs (in its replica directory). */
static vkmd_result place_replica(ensemble *e)
{
    vkmd_run_desc *d = &e->o.run;
    if (e->dir_count) {
        const char *dir = e->dirs[e->rank];
        snprintf(e->replica_dir, sizeof e->replica_dir, "%s", dir);
        place_path(&d->system, dir, e->system_path, sizeof e->system_path);
        place_path(&d->coords, dir, e->coords_path, sizeof e->coords_path);
        place_path(&d->restraints.file, dir, e->restrain_file, sizeof e->restrain_file);
        place_path(&d->restraints.reference, dir, e->reference, sizeof e->reference);
    } else {
        snprintf(e->replica_dir, sizeof e->replica_dir, "%s/replica_%d", e->out, e->rank);
        d->md.seed += (uint64_t)e->rank; /* independent noise and velocities per replica */
    }
    place_path(&d->traj_path, e->replica_dir, e->traj_path, sizeof e->traj_path);
    place_path(&d->restart_out, e->replica_dir, e->restart_out, sizeof e->restart_out);
    VKMD_TRY_RETURN(make_dir(e->replica_dir));
    d->out_dir = e->replica_dir;
    snprintf(e->ck_path, sizeof e->ck_path, "%s/checkpoint.chk", e->replica_dir);
    snprintf(e->state_path, sizeof e->state_path, "%s/remd_state.txt", e->replica_dir);
    if (e->restart)
        d->restart = e->ck_path;
    return VKMD_OK;
}

enum { SUM_NS_DAY, SUM_WALL, SUM_MEAN_T, SUM_SD_T, SUM_POT, SUM_LAST, SUM_N };

/* ---- the command -------------------------------------------------------- */

static void rank_error(const ensemble *e, vkmd_result res)
{
    fprintf(stderr, "vkmd-mpi ensemble: rank %d: %s: %s\n", e->rank, vkmd_result_str(res),
            vkmd_last_error());
}

int cmd_ensemble(int argc, char **argv, MPI_Comm comm)
{
    ensemble e = {0};
    vkmd_run_options_init(&e.o);
    e.comm = comm;
    MPI_Comm_rank(comm, &e.rank);
    MPI_Comm_size(comm, &e.size);
    e.local_rank = rank_device_local_rank(comm, NULL);
    const char *fail = getenv("VKMD_ENSEMBLE_FAIL"); /* "RANK:STEP", for the tests */
    if (fail && atoi(fail) == e.rank && strchr(fail, ':'))
        e.fail_step = strtoll(strchr(fail, ':') + 1, NULL, 10);
    vkmd_result res = parse(argc, argv, &e);
    if (res == VKMD_RESULT_COUNT)
        return 0;
    if (res != VKMD_OK) { /* the same arguments on every rank: the same verdict */
        if (e.rank == 0)
            fprintf(stderr, "vkmd-mpi ensemble: %s: %s\n", vkmd_result_str(res), vkmd_last_error());
        return 2;
    }
    e.round = calloc((size_t)e.size * ROUND_N, sizeof *e.round);
    if (!e.round)
        return 1;

    /* Setup on every rank, then one round: all go on, or all stop. */
    vkmd_run *run = NULL;
    vkmd_vk_context *ctx = NULL;
    int exit_code = 1;
    int64_t ck_step = -1;
    res = e.rank == 0 ? make_dir(e.out) : VKMD_OK;
    MPI_Barrier(comm); /* DIR exists before the replicas' directories */
    if (res == VKMD_OK)
        res = place_replica(&e);
    if (res == VKMD_OK)
        res = rank_device_choose(e.o.device, e.local_rank, e.device_name, sizeof e.device_name);
    if (res == VKMD_OK)
        res = vkmd_run_create(&e.o.run, &run);
    if (res == VKMD_OK && e.restart) {
        ck_step = vkmd_run_last_checkpoint(run, NULL);
        if (e.remd_on)
            res = vkmd_remd_load_matching(e.state_path, ck_step, &e.remd);
    }
    if (res == VKMD_OK) {
        const vkmd_vk_context_desc cd = {.device = e.device_name};
        res = vkmd_vk_context_create(&cd, &ctx);
    }
    if (res != VKMD_OK)
        rank_error(&e, res);
    int who =
        round_all(&e, res == VKMD_OK ? ROUND_CONTINUE : ROUND_FAILED, 0, ck_step, ROUND_CONTINUE);
    if (who >= 0) {
        if (res == VKMD_OK)
            fprintf(stderr, "vkmd-mpi ensemble: rank %d: replica %d failed to start; nothing ran\n",
                    e.rank, who);
        goto cleanup;
    }
    for (int r = 0; r < e.size; ++r)
        if ((int64_t)e.round[ROUND_N * r + 2] != ck_step) {
            if (e.rank == 0)
                fprintf(stderr,
                        "vkmd-mpi ensemble: replica %d's checkpoint is at step %lld, replica "
                        "0's at step %lld: the replicas cannot continue together (a replica "
                        "stopped between two checkpoints)\n",
                        r, (long long)e.round[ROUND_N * r + 2], (long long)ck_step);
            goto cleanup;
        }
    if (e.rank == 0) {
        res = vkmd_remd_logs_open(&e.logs, e.out, e.size, e.remd_on, e.restart, ck_step);
        if (res != VKMD_OK)
            rank_error(&e, res);
    }
    /* A log that cannot be opened stops everyone before the first step. */
    who = round_all(&e, res == VKMD_OK ? ROUND_CONTINUE : ROUND_FAILED, 0, 0, ROUND_CONTINUE);
    if (who >= 0)
        goto cleanup;
    if (e.rank == 0)
        fprintf(stderr,
                "vkmd-mpi ensemble: %d replicas%s, one per rank; rank 0 on device %s; outputs "
                "in %s/\n",
                e.size, e.remd_on ? " exchanging temperatures" : "", ctx->info.name, e.out);

    const vkmd_reporter hooks = {.user = &e,
                                 .begin = ens_begin,
                                 .retemper = ens_retemper,
                                 .stop_requested = ens_stop,
                                 .checkpoint = ens_checkpoint};
    (void)vkmd_stop_catch_signals(); /* a signal stops every rank at the next round */
    vkmd_stop_defer(1);
    vkmd_run_summary s = {0};
    const double t0 = MPI_Wtime();
    res = vkmd_run_execute(run, ctx, &hooks, 1, &s);
    const double wall = MPI_Wtime() - t0;
    if (res != VKMD_OK)
        rank_error(&e, res);
    if (e.peer_failed) /* the round that told us was this rank's last */
        goto cleanup;
    who = round_all(&e, res == VKMD_OK ? ROUND_DONE : ROUND_FAILED, 0, s.last_step, ROUND_DONE);
    if (who >= 0) {
        if (res == VKMD_OK)
            fprintf(stderr,
                    "vkmd-mpi ensemble: rank %d: replica %d failed at the end; every replica's "
                    "last checkpoint is intact\n",
                    e.rank, who);
        goto cleanup;
    }
    if (res != VKMD_OK)
        goto cleanup;
    const double mine[SUM_N] = {
        s.ns_per_day,       wall, s.mean_temperature_k, s.sd_temperature_k, s.final.potential.total,
        (double)s.last_step};
    double *all = e.rank == 0 ? calloc((size_t)e.size * SUM_N, sizeof *all) : NULL;
    MPI_Gather(mine, SUM_N, MPI_DOUBLE, all, SUM_N, MPI_DOUBLE, 0, comm);
    exit_code = 0;
    if (e.rank == 0 && all) {
        if (vkmd_remd_logs_flush(&e.logs) != VKMD_OK)
            exit_code = 1;
        const vkmd_run_desc *rd = vkmd_run_desc_get(run);
        if (e.demux && (res = vkmd_remd_demux(e.out, e.size, vkmd_run_system(run), rd->md.dt_fs,
                                              rd->traj_every)) != VKMD_OK) {
            rank_error(&e, res);
            exit_code = 1;
        }
        vkmd_ensemble_replica *rep = calloc((size_t)e.size, sizeof *rep);
        for (int r = 0; rep && r < e.size; ++r)
            rep[r] = (vkmd_ensemble_replica){all[r * SUM_N + SUM_NS_DAY], all[r * SUM_N + SUM_WALL],
                                             all[r * SUM_N + SUM_MEAN_T], all[r * SUM_N + SUM_SD_T],
                                             all[r * SUM_N + SUM_POT]};
        char path[4200];
        snprintf(path, sizeof path, "%s/ensemble.json", e.out);
        FILE *js = rep ? fopen(path, "w") : NULL;
        const vkmd_remd *remd = e.remd_on ? &e.remd : NULL;
        const int64_t steps = (int64_t)all[SUM_LAST];
        if (js) {
            vkmd_ensemble_summary_write(js, 1, rep, e.size, steps, e.exchange_every, remd, e.out);
            fclose(js);
        } else {
            fprintf(stderr, "vkmd-mpi ensemble: %s: cannot write: %s\n", path, strerror(errno));
            exit_code = 1;
        }
        if (rep)
            vkmd_ensemble_summary_write(stdout, e.o.json, rep, e.size, steps, e.exchange_every,
                                        remd, e.out);
        else
            exit_code = 1;
        free(rep);
    }
    free(all);
    MPI_Bcast(&exit_code, 1, MPI_INT, 0, comm);
    if (exit_code == 0 && e.stop_why) {
        if (e.rank == 0)
            fprintf(stderr,
                    "vkmd-mpi ensemble: stopped by %s at step %lld on every replica, "
                    "each checkpointed there: continue with the same options and --restart\n",
                    vkmd_stop_name(e.stop_why), (long long)s.last_step);
        exit_code = vkmd_stop_exit_code(e.stop_why);
    }
cleanup:
    vkmd_remd_logs_close(&e.logs);
    vkmd_run_destroy(run);
    vkmd_vk_context_destroy(ctx);
    free(e.round);
    return exit_code;
}
