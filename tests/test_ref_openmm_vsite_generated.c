/* External check of the reference force field with virtual sites: boxes of
 * TIP4P-Ew water (308 waters, 1232 atoms, one extra point each) and TIP5P
 * water (286 waters, 1430 atoms, two out-of-plane lone pairs each) built by
 * tests/oracles/openmm_vsite.py at test time (the openmm_vsite_generate
 * fixture), against OpenMM 7.7's Reference platform: every energy term to
 * 1e-6 relative and the forces to 1e-6 RMS-relative (openmm_data.h). The
 * extra points' rows are zero on both sides (their force is on the
 * parents). */
#include "openmm_data.h"
#include "testlib.h"

int main(void)
{
    openmm_check_system(VKMD_TEST_GEN_DIR, "tip4pew_box");
    openmm_check_system(VKMD_TEST_GEN_DIR, "tip5p_box");
    return test_finish("test_ref_openmm_vsite_generated");
}
