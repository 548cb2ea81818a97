/* Fuzzes the AMBER inpcrd/rst7 reader (io/coords.c). The system it reads
 * into has the atom count the file's second line states (bounded), so the
 * reader gets past its count check and parses the numbers. */
#include "fuzz_input.h"
#include "io/coords.h"

static int32_t stated_count(const uint8_t *data, size_t size)
{
    size_t i = 0;
    while (i < size && data[i] != '\n')
        ++i;
    long n = 0;
    for (++i; i < size && data[i] == ' '; ++i)
        ;
    for (; i < size && data[i] >= '0' && data[i] <= '9' && n < 100000; ++i)
        n = 10 * n + (data[i] - '0');
    return n >= 1 && n <= 20000 ? (int32_t)n : 3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".rst7");
    if (!path)
        return 0;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    sys.atom_count = stated_count(data, size);
    (void)vkmd_coords_read_amber(path, &sys);
    free(sys.positions);
    free(sys.velocities);
    return 0;
}
