/* The MD option table (see run_options.h): each entry is an option's name,
 * where its value goes (an offset into vkmd_run_options, or into a
 * vkmd_restraint_spec for the restraint group), its range and its help
 * lines; parsing and the help text both read it. */
#include "run/run_options.h"
#include "core/options.h"
#include "forces/positions.h"

#include <stddef.h>
#include <string.h>

#define RUN(field)  offsetof(vkmd_run_options, run.field)
#define SELF(field) offsetof(vkmd_run_options, field)
#define SPEC(field) offsetof(vkmd_restraint_spec, field)
#define GB(field)   offsetof(vkmd_gb_settings, field)

/* --implicit's choices are the model enum's values in order. */
_Static_assert(sizeof(vkmd_gb_model) == sizeof(int) && VKMD_GB_HCT == 1 && VKMD_GB_OBC1 == 2 &&
                   VKMD_GB_OBC2 == 3 && VKMD_GB_GBN == 4 && VKMD_GB_GBN2 == 5,
               "--implicit none|hct|obc1|obc2|gbn|gbn2 writes the vkmd_gb_model");

typedef struct run_option {
    const char *name; /* NULL: the precision options (below) */
    vkmd_option_kind kind;
    size_t offset; /* into vkmd_run_options; the restraint group: into vkmd_restraint_spec;
                      the implicit-solvent group: into vkmd_gb_settings */
    double lo, hi; /* VKMD_OPTION_WHOLE: lo is what a given 0 becomes */
    const char *choices;
    unsigned group;
    const char *usage; /* the help lines, name and value included */
} run_option;

