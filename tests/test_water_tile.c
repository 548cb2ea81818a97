/* water:N from the pre-equilibrated tile (system/water_tile.h): counts,
 * density, ideal rigid geometry, whole molecules with oxygens in [0, L),
 * N = 216 being the tile itself, no oxygen pair closer than
 * VKMD_WATER_TILE_MIN_OO_A across a face (checked over every pair for
 * N <= 8000), determinism, the "water:N" spec taking this builder and
 * "water:N:lattice" the lattice one. The closest O-O across a face and
 * anywhere are printed for water:216, 1000 and 8000. */
#include "io/load.h"
#include "system/water_box.h"
#include "system/water_tile.h"
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

/* Closest O-O pair under the minimum image, overall and among pairs whose
 * minimum image crosses a face (O(N^2)). */
static void closest_oo(const vkmd_system *s, double *out_any, double *out_face)
{
    const double len = s->box.len[0];
    double any = 1e30, face = 1e30;
    for (int32_t a = 0; a < s->water_count; ++a)
        for (int32_t b = a + 1; b < s->water_count; ++b) {
            double d2 = 0;
            int crosses = 0;
            for (int k = 0; k < 3; ++k) {
                double d = s->positions[9 * b + k] - s->positions[9 * a + k];
                const double shift = nearbyint(d / len);
                crosses |= shift != 0;
                d -= len * shift;
                d2 += d * d;
            }
            any = fmin(any, d2);
            if (crosses)
                face = fmin(face, d2);
        }
    *out_any = sqrt(any);
    *out_face = sqrt(face);
}

static void check_box(int32_t n, int verbose)
{
    vkmd_system s;
    vkmd_water_tile_stats st;
    vkmd_result r = vkmd_water_tile_build(n, &s, &st);
    CHECK_OK(r);
    if (r != VKMD_OK)
        return;
    CHECK(s.atom_count == 3 * n && s.water_count == n && s.bond_count == 2 * n);
    CHECK(s.angle_count == n && s.exclusion_count == 3 * n && s.box.periodic == 1);
    const double len = s.box.len[0];
    CHECK(s.box.len[1] == len && s.box.len[2] == len);
    double mass = 0;
    for (int32_t a = 0; a < s.atom_count; ++a)
        mass += s.atoms[a].mass;
    const double density = mass / (len * len * len) * 1.66053907;
    if (verbose || fabs(density - 0.997) > 1e-4)
        check_close("density g/cm^3", density, 0.997, 1e-4, 0);
    double max_dr = 0, max_dtheta = 0;
    int outside = 0;
    for (int32_t w = 0; w < n; ++w) {
        const double *o = &s.positions[9 * w], *h1 = o + 3, *h2 = o + 6;
        const double r1 = dist(o, h1), r2 = dist(o, h2);
        max_dr = fmax(max_dr, fmax(fabs(r1 - 0.9572), fabs(r2 - 0.9572)));
        double c = 0;
        for (int k = 0; k < 3; ++k) {
            c += (h1[k] - o[k]) * (h2[k] - o[k]);
            outside += o[k] < 0 || o[k] >= len;
        }
        max_dtheta = fmax(max_dtheta, fabs(acos(c / (r1 * r2)) * 180 / pi - 104.52));
    }
    CHECK_MSG(max_dr < 1e-12, "water:%d O-H off by %g A", n, max_dr);
    CHECK_MSG(max_dtheta < 1e-9, "water:%d H-O-H off by %g degrees", n, max_dtheta);
    CHECK_MSG(outside == 0, "water:%d: %d oxygen coordinates outside [0, L)", n, outside);
    CHECK(fabs(vkmd_system_net_charge(&s)) < 1e-12);
    CHECK_MSG(st.min_face_oo_a >= VKMD_WATER_TILE_MIN_OO_A, "water:%d: %.3f A across a face", n,
              st.min_face_oo_a);
    if (n <= 8000) {
        double any, face;
        closest_oo(&s, &any, &face);
        if (verbose)
            printf("  water:%-5d L = %8.4f A: %d^3 tiles, %d kept in %.4f A, %d removed, scale "
                   "%.6f; closest O-O across a face %.3f A, anywhere %.3f A (0: none)\n",
                   n, len, st.tiles_per_edge, st.kept_before_trim, st.cut_edge_a, st.removed,
                   st.scale, face < 1e10 ? face : 0.0, any < 1e10 ? any : 0.0);
        /* Across a face: the builder's bound; within 3.5 A the two agree. */
        CHECK_MSG(n < 4 || face >= VKMD_WATER_TILE_MIN_OO_A - 1e-9,
                  "water:%d: O-O %.3f A across a face", n, face);
        CHECK_MSG(n < 4 || any >= 2.0, "water:%d: O-O %.3f A", n, any);
    }
    vkmd_system_destroy(&s);
}

