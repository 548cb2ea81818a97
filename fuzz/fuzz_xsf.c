/* Fuzzes the XSF (XCrySDen) grid reader (io/xsf.c). */
#include "fuzz_input.h"
#include "io/xsf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".xsf");
    if (!path)
        return 0;
    vkmd_xsf x;
    memset(&x, 0, sizeof x);
    if (vkmd_xsf_read(path, &x) == VKMD_OK)
        vkmd_xsf_free(&x);
    return 0;
}
