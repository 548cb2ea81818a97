/* UFF CPU reference, by hand and by consistency:
 *   the parameter table and its parse errors; the embedded assets;
 *   parameter formulas (natural bond length with bond-order and
 *   electronegativity corrections, force constants, equation 17, inversion
 *   coefficients) against values worked out here from the published table;
 *   every functional form at hand-derived 2-4 atom geometries (general,
 *   linear, trigonal, square-planar/octahedral and bipyramidal angles,
 *   torsions of period 2, 3 and 6, inversions of C and P, 12-6 vdW, Coulomb);
 *   analytic forces against central differences of the energy, per term, on
 *   every test molecule (plus made-up charges for Coulomb), trivalent P's
 *   inversion included (RDKit's own gradient is wrong there);
 *   Newton's third law (no net force) and no net torque;
 *   typing of molecules built here (acetone, methylamine, benzene as a
 *   Kekule ring, an ammonium ion) and errors that name the atom;
 *   the built-in molecules. */
#include "io/sdf.h"
#include "io/uff_load.h"
#include "ref/ref_uff.h"
#include "ref/ref_uff_forms.h"
#include "testlib.h"
#include "system/uff_assets.h"
#include "system/uff_molecule.h"
#include "system/uff_terms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (M_PI / 180.0)

static vkmd_uff_param_table table;

static const vkmd_uff_atom_params *P(const char *label)
{
    int32_t i = vkmd_uff_params_find(&table, label);
    CHECK_MSG(i >= 0, "type %s missing", label);
    return i >= 0 ? &table.types[i] : &table.types[0];
}

