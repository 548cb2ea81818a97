/* Replicas placed above a surface (see uff_surface_replicas.h). */
#include "system/uff_surface_replicas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int32_t vkmd_uff_surface_labels_of(const vkmd_uff_typing *const *types, int32_t mol_count,
                                   char (*out_labels)[VKMD_UFF_LABEL_MAX])
{
    int32_t n = 0;
    for (int32_t m = 0; m < mol_count; ++m)
        for (int32_t a = 0; a < types[m]->atom_count; ++a) {
            const char *l = types[m]->label[a];
            int32_t k = 0;
            while (k < n && strcmp(out_labels[k], l) != 0)
                ++k;
            if (k == n)
                memcpy(out_labels[n++], l, VKMD_UFF_LABEL_MAX);
        }
    return n;
}

/* Coordinates of n atoms translated so that the lowest is at h. */
static void place(const double *src, int32_t n, double h, double *dst)
{
    double zmin = INFINITY;
    for (int32_t a = 0; a < n; ++a)
        zmin = fmin(zmin, src[3 * a + 2]);
    for (int32_t a = 0; a < n; ++a) {
        dst[3 * a + 0] = src[3 * a + 0];
        dst[3 * a + 1] = src[3 * a + 1];
        dst[3 * a + 2] = src[3 * a + 2] - zmin + h;
    }
}

vkmd_result vkmd_uff_surface_replicas_place(const vkmd_uff_surface *s,
                                            const vkmd_uff_typing *const *types,
                                            const vkmd_uff_replica *reps, int32_t count,
                                            double height_a, vkmd_uff_surface_replicas *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    out->count = count;
    out->offset = malloc((size_t)(count > 0 ? count : 1) * sizeof *out->offset);
    if (!out->offset)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface: %d replicas", count));
    for (int32_t r = 0; r < count; ++r) {
        out->offset[r] = out->atom_count;
        out->atom_count += types[reps[r].molecule]->atom_count;
    }
    const size_t atoms = (size_t)(out->atom_count > 0 ? out->atom_count : 1);
    out->channel = malloc(atoms * sizeof *out->channel);
    out->xyz = malloc(3 * atoms * sizeof *out->xyz);
    if (!out->channel || !out->xyz)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface: %d atoms", out->atom_count));
    for (int32_t r = 0; r < count; ++r) {
        const vkmd_uff_typing *ty = types[reps[r].molecule];
        VKMD_TRY(vkmd_uff_surface_atom_channels(s, ty, out->channel + out->offset[r]));
        place(reps[r].positions, ty->atom_count, height_a, out->xyz + 3 * (size_t)out->offset[r]);
    }
    return VKMD_OK;
cleanup:
    vkmd_uff_surface_replicas_free(out);
    return res;
}

void vkmd_uff_surface_replicas_free(vkmd_uff_surface_replicas *p)
{
    free(p->offset);
    free(p->channel);
    free(p->xyz);
    memset(p, 0, sizeof *p);
}
