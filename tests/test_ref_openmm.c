/* External check of the CPU reference force field against OpenMM 7.7's
 * Reference platform on the committed AMBER systems (tests/data, written by
 * tests/oracles/openmm_reference.py): energy terms within 1e-6 relative and forces
 * within 1e-6 relative RMS, plus vkmd's default PME settings against the ones
 * OpenMM chose. */
#include "openmm_data.h"
#include "testlib.h"

int main(void)
{
    static const char *const systems[] = {"water_box", "water_nacl", "water_na_charged",
                                          "villin_vac"};
    for (size_t k = 0; k < sizeof systems / sizeof systems[0]; ++k)
        openmm_check_system(VKMD_TEST_DATA_DIR, systems[k]);
    return test_finish("test_ref_openmm");
}
