/* The whole force field on the device against the CPU reference in the
 * triclinic systems built at test time by tests/oracles/openmm_triclinic.py
 * (the openmm_triclinic_generate fixture; test_ref_openmm_triclinic_generated
 * checks the reference against OpenMM on them): TIP3P water in a truncated
 * octahedron, alanine dipeptide solvated in one, TIP3P water in a rhombic
 * dodecahedron. They are minimised, where the forces nearly cancel (RMS 0.2
 * kcal/mol/A) and a relative force error measures fp32 cancellation: every
 * atom is displaced by up to 0.03 A first, as in a frame of a run (as
 * test_gpu_forcefield does for water boxes). Body and criteria (1e-5) in
 * test_gpu_forcefield_common.h.
 *
 * Then the two octahedra again with every coordinate 1,000 A out (issue 36:
 * the split positions lost their accuracy in triclinic cells), in the
 * default mode's split-float positions and in split-int, which must meet
 * the same criteria, and in fp32, which must miss them there
 * (ff_compare_far). */
#include "test_gpu_forcefield_common.h"
#include "triclinic_water.h"
#include "io/load.h"

static void run(vkmd_vk_context *ctx, const char *name, int far)
{
    char prmtop[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_GEN_DIR, name);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, NULL, &sys));
    if (sys.positions) {
        CHECK(sys.box.triclinic);
        printf("%s: angles %.4f %.4f %.4f degrees, smallest width %.3f A\n", name,
               sys.box.angle_deg[0], sys.box.angle_deg[1], sys.box.angle_deg[2],
               vkmd_box_min_width(&sys.box));
        triclinic_jiggle(&sys, 0x9E3779B97F4A7C15ull);
        ff_compare(ctx, name, &sys, 0);
        if (far)
            for (int mode = 0; mode < 3; ++mode)
                ff_compare_far(ctx, name, &sys, NULL, mode, 1000.0);
    }
    vkmd_system_destroy(&sys);
}

int main(void)
{
    vkmd_vk_context *ctx = NULL;
    int early = test_vk_open("test_gpu_triclinic_generated", &ctx);
    if (early >= 0)
        return early;
    run(ctx, "tri_oct_water", 1);
    run(ctx, "tri_oct_ala2", 1);
    run(ctx, "tri_dodec_water", 0);
    printf("validation errors: %u\n", vkmd_vk_context_validation_errors(ctx));
    CHECK_OK(vkmd_vk_context_check_validation(ctx));
    vkmd_vk_context_destroy(ctx);
    return test_finish("test_gpu_triclinic_generated");
}
