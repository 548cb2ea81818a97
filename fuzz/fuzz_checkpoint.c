/* Fuzzes the checkpoint reader (io/checkpoint.c) and its settings lookup.
 * Each input is read twice: as it is (the header checks), and with the
 * header's payload size and FNV-1a checksum made to match the bytes after
 * it, so that mutations of the payload get past the checksum and reach the
 * parsing of counts, settings text, arrays and the barostat tail. */
#include "fuzz_input.h"
#include "io/checkpoint.h"

static void read_one(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".chk");
    if (!path)
        return;
    vkmd_checkpoint c;
    memset(&c, 0, sizeof c);
    if (vkmd_checkpoint_read(path, &c) == VKMD_OK) {
        char value[64];
        (void)vkmd_checkpoint_setting(&c, "integrator", value, sizeof value);
        (void)vkmd_checkpoint_setting(&c, "dt_fs", value, sizeof value);
        vkmd_checkpoint_free(&c);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_one(data, size);
    if (size < VKMD_CHECKPOINT_HEADER_BYTES)
        return 0;
    uint8_t *fixed = malloc(size);
    if (!fixed)
        return 0;
    memcpy(fixed, data, size);
    const uint64_t payload = size - VKMD_CHECKPOINT_HEADER_BYTES;
    const uint64_t sum =
        vkmd_fnv1a64(VKMD_FNV1A64_INIT, fixed + VKMD_CHECKPOINT_HEADER_BYTES, (size_t)payload);
    memcpy(fixed + 16, &payload, 8);
    memcpy(fixed + 24, &sum, 8);
    read_one(fixed, size);
    free(fixed);
    return 0;
}
