/* Positional restraint sets (see restraints.h). */
#include "system/restraints.h"
#include "system/amber_mask.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static vkmd_result check_k(double k, double flat_bottom_a)
{
    if (!(k >= 0) || !isfinite(k))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "restraints: k = %g kcal/mol/A^2 must be finite and >= 0", k);
    if (!(flat_bottom_a >= 0) || !isfinite(flat_bottom_a))
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "restraints: flat-bottom radius %g A must be finite and >= 0",
                         flat_bottom_a);
    return VKMD_OK;
}

vkmd_result vkmd_restraints_build(const uint8_t *selected, int32_t atom_count,
                                  const double *ref_positions, double k, double flat_bottom_a,
                                  vkmd_restraints *out)
{
    memset(out, 0, sizeof *out);
    vkmd_result res = check_k(k, flat_bottom_a);
    if (res != VKMD_OK)
        return res;
    int32_t n = 0;
    for (int32_t a = 0; a < atom_count; ++a)
        n += selected[a] != 0;
    out->k = k;
    out->flat_bottom_a = flat_bottom_a;
    if (n == 0)
        return VKMD_OK;
    if (!ref_positions)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "restraints: no reference coordinates");
    out->atoms = malloc(sizeof *out->atoms * (size_t)n);
    out->ref = malloc(sizeof *out->ref * 3 * (size_t)n);
    if (!out->atoms || !out->ref) {
        vkmd_restraints_destroy(out);
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "restraints: %d atoms", n);
    }
    for (int32_t a = 0; a < atom_count; ++a) {
        if (!selected[a])
            continue;
        for (int d = 0; d < 3; ++d) {
            double x = ref_positions[3 * a + d];
            if (!isfinite(x)) {
                vkmd_restraints_destroy(out);
                return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                                 "restraints: reference of atom %d is not finite", a + 1);
            }
            out->ref[3 * out->count + d] = x;
        }
        out->atoms[out->count++] = a;
    }
    return VKMD_OK;
}

vkmd_result vkmd_restraints_from_mask(const vkmd_system *sys, const char *mask,
                                      const double *ref_positions, double k, double flat_bottom_a,
                                      vkmd_restraints *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *sel = malloc((size_t)(sys->atom_count > 0 ? sys->atom_count : 1));
    if (!sel)
        return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "restraints: mask '%s'", mask);
    vkmd_result res = vkmd_amber_mask_select(sys, mask, sel, NULL);
    if (res == VKMD_OK)
        res = vkmd_restraints_build(sel, sys->atom_count, ref_positions, k, flat_bottom_a, out);
    free(sel);
    return res;
}

vkmd_result vkmd_restraints_set_k(vkmd_restraints *r, double k)
{
    vkmd_result res = check_k(k, r->flat_bottom_a);
    if (res == VKMD_OK)
        r->k = k;
    return res;
}

static uint64_t fnv(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t vkmd_restraints_digest(const vkmd_restraints *r)
{
    if (!r || r->count == 0)
        return 0;
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, r->atoms, sizeof *r->atoms * (size_t)r->count);
    h = fnv(h, r->ref, sizeof *r->ref * 3 * (size_t)r->count);
    return h;
}

void vkmd_restraints_destroy(vkmd_restraints *r)
{
    free(r->atoms);
    free(r->ref);
    memset(r, 0, sizeof *r);
}