int main(void)
{
    printf("== water:216 is the tile\n");
    vkmd_system s, t;
    vkmd_water_tile_stats st;
    CHECK_OK(vkmd_water_tile_build(216, &s, &st));
    CHECK(st.removed == 0 && st.scale == 1.0 && st.tiles_per_edge == 2);
    check_close("box edge (216 waters)", s.box.len[0], 18.6445, 0, 1e-3);
    CHECK(strcmp(s.atoms[0].name, "O") == 0 && strcmp(s.atoms[2].type_name, "HW") == 0);
    CHECK(s.atoms[0].charge == -0.834 && s.atoms[1].mass == 1.007947);

    printf("== determinism\n");
    CHECK_OK(vkmd_water_tile_build(216, &t, NULL));
    if (s.positions && t.positions)
        CHECK(memcmp(s.positions, t.positions, 648 * 3 * sizeof(double)) == 0);
    vkmd_system_destroy(&t);
    CHECK_OK(vkmd_system_load("water:216", NULL, &t));
    if (s.positions && t.positions)
        CHECK(memcmp(s.positions, t.positions, 648 * 3 * sizeof(double)) == 0);
    vkmd_system_destroy(&t);
    CHECK_OK(vkmd_system_load("water:216:lattice", NULL, &t));
    vkmd_system u;
    CHECK_OK(vkmd_water_box_build(216, VKMD_WATER_BOX_DEFAULT_SEED, &u));
    if (u.positions && t.positions && s.positions) {
        CHECK(memcmp(u.positions, t.positions, 648 * 3 * sizeof(double)) == 0);
        CHECK(memcmp(s.positions, t.positions, 648 * 3 * sizeof(double)) != 0);
    }
    vkmd_system_destroy(&s);
    vkmd_system_destroy(&t);
    vkmd_system_destroy(&u);

    printf("== sizes\n");
    static const int32_t verbose_sizes[] = {1, 2, 8, 64, 100, 215, 216, 217, 1000, 2000, 8000};
    for (size_t k = 0; k < sizeof verbose_sizes / sizeof *verbose_sizes; ++k)
        check_box(verbose_sizes[k], 1);
    for (int32_t n = 3; n <= 300; n += 7)
        check_box(n, 0);
    check_box(100000, 1);

    printf("== specs\n");
    static const char *bad[] = {"water::lattice", "water:0:lattice", "water:5:Lattice",
                                "water:5:lattice:lattice", "water:5lattice"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
        vkmd_result r = vkmd_system_load(bad[k], NULL, &s);
        printf("  %-24s -> %s: %s\n", bad[k], vkmd_result_str(r), vkmd_last_error());
        CHECK(r == VKMD_ERROR_INVALID_ARGUMENT);
    }
    CHECK(vkmd_water_tile_build(0, &s, NULL) == VKMD_ERROR_INVALID_ARGUMENT);
    return test_finish("test_water_tile");
}
