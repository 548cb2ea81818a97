/* Fuzzes the SDF/MOL reader (io/sdf.c): from a file and from memory. */
#include "fuzz_input.h"
#include "io/sdf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".sdf");
    if (!path)
        return 0;
    vkmd_uff_molecule *records = NULL;
    int32_t count = 0;
    if (vkmd_sdf_read(path, &records, &count) == VKMD_OK)
        vkmd_uff_molecule_array_free(records, count);
    char *text = fuzz_input_string(data, size);
    if (text) {
        records = NULL;
        count = 0;
        if (vkmd_sdf_read_string(text, "fuzz.sdf", &records, &count) == VKMD_OK)
            vkmd_uff_molecule_array_free(records, count);
        free(text);
    }
    return 0;
}
