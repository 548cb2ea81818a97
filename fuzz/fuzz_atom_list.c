/* Fuzzes the atom-list reader of --restrain-file (io/atom_list.c): one
 * 1-based index or a-b range a line, for a 1000-atom system. */
#include "fuzz_input.h"
#include "io/atom_list.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".txt");
    if (!path)
        return 0;
    uint8_t selected[1000];
    int32_t count = 0;
    (void)vkmd_atom_list_read(path, 1000, selected, &count);
    return 0;
}
