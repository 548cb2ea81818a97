/* Fuzzes the checkpoint reader (io/checkpoint.c) and its settings lookup. */
#include "fuzz_input.h"
#include "io/checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".chk");
    if (!path)
        return 0;
    vkmd_checkpoint c;
    memset(&c, 0, sizeof c);
    if (vkmd_checkpoint_read(path, &c) == VKMD_OK) {
        char value[64];
        (void)vkmd_checkpoint_setting(&c, "integrator", value, sizeof value);
        (void)vkmd_checkpoint_setting(&c, "dt_fs", value, sizeof value);
        vkmd_checkpoint_free(&c);
    }
    return 0;
}
