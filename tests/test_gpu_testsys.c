/* The reference tests' own systems (tests/ref_testsys.h: random 4-atom
 * chains with bonds, angles, proper and improper torsions, a 1-4 pair and
 * six exclusions each, molecules straddling the periodic boundary) through
 * the whole device force field, against the double reference, with the
 * settings those tests use (tests/test_gpu_forcefield_common.h: every
 * energy term, the total and the forces within tests/tolerance.h's fp32
 * limits; a repeated evaluation bitwise identical):
 *   - 12 chains (48 atoms) in a 15 A box, cutoff 7 A, alpha 0.4 /A, PME
 *     grid 16, order 5 (test_ref_fd, test_ref_forcefield, test_ref_pme);
 *   - 150 chains (600 atoms) in a 28 A box, cutoff 9 A, alpha 0.35 /A,
 *     grid 32, order 5 (test_ref_nonbonded's cell-list case).
 * The hand-derived values themselves stay in the test_ref_* tests: the
 * device is held to the reference that they pin. */
#include "test_gpu_forcefield_common.h"
#include "ref_testsys.h"

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_testsys", &ctx);
    if (early >= 0)
        return early;
    vkmd_system sys;

    testsys_random(&sys, 12, 15.0, 7.0);
    vkmd_ff_settings s = testsys_settings(7.0, 0.4, 16, 5);
    ff_compare_settings(ctx, "12 random chains, 15 A box", &sys, 0, &s);
    vkmd_system_destroy(&sys);

    testsys_random(&sys, 150, 28.0, 0.0); /* as test_ref_nonbonded: no cutoff margin */
    s = testsys_settings(9.0, 0.35, 32, 5);
    ff_compare_settings(ctx, "150 random chains, 28 A box", &sys, 0, &s);
    vkmd_system_destroy(&sys);

    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_testsys");
}
