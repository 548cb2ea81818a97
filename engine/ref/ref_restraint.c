/* Positional restraints, double precision: the oracle of the restraint kind
 * in shaders/common/bonded_terms.glsl (same form: form_restraint, ref_forms.h
 * and common/forms.glsl). */
#include "ref/ref.h"
#include "ref/ref_forms.h"

double ref_restraints(const vkmd_restraints *r, const vkmd_box *box, const double *positions,
                      double *f)
{
    double e = 0;
    if (!r)
        return 0;
    for (int32_t n = 0; n < r->count; ++n) {
        const int32_t a = r->atoms[n];
        double d[3]; /* r - r0, minimum image */
        ref_delta(box, &r->ref[3 * n], &positions[3 * a], d);
        double g;
        e += form_restraint(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], r->k, r->flat_bottom_a, &g);
        if (f)
            for (int k = 0; k < 3; ++k)
                f[3 * a + k] -= g * d[k];
    }
    return e;
}
