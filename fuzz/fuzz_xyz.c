/* Fuzzes the XYZ reader (io/xyz.c), plain and extended (Lattice=...,
 * Properties=...) comment lines alike. */
#include "fuzz_input.h"
#include "io/xyz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".xyz");
    if (!path)
        return 0;
    vkmd_uff_molecule m;
    memset(&m, 0, sizeof m);
    if (vkmd_xyz_read(path, &m) == VKMD_OK)
        vkmd_uff_molecule_destroy(&m);
    return 0;
}
