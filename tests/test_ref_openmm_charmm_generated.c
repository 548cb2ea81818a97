/* External check of the CPU reference on CHARMM force fields against OpenMM
 * 7.7: the alanine dipeptide with charmm36.xml as a chamber prmtop, in vacuum
 * (ala2_charmm: CMAP, Urey-Bradley, harmonic impropers, 1-4 LJ tables) and in
 * a 2.8 nm box of CHARMM TIP3P water with PME (ala2_charmm_solv), and an
 * AMBER prmtop (amber14-all) with ff19SB-style CMAP_* sections read by
 * OpenMM's own AmberPrmtopFile (ala2_amber_cmap: seven CMAP terms). The
 * openmm_charmm_generate fixture (tests/oracles/openmm_charmm.py) writes them
 * into VKMD_TEST_GEN_DIR at test time; every energy term within 1e-6
 * relative, forces 1e-6 RMS-relative (tests/tolerance.h). */
#include "openmm_data.h"
#include "testlib.h"

int main(void)
{
    openmm_check_system(VKMD_TEST_GEN_DIR, "ala2_charmm");
    openmm_check_system(VKMD_TEST_GEN_DIR, "ala2_charmm_solv");
    openmm_check_system(VKMD_TEST_GEN_DIR, "ala2_amber_cmap");
    return test_finish("test_ref_openmm_charmm_generated");
}
