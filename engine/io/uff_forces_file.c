/* The per-atom UFF forces file (see uff_forces_file.h). */
#include "io/uff_forces_file.h"

#include <errno.h>
#include <string.h>

vkmd_result vkmd_uff_forces_file_open(const char *path, const char *molecule, const char *device,
                                      FILE **out)
{
    *out = fopen(path, "w");
    if (!*out)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    fprintf(*out, "# vkmd uff forces of %s, units kcal/mol/A, device %s\n# atom fx fy fz\n",
            molecule, device);
    return VKMD_OK;
}

void vkmd_uff_forces_file_write(FILE *ff, const char *what, int32_t n, const double *f)
{
    fprintf(ff, "# %s, %d atoms\n", what, n);
    for (int32_t a = 0; a < n; ++a)
        fprintf(ff, "%d %.10e %.10e %.10e\n", a + 1, f[3 * a], f[3 * a + 1], f[3 * a + 2]);
}

vkmd_result vkmd_uff_forces_file_close(FILE **ff, const char *path)
{
    if (!*ff)
        return VKMD_OK;
    const int bad = ferror(*ff);
    const int closed = fclose(*ff);
    *ff = NULL;
    if (bad || closed != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: writing forces failed", path);
    return VKMD_OK;
}
