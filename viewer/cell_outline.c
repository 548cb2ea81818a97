/* Outlines of triclinic cells for the viewer (cell_outline.h). The
 * Wigner-Seitz cell is the intersection of the half-spaces n . x <= |n|^2 / 2
 * over the lattice vectors n = i a + j b + k c, i, j, k in {-1, 0, 1}
 * (enough for a reduced cell): its vertices are the points where three of
 * the planes meet inside every half-space, its edges join the vertices that
 * share two planes. */
#include "cell_outline.h"

#include <math.h>
#include <string.h>

#define PLANES    26
#define MAX_VERTS 64

static int near_angle(double a, double b)
{
    return fabs(a - b) < 0.01;
}

int vkmd_cell_outline_is_wigner_seitz(const vkmd_box *box)
{
    if (!box->periodic || !box->triclinic)
        return 0;
    const double oct = 109.4712206344907;
    int octa = 1, sixty = 0, right = 0;
    for (int i = 0; i < 3; ++i) {
        const double a = box->angle_deg[i];
        octa = octa && (near_angle(a, oct) || near_angle(a, 180.0 - oct));
        sixty += near_angle(a, 60.0) || near_angle(a, 120.0);
        right += near_angle(a, 90.0);
    }
    return octa || (sixty == 2 && right == 1);
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Solves the 3x3 system rows n[i] . x = d[i]; 0 when singular. */
static int solve3(const double n[3][3], const double d[3], double x[3])
{
    const double det = n[0][0] * (n[1][1] * n[2][2] - n[1][2] * n[2][1]) -
                       n[0][1] * (n[1][0] * n[2][2] - n[1][2] * n[2][0]) +
                       n[0][2] * (n[1][0] * n[2][1] - n[1][1] * n[2][0]);
    const double scale = dot3(n[0], n[0]) * sqrt(dot3(n[1], n[1]) * dot3(n[2], n[2]));
    if (!(fabs(det) > 1e-9 * scale))
        return 0;
    for (int c = 0; c < 3; ++c) {
        double m[3][3];
        memcpy(m, n, sizeof m);
        for (int r = 0; r < 3; ++r)
            m[r][c] = d[r];
        x[c] = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])) /
               det;
    }
    return 1;
}

static int wigner_seitz(const vkmd_box *box, float *out)
{
    double n[PLANES][3], h[PLANES];
    int np = 0;
    for (int i = -1; i <= 1; ++i)
        for (int j = -1; j <= 1; ++j)
            for (int k = -1; k <= 1; ++k) {
                if (!i && !j && !k)
                    continue;
                for (int c = 0; c < 3; ++c)
                    n[np][c] = i * box->vec[0][c] + j * box->vec[1][c] + k * box->vec[2][c];
                h[np] = 0.5 * dot3(n[np], n[np]);
                ++np;
            }
    const double tol = 1e-7 * box->vec[0][0] * box->vec[0][0];
    double vert[MAX_VERTS][3];
    unsigned on[MAX_VERTS]; /* bit p: on plane p (26 planes fit 32 bits) */
    int nv = 0;
    for (int p = 0; p < np; ++p)
        for (int q = p + 1; q < np; ++q)
            for (int s = q + 1; s < np; ++s) {
                const double m[3][3] = {{n[p][0], n[p][1], n[p][2]},
                                        {n[q][0], n[q][1], n[q][2]},
                                        {n[s][0], n[s][1], n[s][2]}};
                const double d[3] = {h[p], h[q], h[s]};
                double x[3];
                if (!solve3(m, d, x))
                    continue;
                unsigned bits = 0;
                int inside = 1;
                for (int t = 0; t < np && inside; ++t) {
                    const double e = dot3(n[t], x) - h[t];
                    inside = e <= tol;
                    if (fabs(e) <= tol)
                        bits |= 1u << t;
                }
                if (!inside)
                    continue;
                int known = 0;
                for (int v = 0; v < nv && !known; ++v) {
                    const double dx[3] = {x[0] - vert[v][0], x[1] - vert[v][1], x[2] - vert[v][2]};
                    known = dot3(dx, dx) <= tol;
                }
                if (!known && nv < MAX_VERTS) {
                    memcpy(vert[nv], x, sizeof x);
                    on[nv++] = bits;
                }
            }
    int edges = 0;
    for (int a = 0; a < nv; ++a)
        for (int b = a + 1; b < nv && edges < VKMD_CELL_OUTLINE_MAX_EDGES; ++b) {
            const unsigned common = on[a] & on[b];
            if (!(common & (common - 1))) /* fewer than two shared planes */
                continue;
            for (int c = 0; c < 3; ++c) {
                out[6 * edges + c] = (float)vert[a][c];
                out[6 * edges + 3 + c] = (float)vert[b][c];
            }
            ++edges;
        }
    return edges;
}

static int parallelepiped(const vkmd_box *box, float *out)
{
    const double(*v)[3] = box->vec;
    int edges = 0;
    for (int axis = 0; axis < 3; ++axis)
        for (int corner = 0; corner < 4; ++corner) {
            const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
            double f[3] = {0, 0, 0};
            f[a1] = corner & 1;
            f[a2] = corner >> 1;
            for (int end = 0; end < 2; ++end) {
                f[axis] = end;
                for (int c = 0; c < 3; ++c)
                    out[6 * edges + 3 * end + c] =
                        (float)((f[0] - 0.5) * v[0][c] + (f[1] - 0.5) * v[1][c] +
                                (f[2] - 0.5) * v[2][c]);
            }
            ++edges;
        }
    return edges;
}

int vkmd_cell_outline(const vkmd_box *box, float *out_xyz, int *out_wigner_seitz)
{
    *out_wigner_seitz = 0;
    if (!box->periodic)
        return 0;
    if (vkmd_cell_outline_is_wigner_seitz(box)) {
        const int e = wigner_seitz(box, out_xyz);
        if (e > 0) {
            *out_wigner_seitz = 1;
            return e;
        }
    }
    return parallelepiped(box, out_xyz);
}
