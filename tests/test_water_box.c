/* Built-in TIP3P water box: count, density, geometry, charge, no close
 * contacts between molecules (minimum image), whole molecules, determinism
 * for a seed, rejected sizes and the strict "water:N" spec. */
#include "io/load.h"
#include "system/water_box.h"
#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double pi = 3.14159265358979323846;

static double dist(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* Smallest minimum-image distance between atoms of different molecules (O(N^2)). */
static double min_contact(const vkmd_system *s)
{
    double best = 1e30, len = s->box.len[0];
    for (int32_t a = 0; a < s->atom_count; ++a)
        for (int32_t b = a + 1; b < s->atom_count; ++b) {
            if (a / 3 == b / 3)
                continue;
            double d2 = 0;
            for (int k = 0; k < 3; ++k) {
                double d = s->positions[3 * b + k] - s->positions[3 * a + k];
                d -= len * nearbyint(d / len);
                d2 += d * d;
            }
            best = fmin(best, d2);
        }
    return sqrt(best);
}

static void check_box(int32_t n, uint64_t seed, int verbose)
{
    vkmd_system s;
    vkmd_result r = vkmd_water_box_build(n, seed, &s);
    CHECK_OK(r);
    if (r != VKMD_OK)
        return;
    CHECK(s.atom_count == 3 * n && s.water_count == n && s.bond_count == 2 * n);
    CHECK(s.angle_count == n && s.exclusion_count == 3 * n && s.dihedral_count == 0);
    CHECK(s.pair14_count == 0 && s.lj_type_count == 2 && s.box.periodic == 1);
    const double len = s.box.len[0];
    CHECK(s.box.len[1] == len && s.box.len[2] == len);
    double mass = 0;
    for (int32_t a = 0; a < s.atom_count; ++a)
        mass += s.atoms[a].mass;
    double density = mass / (len * len * len) * 1.66053907;
    /* The box is sized with 18.01528 amu per water; the atoms sum to 18.015324. */
    if (verbose || fabs(density - 0.997) > 1e-4)
        check_close("density g/cm^3", density, 0.997, 1e-4, 0);
    double max_dr = 0, max_dtheta = 0;
    int outside = 0;
    for (int32_t w = 0; w < n; ++w) {
        const double *o = &s.positions[9 * w], *h1 = o + 3, *h2 = o + 6;
        double r1 = dist(o, h1), r2 = dist(o, h2);
        max_dr = fmax(max_dr, fmax(fabs(r1 - 0.9572), fabs(r2 - 0.9572)));
        double c = 0;
        for (int k = 0; k < 3; ++k)
            c += (h1[k] - o[k]) * (h2[k] - o[k]);
        double theta = acos(c / (r1 * r2)) * 180 / pi;
        max_dtheta = fmax(max_dtheta, fabs(theta - 104.52));
        for (int k = 0; k < 3; ++k) {
            double mid = 0.5 * (h1[k] + h2[k]);
            outside += mid < 0 || mid >= len;
        }
        CHECK(s.waters[w].o == 3 * w && s.waters[w].h1 == 3 * w + 1);
    }
    CHECK_MSG(max_dr < 1e-12, "O-H off by %g A", max_dr);
    CHECK_MSG(max_dtheta < 1e-9, "H-O-H off by %g degrees", max_dtheta);
    CHECK_MSG(outside == 0, "%d molecule centres outside [0, L)", outside);
    CHECK(fabs(vkmd_system_net_charge(&s)) < 1e-12);
    if (n <= 2000) {
        double mc = min_contact(&s);
        if (verbose)
            printf("  water:%d L = %.4f A, closest intermolecular contact %.4f A\n", n, len, mc);
        CHECK_MSG(mc >= VKMD_WATER_BOX_MIN_CONTACT_A - 1e-12, "water:%d contact %.4f A", n, mc);
    }
    vkmd_system_destroy(&s);
}

int main(void)
{
    printf("== parameters\n");
    vkmd_system s;
    CHECK_OK(vkmd_water_box_build(216, 7, &s));
    if (s.atom_count == 648) {
        CHECK(strcmp(s.atoms[0].name, "O") == 0 && strcmp(s.atoms[1].name, "H1") == 0 &&
              strcmp(s.atoms[2].name, "H2") == 0);
        CHECK(strcmp(s.atoms[0].type_name, "OW") == 0 && strcmp(s.atoms[2].type_name, "HW") == 0);
        CHECK(strcmp(s.atoms[5].res_name, "WAT") == 0 && s.atoms[5].res_index == 1);
        CHECK(s.atoms[0].charge == -0.834 && s.atoms[1].charge == 0.417);
        CHECK(s.atoms[0].mass == 15.99943 && s.atoms[1].mass == 1.007947);
        const double sig = 3.1507524065751241, eps = 0.1520;
        check_close("A(O,O)", s.lj_a[0], 4 * eps * pow(sig, 12), 1e-12, 0);
        check_close("B(O,O)", s.lj_b[0], 4 * eps * pow(sig, 6), 1e-12, 0);
        CHECK(s.lj_a[1] == 0 && s.lj_a[2] == 0 && s.lj_a[3] == 0 && s.lj_b[3] == 0);
        CHECK(s.bonds[0].k == 553.0 && s.bonds[0].r0 == 0.9572);
        CHECK(s.angles[0].j == 0 && s.angles[0].k_theta == 100.0);
        check_close("theta0", s.angles[0].theta0, 104.52 * pi / 180, 1e-15, 0);
        CHECK(vkmd_system_is_excluded(&s, 0, 1) && vkmd_system_is_excluded(&s, 1, 2) &&
              vkmd_system_is_excluded(&s, 0, 2) && !vkmd_system_is_excluded(&s, 2, 3));
        check_close("box edge (216 waters)", s.box.len[0], 18.6445, 0, 1e-3);
    }

    printf("== determinism\n");
    vkmd_system t, u;
    CHECK_OK(vkmd_water_box_build(216, 7, &t));
    CHECK_OK(vkmd_water_box_build(216, 8, &u));
    if (t.positions && s.positions && u.positions) {
        CHECK(memcmp(s.positions, t.positions, 648 * 3 * sizeof(double)) == 0);
        CHECK(memcmp(s.positions, u.positions, 648 * 3 * sizeof(double)) != 0);
    }
    vkmd_system_destroy(&s);
    vkmd_system_destroy(&t);
    vkmd_system_destroy(&u);

    printf("== sizes\n");
    static const int32_t verbose_sizes[] = {1, 2, 3, 27, 100, 216, 1000, 2000};
    for (size_t k = 0; k < sizeof verbose_sizes / sizeof *verbose_sizes; ++k)
        check_box(verbose_sizes[k], 1, 1);
    for (int32_t n = 1; n <= 300; ++n)
        check_box(n, (uint64_t)n * 31, 0);
    check_box(20000, 3, 1);

    printf("== invalid sizes and specs\n");
    CHECK(vkmd_water_box_build(0, 1, &s) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_water_box_build(-5, 1, &s) == VKMD_ERROR_INVALID_ARGUMENT);
    CHECK(vkmd_water_box_build(VKMD_WATER_BOX_MAX_WATERS + 1, 1, &s) ==
          VKMD_ERROR_INVALID_ARGUMENT);
    static const char *bad[] = {"water:",    "water:0",   "water:-3", "water:abc",
                                "water:1e3", "water:12x", "water: 5", "water:99999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
        vkmd_result r = vkmd_system_load(bad[k], NULL, &s);
        printf("  %-18s -> %s: %s\n", bad[k], vkmd_result_str(r), vkmd_last_error());
        CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(vkmd_last_error(), "water:") != NULL);
        CHECK(s.atoms == NULL);
    }
    CHECK_OK(vkmd_system_load("water:64", NULL, &s));
    CHECK(s.atom_count == 192 && s.positions != NULL);
    vkmd_system_destroy(&s);
    return test_finish("test_water_box");
}
