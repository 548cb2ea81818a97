/* The periodic box (engine/system/box.h) against brute force:
 *   - a truncated octahedron (IFBOX = 2, all angles 109.4712206 degrees) and a
 *     rhombic dodecahedron (60, 60, 90 as OpenMM writes it, and 90, 60, 60
 *     from a file with another axis order) built from lengths and angles have
 *     the textbook volumes (0.7698 a^3 and 0.7071 a^3) and reduced vectors;
 *   - the reciprocal vectors invert the box (a_i . r_j = delta_ij, 1e-14);
 *   - vkmd_box_min_image equals the shortest of the 7^3 images of random
 *     separations (up to 3 box lengths away) to 1e-12 A, in every box;
 *   - vkmd_box_wrap_shift moves points into the brick [0, ax) x [0, by) x
 *     [0, cz) by lattice vectors only;
 *   - a rectangular box given as lengths and 90-degree angles keeps
 *     triclinic = 0 and the old floor(x + 0.5) minimum image bit for bit;
 *   - impossible cells (angles summing past 360, a zero edge) fail with a
 *     message naming the source. */
#include "system/box.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / (double)0x1000000;
}

static double brute(const vkmd_box *b, const double d_in[3], double out[3])
{
    /* Bring d near the origin with whole lattice vectors first, so +-3 images
     * around it cover the nearest. */
    double d[3] = {d_in[0], d_in[1], d_in[2]};
    for (int k = 2; k >= 0; --k) {
        const double s = round(d[k] / b->vec[k][k]);
        for (int e = 0; e < 3; ++e)
            d[e] -= s * b->vec[k][e];
    }
    double best = INFINITY;
    for (int i = -3; i <= 3; ++i)
        for (int j = -3; j <= 3; ++j)
            for (int k = -3; k <= 3; ++k) {
                double t[3];
                for (int e = 0; e < 3; ++e)
                    t[e] = d[e] + i * b->vec[0][e] + j * b->vec[1][e] + k * b->vec[2][e];
                double r2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
                if (r2 < best) {
                    best = r2;
                    memcpy(out, t, sizeof t);
                }
            }
    return sqrt(best);
}

static void check_box(const char *name, const vkmd_box *b, double volume_expect)
{
    const double(*v)[3] = b->vec;
    CHECK_MSG(fabs(vkmd_box_volume_a3(b) - volume_expect) <= 1e-9 * volume_expect,
              "%s: volume %.9f, expected %.9f", name, vkmd_box_volume_a3(b), volume_expect);
    CHECK(v[0][1] == 0 && v[0][2] == 0 && v[1][2] == 0);
    CHECK(fabs(v[1][0]) <= 0.5 * v[0][0] + 1e-12 && fabs(v[2][0]) <= 0.5 * v[0][0] + 1e-12 &&
          fabs(v[2][1]) <= 0.5 * v[1][1] + 1e-12);
    double r[3][3];
    vkmd_box_reciprocal(b, r);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double dot = v[i][0] * r[j][0] + v[i][1] * r[j][1] + v[i][2] * r[j][2];
            CHECK_MSG(fabs(dot - (i == j)) <= 1e-14, "%s: a_%d . r_%d = %g", name, i, j, dot);
        }
    unsigned seed = 12345;
    double worst = 0;
    const double span = 3.0 * b->len[0];
    for (int t = 0; t < 20000; ++t) {
        double d[3], m[3], expect[3];
        for (int e = 0; e < 3; ++e)
            d[e] = m[e] = (2.0 * urand(&seed) - 1.0) * span;
        const double rb = brute(b, d, expect);
        vkmd_box_min_image(b, m);
        const double rm = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        worst = fmax(worst, fabs(rm - rb));
        /* m must differ from d by a lattice vector. */
        double f[3];
        for (int j = 0; j < 3; ++j) {
            f[j] = (m[0] - d[0]) * r[j][0] + (m[1] - d[1]) * r[j][1] + (m[2] - d[2]) * r[j][2];
            CHECK(fabs(f[j] - round(f[j])) <= 1e-9);
        }
        double x[3], s[3];
        for (int e = 0; e < 3; ++e)
            x[e] = d[e];
        vkmd_box_wrap_shift(b, x, s);
        for (int j = 0; j < 3; ++j) {
            const double w = x[j] + s[j];
            const double fs = s[0] * r[j][0] + s[1] * r[j][1] + s[2] * r[j][2];
            CHECK(w >= -1e-9 && w < v[j][j] + 1e-9);
            CHECK(fabs(fs - round(fs)) <= 1e-9);
        }
    }
    CHECK_MSG(worst <= 1e-12, "%s: min image off by %g A", name, worst);
    printf("%s: volume %.4f A^3, min width %.4f A, min image worst %.2e A\n", name,
           vkmd_box_volume_a3(b), vkmd_box_min_width(b), worst);
}

