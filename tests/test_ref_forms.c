/* Hand-derived values of every functional form in engine/ref/ref_forms.h, and
 * each returned derivative against a central difference of the form itself.
 * The GLSL mirror (shaders/common/forms.glsl) is checked against the same
 * forms by the GPU tests. */
#include "ref/ref_forms.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>

/* -dE/dr / r by central difference of a pair form evaluated at r. */
static double pair_fd(double (*e_of_r)(double r, const double *p), double r, const double *p)
{
    const double h = 1e-6;
    return -(e_of_r(r + h, p) - e_of_r(r - h, p)) / (2 * h) / r;
}
static double e_lj(double r, const double *p)
{
    double f;
    return form_lj(1 / (r * r), p[0], p[1], &f);
}
static double e_coul(double r, const double *p)
{
    double f;
    return form_coulomb(1 / r, p[0], &f);
}
static double e_erfc(double r, const double *p)
{
    double f;
    return form_coulomb_erfc(r, 1 / r, p[0], p[1], &f);
}
static double e_excl(double r, const double *p)
{
    double f;
    return form_coulomb_excl(r, 1 / r, p[0], p[1], &f);
}

int main(void)
{
    double d, f;
    printf("bond: k 100, r0 1.5, r 2: E = 100 (0.5)^2 = 25, dE/dr = 2 100 0.5 = 100\n");
    check_close("bond E", form_bond(2.0, 100, 1.5, &d), 25.0, 1e-15, 0);
    check_close("bond dE/dr", d, 100.0, 1e-15, 0);

    printf("angle: k 50, theta0 pi/3, theta pi/2: E = 50 (pi/6)^2 = 13.7077838904, "
           "dE/dtheta = 100 pi/6 = 52.3598775598\n");
    check_close("angle E", form_angle(M_PI / 2, 50, M_PI / 3, &d), 13.707783890401887, 1e-14, 0);
    check_close("angle dE/dtheta", d, 52.35987755982988, 1e-14, 0);

    printf("dihedral: k 2, n 2, phase 0, phi pi/4: E = 2 (1 + cos(pi/2)) = 2, "
           "dE/dphi = -2 2 sin(pi/2) = -4\n");
    check_close("dihedral E", form_dihedral(M_PI / 4, 2, 2, 0, &d), 2.0, 1e-15, 0);
    check_close("dihedral dE/dphi", d, -4.0, 1e-15, 0);
    printf("dihedral: k 1, n 1, phase 0.3, phi pi/3: E = 1 + cos(pi/3 - 0.3) = 1.73359625086\n");
    check_close("dihedral E phase", form_dihedral(M_PI / 3, 1, 1, 0.3, &d), 1.7335962508631506,
                1e-15, 0);

    printf("LJ: A 1e6, B 1e3, r 2: E = 1e6/4096 - 1e3/64 = 228.515625, "
           "f/r = (12 244.140625 - 6 15.625)/4 = 708.984375\n");
    check_close("LJ E", form_lj(0.25, 1e6, 1e3, &f), 228.515625, 1e-15, 0);
    check_close("LJ f/r", f, 708.984375, 1e-15, 0);

    printf("Coulomb: kqq 332, r 2: E = 166, f/r = 166/4 = 41.5\n");
    check_close("Coulomb E", form_coulomb(0.5, 332, &f), 166.0, 1e-15, 0);
    check_close("Coulomb f/r", f, 41.5, 1e-15, 0);

    printf("erfc: kqq 10, alpha 0.5, r 2: E = 10 erfc(1)/2 = 5 x 0.157299207050285 = "
           "0.786496035251425\n  f/r = (E + 10 0.5 (2/sqrt(pi)) e^-1)/4 = (0.786496035251425 + "
           "2.07553748710297)/4 = 0.715508380588600\n");
    check_close("erfc E", form_coulomb_erfc(2, 0.5, 10, 0.5, &f), 0.786496035251425, 1e-14, 0);
    check_close("erfc f/r", f, 0.7155083805886, 1e-12, 0);

    printf("excl: kqq 10, alpha 0.5, r 2: E = -10 erf(1)/2 = -4.213503964748575, "
           "f/r = (E + 2.07553748710297)/4 = -0.534491619411401\n");
    check_close("excl E", form_coulomb_excl(2, 0.5, 10, 0.5, &f), -4.213503964748575, 1e-14, 0);
    check_close("excl f/r", f, -0.534491619411401, 1e-12, 0);

    printf("identity: erfc form minus excl form = plain Coulomb, at r = 0.7 .. 8.7\n");
    for (double r = 0.7; r < 9; r += 1.0) {
        double f1, f2, f3;
        double e = form_coulomb_erfc(r, 1 / r, 7.5, 0.31, &f1) -
                   form_coulomb_excl(r, 1 / r, 7.5, 0.31, &f2);
        CHECK(fabs(e - form_coulomb(1 / r, 7.5, &f3)) <= 1e-13 * fabs(e));
        CHECK(fabs((f1 - f2) - f3) <= 1e-13 * fabs(f3));
    }

    printf("derivatives vs central differences (h = 1e-6), rel limit 1e-7:\n");
    double worst = 0;
    for (double x = 0.3; x < 3.0; x += 0.37) {
        const double h = 1e-6;
        double d0, dp, dm;
        form_bond(x, 310, 1.1, &d0);
        worst = fmax(worst,
                     fabs(d0 - (form_bond(x + h, 310, 1.1, &dp) - form_bond(x - h, 310, 1.1, &dm)) /
                                   (2 * h)) /
                         (fabs(d0) + 1));
        form_angle(x, 63, 1.9, &d0);
        worst = fmax(worst,
                     fabs(d0 - (form_angle(x + h, 63, 1.9, &dp) - form_angle(x - h, 63, 1.9, &dm)) /
                                   (2 * h)) /
                         (fabs(d0) + 1));
        form_dihedral(x, 1.4, 3, 0.3, &d0);
        worst = fmax(worst, fabs(d0 - (form_dihedral(x + h, 1.4, 3, 0.3, &dp) -
                                       form_dihedral(x - h, 1.4, 3, 0.3, &dm)) /
                                          (2 * h)) /
                                (fabs(d0) + 1));
    }
    const double p_lj[2] = {5.8e5, 6.0e2}, p_q[2] = {-83.0, 0.35};
    for (double r = 2.5; r < 9; r += 0.61) {
        double fr;
        form_lj(1 / (r * r), p_lj[0], p_lj[1], &fr);
        worst = fmax(worst, fabs(fr - pair_fd(e_lj, r, p_lj)) / (fabs(fr) + 1e-3));
        form_coulomb(1 / r, p_q[0], &fr);
        worst = fmax(worst, fabs(fr - pair_fd(e_coul, r, p_q)) / (fabs(fr) + 1e-3));
        form_coulomb_erfc(r, 1 / r, p_q[0], p_q[1], &fr);
        worst = fmax(worst, fabs(fr - pair_fd(e_erfc, r, p_q)) / (fabs(fr) + 1e-3));
        form_coulomb_excl(r, 1 / r, p_q[0], p_q[1], &fr);
        worst = fmax(worst, fabs(fr - pair_fd(e_excl, r, p_q)) / (fabs(fr) + 1e-3));
    }
    printf("  worst relative derivative error %.3g\n", worst);
    CHECK(worst < 1e-7);
    return test_finish("test_ref_forms");
}
