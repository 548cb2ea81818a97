/* Fuzzes the PDB coordinate reader (io/pdb.c). The system it reads into has
 * as many atoms as the input has ATOM/HETATM lines (bounded), so the reader
 * gets past its count check. */
#include "fuzz_input.h"
#include "io/pdb.h"

static int32_t record_count(const uint8_t *data, size_t size)
{
    int32_t n = 0;
    for (size_t i = 0; i < size && n < 20000; ++i) {
        if (i > 0 && data[i - 1] != '\n')
            continue;
        if ((size - i >= 4 && !memcmp(data + i, "ATOM", 4)) ||
            (size - i >= 6 && !memcmp(data + i, "HETATM", 6)))
            ++n;
    }
    return n > 0 ? n : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".pdb");
    if (!path)
        return 0;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    sys.atom_count = record_count(data, size);
    (void)vkmd_pdb_read_coords(path, &sys);
    free(sys.positions);
    free(sys.velocities);
    return 0;
}
