/* System loading by specification string (see load.h). */
#include "io/load.h"

#include "core/log.h"
#include "io/checkpoint.h"
#include "io/coords.h"
#include "io/pdb.h"
#include "io/prmtop.h"
#include "system/water_box.h"
#include "system/water_tile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

/* A checkpoint as a starting state: its positions, velocities and box,
 * exactly (the settings and the step are not taken: a new run starts). */
static vkmd_result read_checkpoint_coords(const char *path, vkmd_system *sys)
{
    vkmd_checkpoint c = {0};
    vkmd_result res = vkmd_checkpoint_read(path, &c);
    if (res != VKMD_OK)
        return res;
    if (c.atom_count != sys->atom_count) {
        res = vkmd_fail(VKMD_ERROR_PARSE, "%s: checkpoint of %d atoms, the system has %d", path,
                        c.atom_count, sys->atom_count);
        goto done;
    }
    const size_t n3 = 3 * (size_t)c.atom_count;
    double *x = malloc(sizeof *x * n3), *v = malloc(sizeof *v * n3);
    if (!x || !v) {
        free(x);
        free(v);
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
        goto done;
    }
    memcpy(x, c.positions, sizeof *x * n3);
    memcpy(v, c.velocities, sizeof *v * n3);
    free(sys->positions);
    free(sys->velocities);
    sys->positions = x;
    sys->velocities = v;
    if (c.periodic)
        vkmd_checkpoint_box(&c, &sys->box);
done:
    vkmd_checkpoint_free(&c);
    return res;
}

vkmd_result vkmd_system_load_coords(const char *path, vkmd_system *sys)
{
    if (strcasecmp(extension(path), ".pdb") == 0 || strcasecmp(extension(path), ".ent") == 0)
        return vkmd_pdb_read_coords(path, sys);
    if (strcasecmp(extension(path), ".chk") == 0)
        return read_checkpoint_coords(path, sys);
    return vkmd_coords_read_amber(path, sys);
}

#define LATTICE_SUFFIX ":lattice"

vkmd_result vkmd_water_spec_parse(const char *spec, int32_t *out_n, int *out_lattice)
{
    *out_n = 0;
    *out_lattice = 0;
    if (strncmp(spec, "water:", 6) != 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: expected water:N", spec);
    const char *num = spec + 6;
    size_t digits = strlen(num);
    const size_t sl = strlen(LATTICE_SUFFIX);
    *out_lattice = digits > sl && strcmp(num + digits - sl, LATTICE_SUFFIX) == 0;
    if (*out_lattice)
        digits -= sl;
    int ok = digits > 0;
    for (size_t c = 0; c < digits && ok; ++c)
        ok = num[c] >= '0' && num[c] <= '9';
    long long v = 0;
    if (ok) {
        errno = 0;
        v = strtoll(num, NULL, 10);
        ok = errno == 0 && v >= 1 && v <= VKMD_WATER_BOX_MAX_WATERS;
    }
    if (!ok)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "%s: expected water:N with N a whole number of waters in 1..%d, found "
                         "'%s'",
                         spec, VKMD_WATER_BOX_MAX_WATERS, *num ? num : "(nothing)");
    *out_n = (int32_t)v;
    return VKMD_OK;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

vkmd_result vkmd_system_load(const char *spec, const char *coords_path, vkmd_system *out)
{
    memset(out, 0, sizeof *out);
    if (!spec || !*spec)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "no system given (expected a prmtop path or water:N)");
    vkmd_system s = {0};
    vkmd_result res = VKMD_OK;
    char *guess = NULL;
    if (strncmp(spec, "water:", 6) == 0) {
        int32_t n = 0;
        int lattice = 0;
        VKMD_TRY(vkmd_water_spec_parse(spec, &n, &lattice));
        if (lattice)
            VKMD_TRY(vkmd_water_box_build(n, VKMD_WATER_BOX_DEFAULT_SEED, &s));
        else
            VKMD_TRY(vkmd_water_tile_build(n, &s, NULL));
    } else {
        VKMD_TRY(vkmd_prmtop_read(spec, &s));
        if (!coords_path) {
            size_t stem = strlen(spec) - strlen(extension(spec));
            guess = malloc(stem + 8);
            if (!guess) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "out of memory");
                goto cleanup;
            }
            static const char *const exts[] = {".inpcrd", ".rst7"};
            for (int k = 0; k < 2 && !coords_path; ++k) {
                memcpy(guess, spec, stem);
                strcpy(guess + stem, exts[k]);
                if (file_exists(guess)) {
                    coords_path = guess;
                    vkmd_log_info("%s: coordinates from %s", spec, guess);
                }
            }
            if (!coords_path)
                vkmd_log_info("%s: no coordinates given and no %.*s.inpcrd or .rst7 beside it",
                              spec, (int)stem, spec);
        }
    }
    if (coords_path)
        VKMD_TRY(vkmd_system_load_coords(coords_path, &s));
    *out = s;
    memset(&s, 0, sizeof s);

cleanup:
    free(guess);
    vkmd_system_destroy(&s);
    return res;
}
