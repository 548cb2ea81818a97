/* External check of the CPU reference force field against OpenMM 7.7 on the
 * solvated villin headpiece (8867 atoms, PME) and villin in a 6 nm box with
 * 0.15 M NaCl (20,783 atoms), too large to commit: the openmm_generate
 * fixture writes them into VKMD_TEST_GEN_DIR at test time. */
#include "openmm_data.h"
#include "testlib.h"

int main(void)
{
    openmm_check_system(VKMD_TEST_GEN_DIR, "villin_solv");
    openmm_check_system(VKMD_TEST_GEN_DIR, "villin_big");
    return test_finish("test_ref_openmm_generated");
}