#define OCT (acos(-1.0 / 3.0) * 180.0 / M_PI) /* 109.4712206... degrees */

int main(void)
{
    const double a = 40.0;
    vkmd_box oct, dod, dod2, rect, tri;
    const double la[3] = {a, a, a};
    CHECK_OK(vkmd_box_set(&oct, la, (const double[3]){OCT, OCT, OCT}, "octahedron"));
    CHECK(oct.triclinic == 1);
    check_box("truncated octahedron", &oct, 4.0 / 9.0 * sqrt(3.0) * a * a * a);
    CHECK(fabs(vkmd_box_min_width(&oct) - sqrt(2.0 / 3.0) * a) <= 1e-6);
    CHECK_OK(vkmd_box_set(&dod, la, (const double[3]){60, 60, 90}, "dodecahedron"));
    check_box("rhombic dodecahedron", &dod, sqrt(0.5) * a * a * a);
    CHECK_OK(vkmd_box_set(&dod2, la, (const double[3]){90, 60, 60}, "dodecahedron 2"));
    check_box("rhombic dodecahedron (90 60 60)", &dod2, sqrt(0.5) * a * a * a);
    CHECK_OK(vkmd_box_set(&tri, (const double[3]){31, 37, 43}, (const double[3]){75, 101, 83},
                          "general"));
    {
        const double ca = cos(75 * M_PI / 180), cb = cos(101 * M_PI / 180),
                     cg = cos(83 * M_PI / 180);
        const double vol =
            31.0 * 37 * 43 * sqrt(1 - ca * ca - cb * cb - cg * cg + 2 * ca * cb * cg);
        check_box("general triclinic", &tri, vol);
    }
    CHECK_OK(
        vkmd_box_set(&rect, (const double[3]){30, 31, 32}, (const double[3]){90, 90, 90}, "rect"));
    CHECK(rect.triclinic == 0 && rect.vec[0][0] == 30 && rect.vec[1][1] == 31 &&
          rect.vec[2][2] == 32 && rect.vec[1][0] == 0);
    check_box("rectangular", &rect, 30.0 * 31 * 32);
    {
        unsigned seed = 7;
        int same = 1;
        for (int t = 0; t < 1000; ++t) {
            double d[3], m[3];
            for (int e = 0; e < 3; ++e)
                d[e] = m[e] = (2.0 * urand(&seed) - 1.0) * 100.0;
            vkmd_box_min_image(&rect, m);
            for (int e = 0; e < 3; ++e)
                same &= m[e] == d[e] - rect.len[e] * floor(d[e] / rect.len[e] + 0.5);
        }
        CHECK(same);
    }
    {
        vkmd_box s = oct;
        vkmd_box_scale(&s, 1.01);
        CHECK(fabs(vkmd_box_volume_a3(&s) / vkmd_box_volume_a3(&oct) - 1.01 * 1.01 * 1.01) <=
              1e-12);
        CHECK(s.angle_deg[0] == oct.angle_deg[0]);
        vkmd_box fromv;
        CHECK_OK(vkmd_box_set_vectors(&fromv, (const double(*)[3])oct.vec, "vectors"));
        CHECK(fabs(vkmd_box_volume_a3(&fromv) - vkmd_box_volume_a3(&oct)) <= 1e-9);
    }
    vkmd_box bad;
    CHECK(vkmd_box_set(&bad, la, (const double[3]){150, 150, 100}, "bad.rst7") == VKMD_ERROR_PARSE);
    CHECK(strstr(vkmd_last_error(), "bad.rst7") != NULL);
    CHECK(vkmd_box_set(&bad, (const double[3]){0, 1, 1}, (const double[3]){90, 90, 90},
                       "zero.rst7") == VKMD_ERROR_PARSE);
    return test_finish("test_system_box");
}