static void test_table(void)
{
    printf("parameter table\n");
    CHECK_MSG(table.count == 127, "%d types, expected 127", table.count);
    const vkmd_uff_atom_params *c = P("C_3");
    check_close("C_3 r1", c->r1, 0.757, 0, 1e-15);
    check_close("C_3 theta0 (rad)", c->theta0, 109.47 * DEG, 0, 1e-15);
    check_close("C_3 x1", c->x1, 3.851, 0, 1e-15);
    check_close("C_3 D1", c->d1, 0.105, 0, 1e-15);
    check_close("C_3 Z1", c->z1, 1.912, 0, 1e-15);
    check_close("C_3 V1", c->v1, 2.119, 0, 1e-15);
    check_close("C_3 Xi", c->xi, 5.343, 0, 1e-15);
    check_close("P_3+5 theta0 (deg)", P("P_3+5")->theta0 / DEG, 109.47, 0, 1e-12);
    check_close("O_3_z theta0 (deg)", P("O_3_z")->theta0 / DEG, 146.0, 0, 1e-12);
    CHECK(vkmd_uff_params_find(&table, "C_9") == -1);

    static const struct {
        const char *text, *want;
    } bad[] = {
        {"# c\nH_ 0.354 180\n", "t:2: expected 12 fields"},
        {"H_ 0.354 180 2.886 0.044 12 0.712 0 0 4.528 6.9452 0.3x1\n", "t:1: H_: field 12"},
        {"H_ 1 2 3 4 5 6 7 8 9 10 11\nH_ 1 2 3 4 5 6 7 8 9 10 11\n", "t:2: label 'H_' appears"},
        {"ABCDEFGHI 1 2 3 4 5 6 7 8 9 10 11\n", "longer than 7"},
        {"# nothing\n\n", "no parameter rows"},
        {"H_ 1 2 3 4 5 6 7 8 9 10 11 12\n", "found more than 12"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
        vkmd_uff_param_table t;
        vkmd_result r = vkmd_uff_params_parse(bad[k].text, "t", &t);
        CHECK(r == VKMD_ERROR_PARSE && t.count == 0 && t.types == NULL);
        CHECK_MSG(strstr(vkmd_last_error(), bad[k].want), "message '%s' lacks '%s'",
                  vkmd_last_error(), bad[k].want);
        printf("  bad table %zu: %s\n", k + 1, vkmd_last_error());
    }
    size_t n = 0;
    CHECK(vkmd_asset_find("uff_params.txt", &n) != NULL && n > 10000);
    CHECK(vkmd_asset_find("molecules/xylitol.sdf", NULL) != NULL);
    CHECK(vkmd_asset_find("molecules/none.sdf", NULL) == NULL);
    printf("  assets: uff_params.txt %zu bytes\n", n);
}

static void test_formulas(void)
{
    printf("parameter formulas (values worked out from the published table)\n");
    /* Same atoms, single bond: no corrections. */
    double r0 = vkmd_uff_bond_rest_length(1.0, P("C_3"), P("C_3"));
    check_close("C_3-C_3 r0", r0, 1.514, 0, 1e-14);
    check_close("C_3-C_3 kb", vkmd_uff_bond_force_constant(r0, P("C_3"), P("C_3")),
                2 * 332.06 * 1.912 * 1.912 / (1.514 * 1.514 * 1.514), 1e-14, 0);
    /* Aromatic bond: -0.1332 (ri + rj) ln 1.5. */
    check_close("C_R-C_R r0", vkmd_uff_bond_rest_length(1.5, P("C_R"), P("C_R")),
                1.458 - 0.1332 * 1.458 * log(1.5), 1e-14, 0);
    /* C-O: the electronegativity correction. */
    double ren =
        0.757 * 0.658 * pow(sqrt(5.343) - sqrt(8.741), 2) / (5.343 * 0.757 + 8.741 * 0.658);
    check_close("C_3-O_3 r0", vkmd_uff_bond_rest_length(1.0, P("C_3"), P("O_3")),
                0.757 + 0.658 - ren, 1e-14, 0);
    check_close("C_2=O_2 r0", vkmd_uff_bond_rest_length(2.0, P("C_2"), P("O_2")),
                0.732 + 0.634 - 0.1332 * (0.732 + 0.634) * log(2.0) -
                    0.732 * 0.634 * pow(sqrt(5.343) - sqrt(8.741), 2) /
                        (5.343 * 0.732 + 8.741 * 0.634),
                1e-14, 0);
    /* H-C_3-H angle constant, equation 13 written out. */
    double rch =
        0.757 + 0.354 -
        0.757 * 0.354 * pow(sqrt(5.343) - sqrt(4.528), 2) / (5.343 * 0.757 + 4.528 * 0.354);
    double c0 = cos(109.47 * DEG);
    double r13 = sqrt(2 * rch * rch - 2 * rch * rch * c0);
    double ka = 2 * 332.06 / (rch * rch) * 0.712 * 0.712 / pow(r13, 5) * rch * rch *
                (3 * rch * rch * (1 - c0 * c0) - r13 * r13 * c0);
    check_close("H-C_3-H ka",
                vkmd_uff_angle_force_constant(109.47 * DEG, 1, 1, P("H_"), P("C_3"), P("H_")), ka,
                1e-13, 0);
    check_close("eq. 17, C_R-C_R order 1.5", vkmd_uff_torsion_sp2_barrier(1.5, P("C_R"), P("C_R")),
                5 * 2 * (1 + 4.18 * log(1.5)), 1e-14, 0);
    check_close("eq. 17, order 1", vkmd_uff_torsion_sp2_barrier(1.0, P("C_R"), P("N_R")), 10, 1e-14,
                0);
    double k, a0, a1, a2;
    vkmd_uff_inversion_params(6, 1, &k, &a0, &a1, &a2);
    check_close("inversion K, C bound to sp2 O", k, 50.0 / 3, 1e-15, 0);
    CHECK(a0 == 1 && a1 == -1 && a2 == 0);
    vkmd_uff_inversion_params(7, 1, &k, &a0, &a1, &a2);
    check_close("inversion K, N (never the O case)", k, 2.0, 1e-15, 0);
    vkmd_uff_inversion_params(15, 0, &k, &a0, &a1, &a2);
    double w0 = 84.4339 * DEG;
    check_close("inversion P: E(w0) = 0", a0 + a1 * cos(w0) + a2 * cos(2 * w0), 0, 0, 1e-15);
    check_close("inversion P: K (C0 + C1 + C2) = 22/3", k * (a0 + a1 + a2), 22.0 / 3, 1e-14, 0);
}

/* One-term list helpers. */
static vkmd_uff_terms one_term(void)
{
    vkmd_uff_terms t;
    memset(&t, 0, sizeof t);
    t.atom_count = 4;
    t.vdw_threshold = VKMD_UFF_VDW_THRESHOLD;
    return t;
}

static double angle_energy(int order, double ka, double theta0, double theta, double *out_fmax)
{
    vkmd_uff_angle_term a = {0, 1, 2, order, ka, theta0, 0, 0, 0};
    if (order == 0) {
        double s = sin(theta0), c = cos(theta0);
        a.c2 = 1 / (4 * s * s);
        a.c1 = -4 * a.c2 * c;
        a.c0 = a.c2 * (2 * c * c + 1);
    }
    vkmd_uff_terms t = one_term();
    t.angle_count = 1;
    t.angles = &a;
    double x[12] = {1.3, 0, 0, 0, 0, 0, 1.1 * cos(theta), 1.1 * sin(theta), 0, 0, 0, 0};
    double f[12] = {0};
    double e = ref_uff_angles(&t, x, f);
    *out_fmax = 0;
    for (int i = 0; i < 9; ++i)
        *out_fmax = fmax(*out_fmax, fabs(f[i]));
    return e;
}

static double torsion_energy(int n, double v, double cos_term, double phi)
{
    vkmd_uff_torsion_term d = {0, 1, 2, 3, n, v, cos_term};
    vkmd_uff_terms t = one_term();
    t.torsion_count = 1;
    t.torsions = &d;
    double x[12] = {0, 1, 0, 0, 0, 0, 1.5, 0, 0, 1.5, cos(phi), sin(phi)};
    return ref_uff_torsions(&t, x, NULL);
}

static double inversion_energy(int32_t z, double w)
{
    vkmd_uff_inversion_term v = {0, 1, 2, 3, 0, 0, 0, 0};
    vkmd_uff_inversion_params(z, 0, &v.k_inv, &v.c0, &v.c1, &v.c2);
    vkmd_uff_terms t = one_term();
    t.inversion_count = 1;
    t.inversions = &v;
    double x[12] = {1, 0, 0, 0, 0, 0, 0, 1, 0, -cos(w) / sqrt(2), -cos(w) / sqrt(2), sin(w)};
    return ref_uff_inversions(&t, x, NULL);
}

static void test_forms(void)
{
    printf("functional forms at hand-derived geometries\n");
    /* Bond: E = kb/2 (r - r0)^2, |F| = kb |r - r0|. */
    {
        vkmd_uff_bond_term b = {0, 1, 700.0, 1.514};
        vkmd_uff_terms t = one_term();
        t.bond_count = 1;
        t.bonds = &b;
        double x[12] = {0, 0, 0, 1.6, 0, 0}, f[12] = {0};
        double e = ref_uff_bonds(&t, x, f);
        check_close("bond E at r0 + 0.086", e, 0.5 * 700 * 0.086 * 0.086, 1e-12, 0);
        check_close("bond F on atom 2 (x)", f[3], -700 * 0.086, 1e-12, 0);
        check_close("bond F on atom 1 (x)", f[0], 700 * 0.086, 1e-12, 0);
    }
    double fm;
    double th0 = 109.47 * DEG, c = cos(th0), s = sin(th0);
    check_close("general angle at theta0", angle_energy(0, 100, th0, th0, &fm), 0, 0, 1e-12);
    check_close("  |F| at theta0", fm, 0, 0, 1e-10);
    check_close("general angle at 90 deg = ka cos^2/(2 sin^2)",
                angle_energy(0, 100, th0, M_PI / 2, &fm), 100 * c * c / (2 * s * s), 1e-12, 0);
    check_close("general angle at 180 deg (finite)", angle_energy(0, 100, th0, M_PI, &fm),
                100 * (1 + c) * (1 + c) / (2 * s * s) * 1.0, 1e-12, 0);
    check_close("linear angle at 180 deg", angle_energy(1, 100, M_PI, M_PI, &fm), 0, 0, 1e-12);
    check_close("linear angle at 90 deg = ka", angle_energy(1, 100, M_PI, M_PI / 2, &fm), 100,
                1e-12, 0);
    check_close("trigonal (n 3) at 120 deg", angle_energy(3, 90, 0, 120 * DEG, &fm), 0, 0, 1e-12);
    check_close("trigonal (n 3) at 90 deg = ka/9", angle_energy(3, 90, 0, M_PI / 2, &fm), 10, 1e-12,
                0);
    check_close("octahedral/square (n 4) at 90 deg", angle_energy(4, 160, 0, M_PI / 2, &fm), 0, 0,
                1e-12);
    check_close("octahedral/square (n 4) at 45 deg = ka/8", angle_energy(4, 160, 0, M_PI / 4, &fm),
                20, 1e-12, 0);
    check_close("bipyramid axial (n 2) at 180 deg", angle_energy(2, 80, 0, M_PI, &fm), 0, 0, 1e-12);
    check_close("bipyramid axial (n 2) at 90 deg = ka/2", angle_energy(2, 80, 0, M_PI / 2, &fm), 40,
                1e-12, 0);
    check_close("torsion sp3-sp3 (n 3) staggered", torsion_energy(3, 2, -1, 60 * DEG), 0, 0, 1e-12);
    check_close("torsion sp3-sp3 (n 3) eclipsed = V", torsion_energy(3, 2, -1, 0), 2, 1e-12, 0);
    check_close("torsion sp3-sp3 (n 3) anti", torsion_energy(3, 2, -1, M_PI), 0, 0, 1e-12);
    check_close("torsion sp2-sp2 (n 2) planar", torsion_energy(2, 10, 1, 0), 0, 0, 1e-12);
    check_close("torsion sp2-sp2 (n 2) at 90 deg = V", torsion_energy(2, 10, 1, M_PI / 2), 10,
                1e-12, 0);
    check_close("torsion group 16 (n 2, -1) at 90 deg", torsion_energy(2, 2, -1, M_PI / 2), 0, 0,
                1e-12);
    check_close("torsion sp2-sp3 (n 6) at 30 deg = V", torsion_energy(6, 1, 1, 30 * DEG), 1, 1e-12,
                0);
    check_close("torsion sp2-sp3 (n 6) at 0", torsion_energy(6, 1, 1, 0), 0, 0, 1e-12);
    check_close("inversion C planar", inversion_energy(6, 0), 0, 0, 1e-12);
    check_close("inversion C at W = 30 deg = K (1 - cos W)", inversion_energy(6, 30 * DEG),
                2.0 * (1 - cos(30 * DEG)), 1e-12, 0);
    check_close("inversion P at W = w0", inversion_energy(15, 84.4339 * DEG), 0, 0, 1e-12);
    check_close("inversion P planar = 22/3", inversion_energy(15, 0), 22.0 / 3, 1e-12, 0);
    /* vdW and Coulomb. */
    {
        vkmd_uff_pair_term p = {0, 1, 3.851, 0.105, 332.0637 * 0.5 * -0.5};
        vkmd_uff_terms t = one_term();
        t.pair_count = 1;
        t.pairs = &p;
        t.coulomb = 1;
        double x[12] = {0, 0, 0, 3.851, 0, 0}, f[12] = {0};
        check_close("vdW at x_ij = -D", ref_uff_vdw(&t, x, f), -0.105, 1e-14, 0);
        check_close("  |F| at x_ij", fabs(f[0]), 0, 0, 1e-14);
        x[3] = 3.851 / pow(2.0, 1.0 / 6);
        check_close("vdW at x_ij 2^(-1/6) = 0", ref_uff_vdw(&t, x, NULL), 0, 0, 1e-14);
        x[3] = 2.0;
        check_close("Coulomb k q q / r", ref_uff_coulomb(&t, x, NULL), 332.0637 * -0.25 / 2, 1e-14,
                    0);
        x[3] = 10 * 3.851 + 0.01;
        check_close("vdW beyond 10 x_ij = 0", ref_uff_vdw(&t, x, NULL), 0, 0, 0);
    }
    /* Chebyshev polynomials against cos(n t). */
    double worst = 0;
    for (int n = 0; n <= 6; ++n)
        for (double t = 0.05; t < M_PI; t += 0.1) {
            double dt, v = uff_form_chebyshev(n, cos(t), &dt);
            worst = fmax(worst, fabs(v - cos(n * t)));
            worst = fmax(worst, fabs(dt * -sin(t) - -n * sin(n * t))); /* d/dt by chain rule */
        }
    check_close("Chebyshev T_n(cos t) = cos(n t), n 0..6", worst, 0, 0, 1e-12);
}

typedef double (*term_fn)(const vkmd_uff_terms *, const double *, double *);

/* Central differences of one term against its analytic forces. */
static double fd_check(const vkmd_uff_terms *t, double *x, term_fn fn, double *out_rms_f)
{
    int n = 3 * t->atom_count;
    double *f = calloc((size_t)n, sizeof *f), *fd = calloc((size_t)n, sizeof *fd);
    fn(t, x, f);
    const double h = 1e-5;
    for (int i = 0; i < n; ++i) {
        double x0 = x[i];
        x[i] = x0 + h;
        double ep = fn(t, x, NULL);
        x[i] = x0 - h;
        double em = fn(t, x, NULL);
        x[i] = x0;
        fd[i] = -(ep - em) / (2 * h);
    }
    /* RMS difference relative to the RMS force, or absolute (kcal/mol/A) for a term whose
     * forces are below 1 (a nearly planar inversion): there the difference quotient's own
     * error, ~1e-10, would dominate a relative figure. */
    *out_rms_f = rms(fd, n);
    for (int i = 0; i < n; ++i)
        f[i] -= fd[i];
    double err = rms(f, n) / fmax(*out_rms_f, 1.0);
    free(f);
    free(fd);
    return err;
}

static void test_forces(void)
{
    printf("forces vs central differences (h 1e-5 A): RMS difference / max(RMS F, 1 kcal/mol/A); "
           "net force and torque / RMS F\n");
    vkmd_uff_molecule *recs = NULL;
    int32_t nrec = 0;
    CHECK_OK(vkmd_sdf_read(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &nrec));
    static const char *const names[] = {"bond", "angle", "torsion", "inversion", "vdW", "Coulomb"};
    static const term_fn fns[] = {ref_uff_bonds,      ref_uff_angles, ref_uff_torsions,
                                  ref_uff_inversions, ref_uff_vdw,    ref_uff_coulomb};
    int tested = 0;
    double worst_fd = 0, worst_net = 0, worst_torque = 0;
    for (int32_t r = 0; r < nrec; ++r) {
        vkmd_uff_molecule *m = &recs[r];
        /* Some charges, so the Coulomb term is tested too (sum zero). */
        m->partial_charges = calloc((size_t)m->atom_count, sizeof *m->partial_charges);
        for (int32_t a = 0; a < m->atom_count; ++a)
            m->partial_charges[a] = 0.3 * sin(1.7 * a + 0.4);
        vkmd_uff_typing ty;
        vkmd_uff_terms t;
        vkmd_uff_terms_desc desc = {.include_interfragment = 1};
        vkmd_result res = vkmd_uff_setup(m, &desc, &ty, &t);
        CHECK_OK(res);
        if (res != VKMD_OK)
            continue;
        ++tested;
        printf("  %-36s", m->name);
        for (int k = 0; k < 6; ++k) {
            double frms;
            double e = fd_check(&t, m->positions, fns[k], &frms);
            printf(" %s %.1e", names[k], e);
            worst_fd = fmax(worst_fd, e);
            CHECK_MSG(e <= 1e-6, "%s: %s forces vs differences %.3e (rms F %.3g)", m->name,
                      names[k], e, frms);
        }
        double *f = calloc((size_t)m->atom_count * 3, sizeof *f);
        vkmd_uff_energy en;
        CHECK_OK(vkmd_ref_uff_compute(&t, m->positions, &en, f));
        double net[3] = {0}, tq[3] = {0};
        for (int32_t a = 0; a < m->atom_count; ++a) {
            const double *x = m->positions + 3 * a, *fa = f + 3 * a;
            for (int d = 0; d < 3; ++d)
                net[d] += fa[d];
            tq[0] += x[1] * fa[2] - x[2] * fa[1];
            tq[1] += x[2] * fa[0] - x[0] * fa[2];
            tq[2] += x[0] * fa[1] - x[1] * fa[0];
        }
        double frms = rms(f, 3 * m->atom_count);
        double n_rel = sqrt(net[0] * net[0] + net[1] * net[1] + net[2] * net[2]) / frms;
        double t_rel = sqrt(tq[0] * tq[0] + tq[1] * tq[1] + tq[2] * tq[2]) / frms;
        printf(" | net F %.1e torque %.1e\n", n_rel, t_rel);
        worst_net = fmax(worst_net, n_rel);
        worst_torque = fmax(worst_torque, t_rel);
        CHECK_MSG(n_rel <= 1e-12 && t_rel <= 1e-11, "%s: net force %.3e, torque %.3e (rel)",
                  m->name, n_rel, t_rel);
        free(f);
        vkmd_uff_terms_free(&t);
        vkmd_uff_typing_free(&ty);
    }
    CHECK(tested == nrec && tested >= 20);
    printf("  %d molecules: worst force vs difference rms-rel %.2e, net force %.2e, torque %.2e "
           "(relative to rms F)\n",
           tested, worst_fd, worst_net, worst_torque);
    vkmd_uff_molecule_array_free(recs, nrec);
}

/* A molecule built here: elements, bonds (1-based pairs and orders). */
static vkmd_uff_molecule build(const char *name, int n, const int32_t *z, int nb,
                               const int32_t (*b)[3])
{
    vkmd_uff_molecule m;
    CHECK_OK(vkmd_uff_molecule_alloc(n, nb, 1, &m));
    snprintf(m.name, sizeof m.name, "%s", name);
    snprintf(m.source, sizeof m.source, "test:%s", name);
    for (int i = 0; i < n; ++i) {
        m.z[i] = z[i];
        m.positions[3 * i] = 1.5 * i; /* typing does not look at coordinates */
    }
    for (int i = 0; i < nb; ++i) {
        m.bonds[i].a = b[i][0] - 1;
        m.bonds[i].b = b[i][1] - 1;
        m.bonds[i].order = b[i][2];
    }
    return m;
}

static void expect_types(vkmd_uff_molecule *m, const char *want)
{
    vkmd_uff_typing ty;
    vkmd_result r = vkmd_uff_type_atoms(m, &table, &ty);
    CHECK_OK(r);
    if (r != VKMD_OK)
        return;
    char got[512] = "";
    for (int32_t a = 0; a < m->atom_count; ++a) {
        strcat(got, a ? " " : "");
        strcat(got, ty.label[a]);
    }
    printf("  %-12s %s\n", m->name, got);
    CHECK_MSG(!strcmp(got, want), "%s: types '%s', expected '%s'", m->name, got, want);
    vkmd_uff_typing_free(&ty);
}

static void expect_error(vkmd_uff_molecule *m, const char *want)
{
    vkmd_uff_typing ty;
    vkmd_result r = vkmd_uff_type_atoms(m, &table, &ty);
    CHECK_MSG(r == VKMD_ERROR_UNSUPPORTED, "%s: typed without error", m->name);
    CHECK_MSG(strstr(vkmd_last_error(), want), "%s: message '%s' lacks '%s'", m->name,
              vkmd_last_error(), want);
    printf("  %-12s error: %s\n", m->name, vkmd_last_error());
}

static void test_typing(void)
{
    printf("typing of molecules built here\n");
    {
        /* acetone: C=O between sp3 neighbours is not conjugated: C_2 and O_2 */
        const int32_t z[] = {6, 6, 8, 6, 1, 1, 1, 1, 1, 1};
        const int32_t b[][3] = {{1, 2, 1}, {2, 3, 2}, {2, 4, 1}, {1, 5, 1}, {1, 6, 1},
                                {1, 7, 1}, {4, 8, 1}, {4, 9, 1}, {4, 10, 1}};
        vkmd_uff_molecule m = build("acetone", 10, z, 9, b);
        expect_types(&m, "C_3 C_2 O_2 C_3 H_ H_ H_ H_ H_ H_");
        vkmd_uff_molecule_destroy(&m);
    }
    {
        const int32_t z[] = {6, 7, 1, 1, 1, 1, 1};
        const int32_t b[][3] = {{1, 2, 1}, {1, 3, 1}, {1, 4, 1}, {1, 5, 1}, {2, 6, 1}, {2, 7, 1}};
        vkmd_uff_molecule m = build("methylamine", 7, z, 6, b);
        expect_types(&m, "C_3 N_3 H_ H_ H_ H_ H_");
        /* take a hydrogen away from N: valence 2 is not standard */
        m.bond_count = 5;
        expect_error(&m, "atom 2 (N, charge +0): valence 2 is not one of 3");
        m.bond_count = 6;
        /* an ammonium-like N with four bonds needs its charge */
        vkmd_uff_molecule_destroy(&m);
    }
    {
        const int32_t z[] = {7, 1, 1, 1, 1};
        const int32_t b[][3] = {{1, 2, 1}, {1, 3, 1}, {1, 4, 1}, {1, 5, 1}};
        vkmd_uff_molecule m = build("ammonium", 5, z, 4, b);
        expect_error(&m, "valence 4 is not one of 3");
        m.formal_charge[0] = 1;
        expect_types(&m, "N_3 H_ H_ H_ H_");
        vkmd_uff_molecule_destroy(&m);
    }
    {
        /* benzene as a Kekule ring: aromatic, every ring bond 1.5 */
        const int32_t z[] = {6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1};
        const int32_t b[][3] = {{1, 2, 2}, {2, 3, 1},  {3, 4, 2},  {4, 5, 1},
                                {5, 6, 2}, {6, 1, 1},  {1, 7, 1},  {2, 8, 1},
                                {3, 9, 1}, {4, 10, 1}, {5, 11, 1}, {6, 12, 1}};
        vkmd_uff_molecule m = build("benzene", 12, z, 12, b);
        expect_types(&m, "C_R C_R C_R C_R C_R C_R H_ H_ H_ H_ H_ H_");
        vkmd_uff_perception p;
        CHECK_OK(vkmd_uff_perceive(&m, &p));
        int arom = 1;
        for (int i = 0; i < 6; ++i)
            arom &= p.bond_order[i] == 1.5 && p.aromatic[i];
        CHECK_MSG(arom && p.ring_count == 1, "benzene: ring bonds not aromatic 1.5");
        vkmd_uff_perception_free(&p);
        vkmd_uff_molecule_destroy(&m);
    }
    {
        /* SF6: RDKit's label S_6+6 has no parameters (RDKit cannot type it either) */
        const int32_t z[] = {16, 9, 9, 9, 9, 9, 9};
        const int32_t b[][3] = {{1, 2, 1}, {1, 3, 1}, {1, 4, 1}, {1, 5, 1}, {1, 6, 1}, {1, 7, 1}};
        vkmd_uff_molecule m = build("SF6", 7, z, 6, b);
        expect_error(&m, "atom 1 (S, SP3D2): UFF type 'S_6+6' is not in the parameter table");
        m.z[0] = 26;
        expect_error(&m, "atom 1 (Fe): element not supported");
        vkmd_uff_molecule_destroy(&m);
    }
}

static void test_builtins(void)
{
    printf("built-in molecules\n");
    vkmd_uff_molecule *sdf = NULL;
    int32_t nsdf = 0;
    CHECK_OK(vkmd_sdf_read(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &sdf, &nsdf));
    const char *const *names = vkmd_uff_builtin_names();
    int count = 0;
    for (; names[count]; ++count) {
        vkmd_uff_molecule *recs = NULL;
        int32_t n = 0;
        CHECK_OK(vkmd_uff_molecule_load(names[count], &recs, &n));
        if (n != 1 || !sdf) {
            CHECK(n == 1);
            vkmd_uff_molecule_array_free(recs, n);
            continue;
        }
        const vkmd_uff_molecule *twin = NULL;
        for (int32_t k = 0; k < nsdf; ++k)
            if (!strcmp(sdf[k].name, names[count]))
                twin = &sdf[k];
        CHECK_MSG(twin && twin->atom_count == recs[0].atom_count,
                  "%s: no record of that name in molecules.sdf", names[count]);
        if (twin && twin->atom_count == recs[0].atom_count) {
            vkmd_uff_typing t1, t2;
            vkmd_uff_terms a, b;
            vkmd_uff_energy e1, e2;
            CHECK_OK(vkmd_uff_setup(&recs[0], NULL, &t1, &a));
            CHECK_OK(vkmd_uff_setup(twin, NULL, &t2, &b));
            CHECK_OK(vkmd_ref_uff_compute(&a, recs[0].positions, &e1, NULL));
            CHECK_OK(vkmd_ref_uff_compute(&b, twin->positions, &e2, NULL));
            printf("  %-12s %d atoms, source %s, E %.10f (its record in molecules.sdf %.10f)\n",
                   names[count], recs[0].atom_count, recs[0].source, e1.total, e2.total);
            CHECK(e1.total == e2.total);
            vkmd_uff_terms_free(&a);
            vkmd_uff_terms_free(&b);
            vkmd_uff_typing_free(&t1);
            vkmd_uff_typing_free(&t2);
        }
        vkmd_uff_molecule_array_free(recs, n);
    }
    CHECK(count == 2);
    /* The trigonal bipyramid of PF5: one axial pair, three equatorial pairs, six mixed. */
    for (int32_t k = 0; k < nsdf; ++k) {
        if (strcmp(sdf[k].name, "phosphorus-pentafluoride"))
            continue;
        vkmd_uff_typing ty;
        vkmd_uff_terms t;
        CHECK_OK(vkmd_uff_setup(&sdf[k], NULL, &ty, &t));
        int orders[5] = {0};
        for (int32_t a = 0; a < t.angle_count; ++a)
            ++orders[t.angles[a].order];
        printf("  PF5 angles: %d axial (n 2), %d equatorial (n 3), %d axial-equatorial (general)\n",
               orders[2], orders[3], orders[0]);
        CHECK(orders[2] == 1 && orders[3] == 3 && orders[0] == 6);
        vkmd_uff_terms_free(&t);
        vkmd_uff_typing_free(&ty);
    }
    vkmd_uff_molecule_array_free(sdf, nsdf);
}

int main(void)
{
    CHECK_OK(vkmd_uff_params_load_default(&table));
    if (table.count == 0)
        return test_finish("test_ref_uff");
    test_table();
    test_formulas();
    test_forms();
    test_forces();
    test_typing();
    test_builtins();
    vkmd_uff_params_destroy(&table);
    return test_finish("test_ref_uff");
}
