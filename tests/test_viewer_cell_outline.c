/* The viewer's outlines of triclinic cells (viewer/cell_outline.h), host
 * maths only: the truncated octahedron's Wigner-Seitz cell has 36 edges of
 * one length and 24 vertices of degree 3 at one distance from the centre;
 * the rhombic dodecahedron's has 24 edges and 14 vertices (8 of degree 3, 6
 * of degree 4); every vertex of either is as near the centre as its nearest
 * lattice image of the centre (it lies on the cell's boundary); a general
 * cell gets the 12 edges of its parallelepiped; a rectangular box is not a
 * Wigner-Seitz shape. */
#include "testlib.h"
#include "cell_outline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define OCT_DEG 109.4712206344907

/* Distinct vertices of the outline, and how many edges meet at each. */
static int vertices(const float *xyz, int edges, float (*out)[3], int *degree)
{
    int n = 0;
    for (int e = 0; e < 2 * edges; ++e) {
        const float *p = &xyz[3 * e];
        int k = 0;
        while (k < n && (fabsf(out[k][0] - p[0]) + fabsf(out[k][1] - p[1]) +
                         fabsf(out[k][2] - p[2])) > 1e-3f)
            ++k;
        if (k == n) {
            memcpy(out[n], p, sizeof out[n]);
            degree[n++] = 0;
        }
        degree[k]++;
    }
    return n;
}

/* Largest amount by which a vertex is farther from the centre than from a
 * lattice image of the centre (<= 0 inside the Wigner-Seitz cell, 0 on it). */
static double outside(const vkmd_box *b, const float (*v)[3], int n)
{
    double worst = -INFINITY;
    for (int k = 0; k < n; ++k) {
        const double r0 = v[k][0] * v[k][0] + v[k][1] * v[k][1] + v[k][2] * v[k][2];
        double nearest = INFINITY;
        for (int i = -1; i <= 1; ++i)
            for (int j = -1; j <= 1; ++j)
                for (int l = -1; l <= 1; ++l) {
                    if (!i && !j && !l)
                        continue;
                    double d2 = 0;
                    for (int c = 0; c < 3; ++c) {
                        const double t =
                            v[k][c] - (i * b->vec[0][c] + j * b->vec[1][c] + l * b->vec[2][c]);
                        d2 += t * t;
                    }
                    nearest = fmin(nearest, d2);
                }
        worst = fmax(worst, sqrt(r0) - sqrt(nearest));
    }
    return worst;
}

static void check_shape(const char *name, const double len[3], const double ang[3], int want_ws,
                        int want_edges, int want_vertices, int want_degree)
{
    vkmd_box b;
    CHECK_OK(vkmd_box_set(&b, len, ang, name));
    float xyz[6 * VKMD_CELL_OUTLINE_MAX_EDGES], v[2 * VKMD_CELL_OUTLINE_MAX_EDGES][3];
    int deg[2 * VKMD_CELL_OUTLINE_MAX_EDGES], ws = -1;
    const int edges = vkmd_cell_outline(&b, xyz, &ws);
    const int nv = vertices(xyz, edges, v, deg);
    int dmin = 99, dmax = 0;
    double rmin = INFINITY, rmax = 0, emin = INFINITY, emax = 0;
    for (int k = 0; k < nv; ++k) {
        dmin = deg[k] < dmin ? deg[k] : dmin;
        dmax = deg[k] > dmax ? deg[k] : dmax;
        const double r = sqrt(v[k][0] * v[k][0] + v[k][1] * v[k][1] + v[k][2] * v[k][2]);
        rmin = fmin(rmin, r);
        rmax = fmax(rmax, r);
    }
    for (int e = 0; e < edges; ++e) {
        double l2 = 0;
        for (int c = 0; c < 3; ++c)
            l2 += (xyz[6 * e + 3 + c] - xyz[6 * e + c]) * (xyz[6 * e + 3 + c] - xyz[6 * e + c]);
        emin = fmin(emin, sqrt(l2));
        emax = fmax(emax, sqrt(l2));
    }
    const double out = ws ? outside(&b, (const float(*)[3])v, nv) : 0;
    printf("%s: %s, %d edges (want %d), %d vertices (want %d) of degree %d..%d (want %d), "
           "vertex radius %.4f..%.4f A, edge length %.4f..%.4f A, farthest vertex beyond an image "
           "%.2e A\n",
           name, ws ? "Wigner-Seitz cell" : "parallelepiped", edges, want_edges, nv, want_vertices,
           dmin, dmax, want_degree, rmin, rmax, emin, emax, out);
    CHECK(ws == want_ws);
    CHECK(edges == want_edges && nv == want_vertices);
    CHECK(dmin == want_degree && dmax == want_degree);
    CHECK(fabs(out) < 1e-4);
    if (ws) /* the truncated octahedron: all vertices alike, all edges alike */
        CHECK(rmax - rmin < 1e-3 && emax - emin < 1e-3);
}

int main(void)
{
    /* truncated octahedron: 14 faces, 36 edges, 24 vertices of degree 3,
     * all at one radius, all edges equal */
    check_shape("truncated octahedron", (double[]){40, 40, 40},
                (double[]){OCT_DEG, OCT_DEG, OCT_DEG}, 1, 36, 24, 3);
    /* rhombic dodecahedron: 12 faces, 24 edges, 14 vertices (8 of degree
     * 3, 6 of degree 4): degrees checked through the range below */
    {
        vkmd_box b;
        CHECK_OK(vkmd_box_set(&b, (double[]){39, 39, 39}, (double[]){60, 60, 90}, "dodec"));
        float xyz[6 * VKMD_CELL_OUTLINE_MAX_EDGES], v[2 * VKMD_CELL_OUTLINE_MAX_EDGES][3];
        int deg[2 * VKMD_CELL_OUTLINE_MAX_EDGES], ws = -1;
        const int edges = vkmd_cell_outline(&b, xyz, &ws);
        const int nv = vertices(xyz, edges, v, deg);
        int three = 0, four = 0;
        for (int k = 0; k < nv; ++k) {
            three += deg[k] == 3;
            four += deg[k] == 4;
        }
        const double out = outside(&b, (const float(*)[3])v, nv);
        printf("rhombic dodecahedron: %s, %d edges (want 24), %d vertices (want 14): %d of "
               "degree 3 (want 8), %d of degree 4 (want 6); farthest vertex beyond an image "
               "%.2e A\n",
               ws ? "Wigner-Seitz cell" : "parallelepiped", edges, nv, three, four, out);
        CHECK(ws == 1 && edges == 24 && nv == 14 && three == 8 && four == 6);
        CHECK(fabs(out) < 1e-4);
    }
    /* a general cell: the parallelepiped */
    check_shape("general cell", (double[]){21, 23, 25}, (double[]){78, 97, 104}, 0, 12, 8, 3);
    vkmd_box rect;
    vkmd_box_set_rect(&rect, (double[]){30, 30, 30});
    CHECK(!vkmd_cell_outline_is_wigner_seitz(&rect));
    return test_finish("test_viewer_cell_outline");
}
