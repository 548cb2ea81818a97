/* --surface for `vkmd uff energy` (see uff_surface_cli.h): options, the
 * surface and grid set up from them, the CPU reference or the device
 * evaluation (sim/uff_surface_eval.h), printing. */
#include "uff_surface_cli.h"
#include "io/uff_surface_io.h"
#include "io/uff_surface_setup.h"
#include "ref/ref_uff_surface.h"
#include "forces/pass_uff_surface.h"
#include "sim/uff_surface_eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_HEIGHT 3.0

void uff_surface_request_init(uff_surface_request *req)
{
    memset(req, 0, sizeof *req);
    req->mode = -1;
}

vkmd_result uff_surface_check(const uff_surface_request *req)
{
    if (!req->spec && (req->mode >= 0 || req->spacing > 0 || req->height > 0 || req->save_grid ||
                       req->load_grid || req->form))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "surface options need --surface nacl|graphene|FILE.xyz");
    if (req->save_grid && req->load_grid)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--save-grid and --load-grid exclude each other");
    if (req->mode == 0 && (req->save_grid || req->load_grid))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--save-grid/--load-grid need --surface-mode grid");
    if (req->load_grid && req->spacing > 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--grid-spacing is the loaded grid's own with --load-grid");
    return VKMD_OK;
}

void uff_surface_usage(FILE *out)
{
    fprintf(out,
            "surface (energy): the molecule above a periodic substrate (x-y), UFF LJ pairs\n"
            "  --surface nacl|graphene|FILE.xyz  NaCl(001) 2 layers, graphene, or extended XYZ\n"
            "                       with Lattice=\"...\" (a, b in the x-y plane)\n"
            "  --surface-mode direct|grid  direct pair sums (default) or the potential grid\n"
            "                       (built on the device, tricubic B-spline interpolation)\n"
            "  --surface-form lj|morse  UFF LJ 12-6 (default) or Morse with the same well\n"
            "  --grid-spacing A     grid spacing (default 0.1)\n"
            "  --save-grid F.xsf | --load-grid F.xsf  XSF DATAGRID_3D, one grid per UFF type\n"
            "  --height A           lowest atom this far above the top layer (default 3.0)\n");
}

vkmd_result uff_surface_run(const uff_surface_request *req, const uff_eval *ev,
                            const vkmd_uff_typing *const *types, const vkmd_uff_terms *const *mols,
                            int32_t mol_count, const vkmd_uff_replica *reps, int32_t count,
                            double *const *forces, double *out_energy, int32_t *out_below,
                            char *out_desc, size_t desc_size)
{
    vkmd_result res = VKMD_OK;
    const vkmd_uff_surface_setup_desc sd = {
        .spec = req->spec,
        .form = req->form,
        .grid = req->mode == 1 || (req->mode < 0 && (req->load_grid || req->save_grid)),
        .spacing_a = req->spacing,
        .load_grid = req->load_grid,
        .height_a = req->height > 0 ? req->height : DEFAULT_HEIGHT};
    vkmd_uff_surface_setup s;
    double *f = NULL;
    VKMD_TRY(vkmd_uff_surface_setup_build(&sd, types, mol_count, reps, count, &s));
    const vkmd_uff_surface_replicas *placed = &s.placed;
    f = calloc(3 * (size_t)(placed->atom_count > 0 ? placed->atom_count : 1), sizeof *f);
    if (!f)
        VKMD_TRY(vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "surface"));
    if (sd.grid && !req->load_grid) {
        if (ev->ctx) {
            VKMD_TRY(vkmd_pass_uff_surface_grid_compute(ev->ctx, &s.surf, &s.grid));
        } else {
            ref_uff_surface_grid_values(&s.surf, &s.grid);
            VKMD_TRY(vkmd_uff_surface_grid_prefilter(&s.grid));
        }
    }
    if (req->save_grid)
        VKMD_TRY(vkmd_uff_surface_grid_save(req->save_grid, &s.grid));
    if (ev->ctx) {
        VKMD_TRY(vkmd_uff_surface_evaluate(ev->ctx, &s.surf, sd.grid ? &s.grid : NULL, mols,
                                           mol_count, reps, placed, f, out_energy, out_below));
    } else {
        for (int32_t r = 0; r < count; ++r) {
            const int32_t n = types[reps[r].molecule]->atom_count;
            const size_t o = (size_t)placed->offset[r];
            const int32_t *channel = placed->channel;
            const double *xyz = placed->xyz;
            out_below[r] = 0;
            out_energy[r] =
                sd.grid ? ref_uff_surface_grid(&s.grid, channel + o, n, xyz + 3 * o, f + 3 * o,
                                               &out_below[r])
                        : ref_uff_surface_direct(&s.surf, channel + o, n, xyz + 3 * o, f + 3 * o);
        }
    }
    for (int32_t r = 0; r < count; ++r)
        if (forces && forces[r])
            for (int32_t i = 0; i < 3 * types[reps[r].molecule]->atom_count; ++i)
                forces[r][i] += f[3 * (size_t)placed->offset[r] + i];
    vkmd_uff_surface_setup_describe(&s, &sd, out_desc, desc_size);
cleanup:
    free(f);
    vkmd_uff_surface_setup_free(&s);
    return res;
}

void uff_surface_print(const uff_surface_request *req, const char *desc, const double *energy,
                       const int32_t *below, const vkmd_uff_energy *totals, int32_t count, int json)
{
    (void)req;
    if (json) {
        printf(",\n  \"surface\": {\n    \"description\": \"");
        for (const char *c = desc; *c; ++c)
            printf((*c == '"' || *c == '\\') ? "\\%c" : "%c", *c);
        printf("\",\n    \"energies_kcal_per_mol\": [");
        for (int32_t r = 0; r < count; ++r)
            printf("%s%.10g", r ? ", " : "", energy[r]);
        printf("],\n    \"totals_with_surface_kcal_per_mol\": [");
        for (int32_t r = 0; r < count; ++r)
            printf("%s%.10g", r ? ", " : "", totals[r].total + energy[r]);
        printf("],\n    \"atoms_below_grid\": [");
        for (int32_t r = 0; r < count; ++r)
            printf("%s%d", r ? ", " : "", below[r]);
        printf("]\n  }");
        return;
    }
    printf("surface: %s\n(forces above include the surface force)\n", desc);
    for (int32_t r = 0; r < count; ++r) {
        printf("  replica %d: E_surface %14.6f kcal/mol, UFF + surface %14.6f kcal/mol", r + 1,
               energy[r], totals[r].total + energy[r]);
        if (below[r] > 0)
            printf("  (%d atom(s) below the grid: evaluated at its lowest plane)", below[r]);
        printf("\n");
    }
}
