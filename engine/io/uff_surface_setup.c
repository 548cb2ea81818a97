/* The host side of a molecules-on-a-surface evaluation (see
 * uff_surface_setup.h). */
#include "io/uff_surface_setup.h"
#include "io/uff_surface_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vkmd_result vkmd_uff_surface_setup_build(const vkmd_uff_surface_setup_desc *desc,
                                         const vkmd_uff_typing *const *types, int32_t mol_count,
                                         const vkmd_uff_replica *reps, int32_t count,
                                         vkmd_uff_surface_setup *out)
{
    memset(out, 0, sizeof *out);
    vkmd_result res = VKMD_OK;
    char(*labels)[VKMD_UFF_LABEL_MAX] = NULL;
    VKMD_TRY(vkmd_uff_params_load_default(&out->params));
    VKMD_TRY(vkmd_uff_substrate_load(desc->spec, &out->params, &out->sub));
    int32_t label_count = 0, max_labels = 0;
    for (int32_t m = 0; m < mol_count; ++m)
        max_labels += types[m]->atom_count;
    labels = calloc((size_t)max_labels, sizeof *labels);
    if (!labels)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface"));
    /* a loaded grid fixes the channels: the surface is built for its labels */
    if (desc->load_grid) {
        VKMD_TRY(vkmd_uff_surface_grid_load(desc->load_grid, &out->grid));
        label_count = out->grid.channel_count;
        memcpy(labels, out->grid.channel_label, (size_t)label_count * sizeof *labels);
    } else {
        label_count = vkmd_uff_surface_labels_of(types, mol_count, labels);
    }
    const vkmd_uff_surface_desc sd = {.form = desc->form};
    VKMD_TRY(vkmd_uff_surface_build(&out->sub, &out->params,
                                    (const char(*)[VKMD_UFF_LABEL_MAX])labels, label_count, &sd,
                                    &out->surf));
    VKMD_TRY(vkmd_uff_surface_replicas_place(&out->surf, types, reps, count, desc->height_a,
                                             &out->placed));
    if (desc->grid && desc->load_grid) {
        VKMD_TRY(vkmd_uff_surface_grid_check(&out->surf, &out->grid));
    } else if (desc->grid) {
        const vkmd_uff_surface_grid_desc gd = {.spacing_a = desc->spacing_a};
        VKMD_TRY(vkmd_uff_surface_grid_alloc(&out->surf, &gd, &out->grid));
    }
cleanup:
    free(labels);
    return res;
}

void vkmd_uff_surface_setup_describe(const vkmd_uff_surface_setup *s,
                                     const vkmd_uff_surface_setup_desc *desc, char *out,
                                     size_t size)
{
    const char *form =
        desc->form == VKMD_UFF_SURFACE_FORM_MORSE ? "Morse (UFF well)" : "UFF LJ 12-6";
    const vkmd_uff_surface_grid *g = &s->grid;
    if (desc->grid)
        snprintf(out, size,
                 "%s, grid %d x %d x %d (spacing %.4f A in z, z %.2f .. %.2f A), %s, cutoff %.1f "
                 "A, lowest atom %.3f A above the top layer",
                 s->sub.name, g->nx, g->ny, g->nz, g->dz, g->z0, g->z0 + (g->nz - 1) * g->dz, form,
                 s->surf.cutoff_a, desc->height_a);
    else
        snprintf(out, size, "%s, direct, %s, cutoff %.1f A, lowest atom %.3f A above the top layer",
                 s->sub.name, form, s->surf.cutoff_a, desc->height_a);
}

void vkmd_uff_surface_setup_free(vkmd_uff_surface_setup *s)
{
    vkmd_uff_surface_replicas_free(&s->placed);
    vkmd_uff_surface_grid_free(&s->grid);
    vkmd_uff_surface_free(&s->surf);
    vkmd_uff_substrate_free(&s->sub);
    vkmd_uff_params_destroy(&s->params);
    memset(s, 0, sizeof *s);
}
