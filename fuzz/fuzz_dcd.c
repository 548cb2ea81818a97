/* Fuzzes the DCD reader (io/dcd.c): the header, then up to 8 frames. */
#include "fuzz_input.h"
#include "io/dcd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".dcd");
    if (!path)
        return 0;
    vkmd_dcd_reader *r = NULL;
    if (vkmd_dcd_reader_open(path, &r) != VKMD_OK)
        return 0;
    const vkmd_dcd_info *info = vkmd_dcd_reader_info(r);
    /* Frames only when the file holds one: then the atom count is bounded
     * by the input's size. */
    double *xyz = NULL;
    if (info->frame_count > 0 && info->atom_count > 0)
        xyz = malloc((size_t)info->atom_count * 3 * sizeof *xyz);
    for (int32_t f = 0; xyz && f < info->frame_count && f < 8; ++f) {
        vkmd_box box;
        (void)vkmd_dcd_reader_frame(r, f, xyz, &box);
    }
    free(xyz);
    vkmd_dcd_reader_close(r);
    return 0;
}
