/* Fuzzes the system and molecule specs a user types: "water:N",
 * "water:N:lattice" (io/load.c) and the built-in molecule names
 * (io/uff_load.c). A spec that parses with N <= 27 is built, so the water
 * tile and lattice builders run too; larger N are valid but slow to build
 * and add nothing the parser has not shown. */
#include "fuzz_input.h"
#include "io/load.h"
#include "io/uff_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = fuzz_input_string(data, size);
    if (!spec)
        return 0;
    int32_t n = 0;
    int lattice = 0;
    if (vkmd_water_spec_parse(spec, &n, &lattice) == VKMD_OK && n <= 27) {
        vkmd_system sys;
        if (vkmd_system_load(spec, NULL, &sys) == VKMD_OK)
            vkmd_system_destroy(&sys);
    }
    /* Molecule specs: only the built-in names; a name ending .sdf/.xyz is a
     * path, and those readers have their own harnesses. */
    if (vkmd_uff_molecule_spec(spec) && !strchr(spec, '.')) {
        vkmd_uff_molecule *records = NULL;
        int32_t count = 0;
        if (vkmd_uff_molecule_load(spec, &records, &count) == VKMD_OK)
            vkmd_uff_molecule_array_free(records, count);
    }
    free(spec);
    return 0;
}
