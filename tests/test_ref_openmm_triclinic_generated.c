/* External check of the CPU reference force field in triclinic boxes against
 * OpenMM 7.7's Reference platform: TIP3P water in a truncated octahedron
 * (40 A edges), alanine dipeptide solvated in the same cell and TIP3P water in
 * a rhombic dodecahedron (39 A), each a few thousand atoms, built, relaxed and
 * evaluated at test time by tests/oracles/openmm_triclinic.py (the
 * openmm_triclinic_generate fixture), which also checks OpenMM's direct space
 * against a brute-force sum. Every energy term within 1e-6 relative, forces
 * within 1e-6 RMS-relative, the box's lengths and angles, and vkmd's default
 * cutoff, alpha and PME grid (OpenMM's rule on the vectors' diagonal). */
#include "openmm_data.h"
#include "testlib.h"

int main(void)
{
    openmm_check_system(VKMD_TEST_GEN_DIR, "tri_oct_water");
    openmm_check_system(VKMD_TEST_GEN_DIR, "tri_oct_ala2");
    openmm_check_system(VKMD_TEST_GEN_DIR, "tri_dodec_water");
    return test_finish("test_ref_openmm_triclinic_generated");
}
