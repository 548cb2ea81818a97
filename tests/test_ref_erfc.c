/* The float erfc and exp(-x^2) of the GPU's Ewald real-space sum
 * (form_erfc_precise, form_exp_neg_sq: engine/ref/ref_forms.h mirrors
 * shaders/common/forms.glsl line by line, in float) against libm's double
 * erfc and exp on a dense grid of float arguments:
 *   - [0, 4] (alpha * cutoff is 2.63 at the default Ewald tolerance and 4
 *     covers tolerances down to 6e-8): max relative error <= 5e-7 (4 ulp),
 *     RMS <= 1.5e-7, mean (bias) within 3e-8;
 *   - exp(-x^2) within 2 ulp (2.4e-7) on [0, 9];
 *   - (4, 9]: absolute error < 1e-12;
 *   - form_coulomb_erfc_precise against the double form_coulomb_erfc at
 *     water distances: energy and f_over_r within 1e-6 relative;
 *   - for scale, the 5-term Abramowitz-Stegun 7.1.26 fit (form_erfc_approx
 *     in forms.glsl), whose relative error near the cutoff is ~1e-4. */
#include "ref/ref_forms.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>

typedef struct err_stats {
    double max, sum, sum2, at;
    long n;
} err_stats;

static void add(err_stats *s, double rel, double x)
{
    if (fabs(rel) > s->max) {
        s->max = fabs(rel);
        s->at = x;
    }
    s->sum += rel;
    s->sum2 += rel * rel;
    ++s->n;
}

/* Abramowitz & Stegun 7.1.26 in float, as form_erfc_approx in forms.glsl. */
static float erfc_as(float x)
{
    float t = 1.0f / (1.0f + 0.3275911f * x);
    return t *
           (0.254829592f +
            t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f)))) *
           expf(-x * x);
}

int main(void)
{
    const long steps = 4000000;
    err_stats e4 = {0}, e27 = {0}, ex = {0}, as = {0}, as27 = {0};
    double tail_abs = 0;
    for (long i = 0; i <= steps; ++i) {
        float x = (float)(9.0 * (double)i / (double)steps);
        float em;
        float v = form_erfc_precise(x, &em);
        double ref = erfc((double)x), ref_em = exp(-(double)x * (double)x);
        if (ref_em > 1e-37) /* normal floats: ldexp into subnormals loses bits */
            add(&ex, (em - ref_em) / ref_em, x);
        if (x <= 4.0f) {
            add(&e4, (v - ref) / ref, x);
            add(&as, (erfc_as(x) - ref) / ref, x);
            if (x <= 2.63f) {
                add(&e27, (v - ref) / ref, x);
                add(&as27, (erfc_as(x) - ref) / ref, x);
            }
        } else {
            tail_abs = fmax(tail_abs, fabs(v - ref));
        }
    }
    printf("form_erfc_precise on [0, 4]: max rel %.3g at x = %.4f, RMS %.3g, mean %.3g "
           "(%ld points)\n",
           e4.max, e4.at, sqrt(e4.sum2 / e4.n), e4.sum / e4.n, e4.n);
    printf("form_erfc_precise on [0, 2.63] (default alpha * cutoff): max rel %.3g, RMS %.3g, mean "
           "%.3g\n",
           e27.max, sqrt(e27.sum2 / e27.n), e27.sum / e27.n);
    printf("form_erfc_precise on (4, 9]: max abs error %.3g\n", tail_abs);
    printf("form_exp_neg_sq on [0, 9]: max rel %.3g at x = %.4f, RMS %.3g\n", ex.max, ex.at,
           sqrt(ex.sum2 / ex.n));
    printf("for scale, Abramowitz-Stegun 7.1.26 in float: max rel %.3g on [0, 2.63], %.3g on "
           "[0, 4]\n",
           as27.max, as.max);
    CHECK(e4.max <= 5e-7);
    CHECK(sqrt(e4.sum2 / e4.n) <= 1.5e-7);
    CHECK(fabs(e4.sum / e4.n) <= 3e-8);
    CHECK(e27.max <= 5e-7);
    CHECK(tail_abs < 1e-12);
    CHECK(ex.max <= 2.4e-7);

    /* The pair form at water distances, default alpha; kqq of an O-H pair. */
    const double alpha = 0.2920290, kqq = -332.0637 * 0.834 * 0.417;
    double worst_e = 0, worst_f = 0;
    for (double r = 1.5; r <= 9.0; r += 0.0137) {
        float rf = (float)r;
        double rd = rf;
        float f_gpu;
        double f_ref;
        float e_gpu = form_coulomb_erfc_precise(rf, 1.0f / rf, (float)kqq, (float)alpha, &f_gpu);
        double e_ref =
            form_coulomb_erfc(rd, 1.0 / rd, (double)(float)kqq, (double)(float)alpha, &f_ref);
        worst_e = fmax(worst_e, fabs((e_gpu - e_ref) / e_ref));
        worst_f = fmax(worst_f, fabs((f_gpu - f_ref) / f_ref));
    }
    printf("form_coulomb_erfc_precise vs double, r in [1.5, 9] A: energy max rel %.3g, f_over_r "
           "max rel %.3g\n",
           worst_e, worst_f);
    CHECK(worst_e <= 1e-6);
    CHECK(worst_f <= 1e-6);
    return test_finish("test_ref_erfc");
}
