/* vkmd_version: the library's version, from include/vkmd.h as the library
 * was built (CMake checks that it equals the project version). */
#include "vkmd.h"

const char *vkmd_version(int *out_major, int *out_minor, int *out_patch)
{
    if (out_major)
        *out_major = VKMD_VERSION_MAJOR;
    if (out_minor)
        *out_minor = VKMD_VERSION_MINOR;
    if (out_patch)
        *out_patch = VKMD_VERSION_PATCH;
    return VKMD_VERSION_STRING;
}
