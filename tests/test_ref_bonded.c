/* Hand-derived 2-4 atom cases for bonds, angles, dihedrals (proper and
 * improper, with OpenMM's sign convention) and scaled 1-4 pairs, including a
 * bond and a 1-4 pair that cross the periodic boundary. */
#include "ref_testsys.h"
#include "testlib.h"

#include <stdio.h>

static void set_pos(vkmd_system *sys, int32_t a, double x, double y, double z)
{
    sys->positions[3 * a] = x;
    sys->positions[3 * a + 1] = y;
    sys->positions[3 * a + 2] = z;
}

static void check_vec(const char *what, const double *f, double x, double y, double z)
{
    char name[64];
    snprintf(name, sizeof name, "%s x", what);
    check_close(name, f[0], x, 1e-12, 1e-12);
    snprintf(name, sizeof name, "%s y", what);
    check_close(name, f[1], y, 1e-12, 1e-12);
    snprintf(name, sizeof name, "%s z", what);
    check_close(name, f[2], z, 1e-12, 1e-12);
}

int main(void)
{
    vkmd_system sys;
    double f[12];

    printf("bond: atoms 2 A apart on x, k 100, r0 1.5: E = 100 (0.5)^2 = 25;\n"
           "  |F| = 2 k (r - r0) = 100, pulling the atoms together\n");
    testsys_alloc(&sys, 2);
    sys.bond_count = 1;
    vkmd_bond bond = {0, 1, 100, 1.5};
    sys.bonds = &bond;
    set_pos(&sys, 1, 2, 0, 0);
    memset(f, 0, sizeof f);
    check_close("bond E", ref_bonds(&sys, f), 25.0, 1e-14, 0);
    check_vec("bond F0", f, 100, 0, 0);
    check_vec("bond F1", f + 3, -100, 0, 0);
    printf("bond across the boundary: box 10 A, x = 0.5 and 9.0, minimum image r = 1.5: E = 0\n");
    sys.box.periodic = 1;
    sys.box.len[0] = sys.box.len[1] = sys.box.len[2] = 10;
    set_pos(&sys, 0, 0.5, 0, 0);
    set_pos(&sys, 1, 9.0, 0, 0);
    check_close("bond E periodic", ref_bonds(&sys, NULL), 0.0, 0, 1e-24);
    printf("  and at x = 0.5, 8.5 (r = 2): E = 25 as in the interior\n");
    set_pos(&sys, 1, 8.5, 0, 0);
    memset(f, 0, sizeof f);
    check_close("bond E periodic r=2", ref_bonds(&sys, f), 25.0, 1e-14, 0);
    check_vec("bond F0 periodic (pulled towards -x)", f, -100, 0, 0);
    sys.bonds = NULL;
    vkmd_system_destroy(&sys);

    printf(
        "angle: i (1,0,0), apex (0,0,0), k (0,1,0): theta = pi/2; k 50, theta0 pi/3:\n"
        "  E = 50 (pi/6)^2 = 13.7077838904; dE/dtheta = 52.3598775598; |dtheta/dr_i| = 1/|a| = 1\n"
        "  F_i = (0, 52.36, 0) closes the angle, F_k = (52.36, 0, 0), F_j = -(F_i + F_k)\n");
    testsys_alloc(&sys, 3);
    vkmd_angle ang = {0, 1, 2, 50, M_PI / 3};
    sys.angles = &ang;
    sys.angle_count = 1;
    set_pos(&sys, 0, 1, 0, 0);
    set_pos(&sys, 2, 0, 1, 0);
    memset(f, 0, sizeof f);
    check_close("angle E", ref_angles(&sys, f), 13.707783890401887, 1e-14, 0);
    const double g = 52.35987755982988;
    check_vec("angle F_i", f, 0, g, 0);
    check_vec("angle F_j", f + 3, -g, -g, 0);
    check_vec("angle F_k", f + 6, g, 0, 0);
    sys.angles = NULL;
    vkmd_system_destroy(&sys);

    printf("dihedral: i (1,0,0), j (0,0,0), k (0,0,1), l = k + (cos 60, sin 60, 0): phi = +60 deg\n"
           "  (OpenMM 7.7 Reference gives 1.73359625086 kJ/mol for k 1, n 1, phase 0.3 here,\n"
           "  i.e. the + sign); E = 1 + cos(pi/3 - 0.3) = 1.73359625086\n");
    testsys_alloc(&sys, 4);
    vkmd_dihedral dih[2] = {{0, 1, 2, 3, 1.0, 0.3, 1, 0}, {0, 1, 2, 3, 2.5, M_PI, 2, 1}};
    sys.dihedrals = dih;
    sys.dihedral_count = 1;
    set_pos(&sys, 0, 1, 0, 0);
    set_pos(&sys, 2, 0, 0, 1);
    set_pos(&sys, 3, cos(M_PI / 3), sin(M_PI / 3), 1);
    check_close("dihedral angle",
                ref_dihedral_angle(&sys.box, &sys.positions[0], &sys.positions[3],
                                   &sys.positions[6], &sys.positions[9]),
                M_PI / 3, 1e-14, 0);
    memset(f, 0, sizeof f);
    double imp = -1;
    check_close("dihedral E", ref_dihedrals(&sys, f, &imp), 1.7335962508631506, 1e-14, 0);
    check_close("dihedral improper part", imp, 0.0, 0, 0);
    printf("  torque: dE/dphi = -sin(pi/3 - 0.3); F_i = -dE/dphi (-|b2| n1/|n1|^2) with n1 = "
           "(0,1,0)\n");
    check_vec("dihedral F_i", f, 0, -sin(M_PI / 3 - 0.3), 0);
    printf("improper (same atoms, flagged), k 2.5, n 2, phase pi: E = 2.5 (1 + cos(2pi/3 - pi)) = "
           "2.5 x 1.5 = 3.75\n");
    sys.dihedral_count = 2;
    double e2 = ref_dihedrals(&sys, NULL, &imp);
    check_close("improper part", imp, 3.75, 1e-14, 0);
    check_close("dihedral total", e2, 1.7335962508631506 + 3.75, 1e-14, 0);
    printf("trans (phi = 180 deg), n 2, phase pi, k 2.5: E = 2.5 (1 + cos(2pi - pi)) = 0\n");
    set_pos(&sys, 3, -1, 0, 1);
    sys.dihedrals = &dih[1];
    sys.dihedral_count = 1;
    check_close("trans improper E", ref_dihedrals(&sys, NULL, NULL), 0.0, 0, 1e-14);
    sys.dihedrals = NULL;
    vkmd_system_destroy(&sys);

    printf("1-4 pair: r 3, q +0.5 / -0.5, type 0-0 (sigma 3.4 A, eps 0.11 kcal/mol: A = 4 eps "
           "sigma^12, "
           "B = 4 eps sigma^6), scee 1.2, scnb 2:\n"
           "  E_lj = (A/3^12 - B/3^6)/2; E_coul = k (0.5)(-0.5) / (1.2 x 3) = -k / 14.4\n");
    testsys_alloc(&sys, 2);
    vkmd_pair14 p14 = {0, 1, 1.2, 2.0};
    sys.pairs14 = &p14;
    sys.pair14_count = 1;
    sys.atoms[0].charge = 0.5;
    sys.atoms[1].charge = -0.5;
    sys.box.periodic = 1;
    sys.box.len[0] = sys.box.len[1] = sys.box.len[2] = 20;
    set_pos(&sys, 0, 19, 5, 5); /* across the x boundary: minimum image r = 3 */
    set_pos(&sys, 1, 2, 5, 5);
    const double k = VKMD_COULOMB_K_OPENMM;
    const double a = sys.lj_a[0], b = sys.lj_b[0];
    double lj14, c14;
    memset(f, 0, sizeof f);
    ref_pairs14(&sys, k, f, &lj14, &c14);
    check_close("1-4 LJ", lj14, (a / pow(3, 12) - b / pow(3, 6)) / 2, 1e-14, 0);
    check_close("1-4 Coulomb", c14, -k / 14.4, 1e-14, 0);
    /* Force on atom 0 along +x (towards atom 1 through the boundary) is
     * -dE/dr: LJ (12A/r^13 - 6B/r^7)/2 repels (pushes 0 to -x), Coulomb attracts. */
    double fr = (12 * a / pow(3, 13) - 6 * b / pow(3, 7)) / 2 - k / 14.4 / 3;
    check_vec("1-4 F0", f, -fr, 0, 0);
    check_vec("1-4 F1", f + 3, fr, 0, 0);
    sys.pairs14 = NULL;
    vkmd_system_destroy(&sys);
    return test_finish("test_ref_bonded");
}