static const run_option table[] = {
    {"--coords", VKMD_OPTION_STRING, RUN(coords), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --coords FILE          coordinates: inpcrd, rst7, ncrst (AMBER NetCDF), pdb or\n"
     "                         chk (default: SYSTEM's basename .inpcrd or .rst7)\n"},
    {"--steps", VKMD_OPTION_WHOLE, RUN(steps), -1, 0, NULL, VKMD_RUN_OPTIONS_PRODUCTION,
     "  --steps N              steps to run (default 10000)\n"},
    {"--dt", VKMD_OPTION_DOUBLE, RUN(md.dt_fs), 1e-3, 10, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --dt FS                time step in fs (default 2)\n"},
    {"--integrator", VKMD_OPTION_CHOICE, SELF(integrator), 0, 0, "langevin|verlet",
     VKMD_RUN_OPTIONS_COMMON,
     "  --integrator langevin|verlet   Langevin middle (default) or velocity Verlet (NVE;\n"
     "                         not for equilibrate or replica exchange, which need the bath)\n"},
    {"--temperature", VKMD_OPTION_DOUBLE, RUN(md.temperature_k), 1e-3, 1e4, NULL,
     VKMD_RUN_OPTIONS_COMMON,
     "  --temperature K        bath and initial temperature (default 300; equilibrate:\n"
     "                         the target; not with --remd: the ladder gives each replica's)\n"},
    {"--friction", VKMD_OPTION_DOUBLE, RUN(md.friction_per_ps), 1e-6, 1e3, NULL,
     VKMD_RUN_OPTIONS_COMMON, "  --friction PER_PS      Langevin friction in 1/ps (default 1)\n"},
    {"--pressure", VKMD_OPTION_DOUBLE, RUN(md.pressure_bar), 0, 1e5, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --pressure BAR         Monte Carlo barostat at BAR bar (default 0: constant\n"
     "                         volume; needs Langevin and a periodic box; equilibrate:\n"
     "                         its density and free stages', default 1)\n"},
    {"--barostat-every", VKMD_OPTION_INT, RUN(md.barostat_every), 1, 1000000, NULL,
     VKMD_RUN_OPTIONS_COMMON, "  --barostat-every N     steps between volume moves (default 25)\n"},
    {"--barostat", VKMD_OPTION_CHOICE, SELF(barostat), 0, 0, "iso|aniso|membrane",
     VKMD_RUN_OPTIONS_COMMON,
     "  --barostat iso|aniso|membrane  all edges by one factor (default), one edge\n"
     "                         at a time, or x and y together / z alone\n"},
    {"--constraints", VKMD_OPTION_CHOICE, SELF(constraints), 0, 0, "hbonds|none",
     VKMD_RUN_OPTIONS_COMMON,
     "  --constraints hbonds|none   bonds to hydrogen fixed (default hbonds)\n"},
    {"--rigid-water", VKMD_OPTION_CHOICE, SELF(rigid_water_no), 0, 0, "yes|no",
     VKMD_RUN_OPTIONS_COMMON, "  --rigid-water yes|no   SETTLE waters (default yes)\n"},
    {"--constraint-tol", VKMD_OPTION_DOUBLE, RUN(md.constraint_tol), 1e-10, 0.01, NULL,
     VKMD_RUN_OPTIONS_COMMON,
     "  --constraint-tol T     relative constraint tolerance (default 1e-5)\n"},
    {"--hmr", VKMD_OPTION_DOUBLE, RUN(hmr_mass_amu), 1.0, 10.0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --hmr MASS             hydrogen mass repartitioning to MASS amu (e.g. 1.5 or 3\n"
     "                         for 4 fs steps; default off)\n"},
    {"--minimize", VKMD_OPTION_FLAG, RUN(minimize), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --minimize             minimise the energy on the device before dynamics\n"
     "                         (equilibrate always does)\n"},
    {"--min-tol", VKMD_OPTION_DOUBLE, RUN(min.force_tol), 1e-6, 1e4, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --min-tol F            minimiser force tolerance, kcal/mol/A (default: engine's)\n"},
    {"--min-iterations", VKMD_OPTION_INT, RUN(min.max_iterations), 1, 10000000, NULL,
     VKMD_RUN_OPTIONS_COMMON,
     "  --min-iterations N     minimiser iterations at most (default: engine's;\n"
     "                         equilibrate 2000)\n"},
    {"--equilibrate", VKMD_OPTION_WHOLE, RUN(equilibrate), 0, 0, NULL, VKMD_RUN_OPTIONS_PRODUCTION,
     "  --equilibrate N        N Langevin steps at --temperature before the run, not\n"
     "                         reported (e.g. before an NVE run; default 0)\n"},
    {"--seed", VKMD_OPTION_INT, SELF(seed), 0, 2147483647, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --seed S               random seed for velocities and Langevin noise (default 1;\n"
     "                         ensemble: replica r uses S + r, the exchanges S)\n"},
    {"--com-every", VKMD_OPTION_INT, SELF(com_every), 0, 2147483647, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --com-every N          remove centre-of-mass motion every N steps (default 100;\n"
     "                         0 never)\n"},
    {"--report-every", VKMD_OPTION_WHOLE, RUN(report_every), -1, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --report-every N       energy.csv row and progress every N steps (default 1000;\n"
     "                         equilibrate 500, its stages whole numbers of reports)\n"},
    {"--traj-every", VKMD_OPTION_WHOLE, RUN(traj_every), -1, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --traj-every N         trajectory frame every N steps (default: --report-every;\n"
     "                         0 no trajectory)\n"},
    {"--traj", VKMD_OPTION_STRING, RUN(traj_path), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --traj FILE            the trajectory (default DIR/traj.dcd): AMBER NetCDF when\n"
     "                         FILE ends .nc (or .ncdf), DCD otherwise (ensemble: a\n"
     "                         relative FILE is in each replica's directory)\n"},
    {"--restart-out", VKMD_OPTION_STRING, RUN(restart_out), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --restart-out FILE     write the state (positions, velocities, box) at every\n"
     "                         checkpoint and at the end: AMBER NetCDF restart for\n"
     "                         .ncrst (doubles), ASCII rst7 otherwise; start a new run\n"
     "                         from it with --coords FILE (ensemble: per replica, as --traj)\n"},
    {"--out", VKMD_OPTION_STRING, RUN(out_dir), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --out DIR              output directory, created (default vkmd_run; vkmd_equil,\n"
     "                         vkmd_ensemble)\n"},
    {"--overwrite", VKMD_OPTION_FLAG, RUN(overwrite), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --overwrite            DIR may hold an earlier run's outputs: they are moved\n"
     "                         aside to NAME.1, NAME.2 ... (without it they are refused;\n"
     "                         a running run's DIR, locked, always is)\n"},
    {"--checkpoint-every", VKMD_OPTION_WHOLE, RUN(checkpoint_every), -1, 0, NULL,
     VKMD_RUN_OPTIONS_PRODUCTION,
     "  --checkpoint-every N   write DIR/checkpoint.chk every N steps, a multiple of\n"
     "                         --report-every (default: the multiple nearest above\n"
     "                         10000; 0: only at the end and on SIGINT/SIGTERM)\n"},
    {"--cutoff", VKMD_OPTION_DOUBLE, RUN(ff.cutoff_a), 1e-3, 1e4, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --cutoff A             non-bonded cutoff in A (default 9)\n"},
    {"--ewald-tolerance", VKMD_OPTION_DOUBLE, RUN(ff.ewald_tolerance), 1e-12, 0.49, NULL,
     VKMD_RUN_OPTIONS_COMMON, "  --ewald-tolerance T    Ewald error tolerance (default 5e-4)\n"},
    {NULL, VKMD_OPTION_FLAG, 0, 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON, VKMD_PRECISION_OPTIONS_USAGE},
    {"--device", VKMD_OPTION_STRING, SELF(device), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --device gpu|N|NAME    Vulkan device (default: the best one; ensemble: the GPU\n"
     "                         of each rank's node-local rank)\n"},
    {"--json", VKMD_OPTION_FLAG, SELF(json), 0, 0, NULL, VKMD_RUN_OPTIONS_COMMON,
     "  --json                 summary as one JSON object on stdout\n"},
    {"--restrain", VKMD_OPTION_STRING, SPEC(mask), 0, 0, NULL, VKMD_RUN_OPTIONS_RESTRAINTS,
     "  --restrain MASK        positional restraints on the atoms of an AMBER mask, e.g.\n"
     "                         '!:WAT,HOH,Na+,Cl- & !@H=' (docs/RESTRAINTS.md; equilibrate:\n"
     "                         default the solute's heavy atoms)\n"},
    {"--restrain-file", VKMD_OPTION_STRING, SPEC(file), 0, 0, NULL, VKMD_RUN_OPTIONS_RESTRAINTS,
     "  --restrain-file FILE   ... or on the atoms listed in FILE (1-based index or a-b a line)\n"},
    {"--restraint-k", VKMD_OPTION_DOUBLE, SPEC(k), 1e-9, 1e6, NULL, VKMD_RUN_OPTIONS_RESTRAINTS,
     "  --restraint-k K        E = K |r - r0|^2, K in kcal/mol/A^2 (AMBER's restraint_wt;\n"
     "                         default 10; equilibrate: tapered to 0 in its density stages)\n"},
    {"--restraint-flat-bottom", VKMD_OPTION_DOUBLE, SPEC(flat_bottom_a), 0, 1e3, NULL,
     VKMD_RUN_OPTIONS_RESTRAINTS,
     "  --restraint-flat-bottom A   no force within A angstrom of r0 (default 0)\n"},
    {"--reference", VKMD_OPTION_STRING, SPEC(reference), 0, 0, NULL, VKMD_RUN_OPTIONS_RESTRAINTS,
     "  --reference FILE       r0 from FILE (rst7, inpcrd or PDB; default: the starting\n"
     "                         coordinates)\n"},
    {"--implicit", VKMD_OPTION_CHOICE, GB(model), 0, 0, "none|hct|obc1|obc2|gbn|gbn2",
     VKMD_RUN_OPTIONS_IMPLICIT,
     "  --implicit hct|obc1|obc2|gbn|gbn2  generalized Born implicit solvent for a\n"
     "                         system without a box (AMBER igb 1, 2, 5, 7, 8,\n"
     "                         as OpenMM builds them from the prmtop's RADII and SCREEN;\n"
     "                         radius sets mbondi, mbondi2, mbondi2, bondi, mbondi3;\n"
     "                         docs/IMPLICIT.md); default none\n"},
    {"--salt", VKMD_OPTION_DOUBLE, GB(salt_molar), 0, 10, NULL, VKMD_RUN_OPTIONS_IMPLICIT,
     "  --salt M               Debye-Hueckel salt screening at M mol/L (AMBER's saltcon;\n"
     "                         default 0)\n"},
    {"--gbsa", VKMD_OPTION_CHOICE, GB(nonpolar), 0, 0, "none|ace", VKMD_RUN_OPTIONS_IMPLICIT,
     "  --gbsa none|ace        nonpolar solvation: none (default) or ACE (OpenMM's\n"
     "                         surface tension 0.0054 kcal/mol/A^2, probe 1.4 A)\n"},
    {"--solute-dielectric", VKMD_OPTION_DOUBLE, GB(solute_dielectric), 1e-3, 1e4, NULL,
     VKMD_RUN_OPTIONS_IMPLICIT, "  --solute-dielectric E  GB solute dielectric (default 1)\n"},
    {"--solvent-dielectric", VKMD_OPTION_DOUBLE, GB(solvent_dielectric), 1e-3, 1e4, NULL,
     VKMD_RUN_OPTIONS_IMPLICIT, "  --solvent-dielectric E GB solvent dielectric (default 78.5)\n"},
    {"--gb-cutoff", VKMD_OPTION_DOUBLE, GB(cutoff_a), 1, 1e4, NULL, VKMD_RUN_OPTIONS_IMPLICIT,
     "  --gb-cutoff A          GB pairs within A angstrom only, as OpenMM's\n"
     "                         CutoffNonPeriodic GB (default: all pairs)\n"},
};
_Static_assert(sizeof table / sizeof *table <= 64, "vkmd_run_options.given has 64 bits");

void vkmd_run_options_init(vkmd_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->precision = (vkmd_precision_options)VKMD_PRECISION_OPTIONS_INIT;
    o->seed = 1;
    o->com_every = 100;
}

/* Parses entry e's value into base + e->offset. */
static void parse_entry(const run_option *e, void *base, int argc, char **argv, int *i,
                        vkmd_result *r)
{
    const vkmd_option a = {.name = e->name,
                           .kind = e->kind,
                           .out = (char *)base + e->offset,
                           .lo = e->lo,
                           .hi = e->hi,
                           .choices = e->choices};
    vkmd_options_parse(argc, argv, i, &a, 1, r);
}

int vkmd_run_options_parse(vkmd_run_options *o, unsigned groups, const char *refusal, int argc,
                           char **argv, int *i, vkmd_result *r)
{
    int handled = 0;
    *r = vkmd_precision_options_parse(&o->precision, argc, argv, i, &handled);
    if (handled)
        return 1;
    for (size_t k = 0; k < sizeof table / sizeof *table; ++k) {
        const run_option *e = &table[k];
        if (!e->name || strcmp(argv[*i], e->name))
            continue;
        if (!(e->group & groups)) {
            *r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %s", e->name, refusal);
            return 1;
        }
        o->given |= 1ull << k;
        void *base = e->group == VKMD_RUN_OPTIONS_RESTRAINTS ? (void *)&o->run.restraints
                     : e->group == VKMD_RUN_OPTIONS_IMPLICIT ? (void *)&o->run.ff.gb
                                                             : (void *)o;
        parse_entry(e, base, argc, argv, i, r);
        return 1;
    }
    return 0;
}

/* One group's options alone, into `base` (the group's own struct). */
static int parse_group(unsigned group, void *base, int argc, char **argv, int *i, vkmd_result *r)
{
    for (size_t k = 0; k < sizeof table / sizeof *table; ++k)
        if (table[k].group == group && !strcmp(argv[*i], table[k].name)) {
            parse_entry(&table[k], base, argc, argv, i, r);
            return 1;
        }
    return 0;
}

int vkmd_run_options_parse_restraints(vkmd_restraint_spec *spec, int argc, char **argv, int *i,
                                      vkmd_result *r)
{
    return parse_group(VKMD_RUN_OPTIONS_RESTRAINTS, spec, argc, argv, i, r);
}

int vkmd_run_options_parse_implicit(vkmd_gb_settings *gb, int argc, char **argv, int *i,
                                    vkmd_result *r)
{
    return parse_group(VKMD_RUN_OPTIONS_IMPLICIT, gb, argc, argv, i, r);
}

int vkmd_run_options_given(const vkmd_run_options *o, const char *name)
{
    for (size_t k = 0; k < sizeof table / sizeof *table; ++k)
        if (table[k].name && !strcmp(table[k].name, name))
            return (o->given >> k) & 1;
    return 0;
}

void vkmd_run_options_finish(vkmd_run_options *o)
{
    vkmd_md_desc *md = &o->run.md;
    md->integrator = o->integrator ? VKMD_INTEGRATOR_VERLET : VKMD_INTEGRATOR_LANGEVIN;
    md->constraints = o->constraints ? VKMD_CONSTRAINTS_NONE : VKMD_CONSTRAINTS_HBONDS;
    md->flexible_water = o->rigid_water_no;
    md->barostat = (vkmd_barostat_mode)o->barostat;
    md->seed = (uint64_t)o->seed;
    md->com_every = o->com_every > 0 ? o->com_every : -1;
    o->run.precision = vkmd_precision_options_request(&o->precision);
}

void vkmd_run_options_usage(FILE *out, unsigned groups)
{
    for (size_t k = 0; k < sizeof table / sizeof *table; ++k)
        if (table[k].group & groups)
            fputs(table[k].usage, out);
}

/* ---- the precision options --------------------------------------------- */

vkmd_result vkmd_precision_options_parse(vkmd_precision_options *o, int argc, char **argv, int *i,
                                         int *out_handled)
{
    const char *a = argv[*i], *v = NULL;
    *out_handled = 1;
    if (!strcmp(a, "--precision")) {
        if (!(v = vkmd_option_value(argc, argv, i)))
            return VKMD_ERROR_INVALID_ARGUMENT;
        return vkmd_precision_parse(v, &o->precision);
    }
    if (!strcmp(a, "--positions")) {
        if (!(v = vkmd_option_value(argc, argv, i)))
            return VKMD_ERROR_INVALID_ARGUMENT;
        return vkmd_positions_mode_parse(v, &o->positions);
    }
    if (!strcmp(a, "--nonbonded")) {
        if (!(v = vkmd_option_value(argc, argv, i)))
            return VKMD_ERROR_INVALID_ARGUMENT;
        o->lj_set = 1;
        return vkmd_lj_option_parse(a, v, &o->lj, &o->lj_min_r_a);
    }
    *out_handled = 0;
    return VKMD_OK;
}

vkmd_precision_request vkmd_precision_options_request(const vkmd_precision_options *o)
{
    return (vkmd_precision_request){.precision = o->precision,
                                    .positions_set = o->positions >= 0,
                                    .positions = o->positions,
                                    .lj_set = o->lj_set,
                                    .lj = o->lj,
                                    .lj_min_r_a = o->lj_min_r_a};
}

vkmd_result vkmd_precision_options_resolve(const vkmd_precision_options *o, vkmd_vk_context *ctx,
                                           const vkmd_system *sys, vkmd_ff_settings *s,
                                           vkmd_precision_choice *out)
{
    const vkmd_precision_request req = vkmd_precision_options_request(o);
    return vkmd_precision_resolve(&req, ctx, sys, s, out);
}
