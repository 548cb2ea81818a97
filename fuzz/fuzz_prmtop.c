/* Fuzzes the AMBER prmtop reader (io/prmtop.c). */
#include "fuzz_input.h"
#include "io/prmtop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".prmtop");
    if (!path)
        return 0;
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    if (vkmd_prmtop_read(path, &sys) == VKMD_OK)
        vkmd_system_destroy(&sys);
    else
        vkmd_system_destroy(&sys); /* must be safe on a failed read too */
    return 0;
}
