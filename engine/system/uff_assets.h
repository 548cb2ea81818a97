/* Data files of assets/ embedded in the binary at build time by
 * cmake/assets.cmake (the UFF parameter table, the built-in molecules, the
 * water tile), so nothing is read from a path relative to the working
 * directory. */
#ifndef VKMD_SYSTEM_UFF_ASSETS_H
#define VKMD_SYSTEM_UFF_ASSETS_H

#include <stddef.h>

/* The bytes of assets/<name> ("uff_params.txt", "molecules/xylitol.sdf"),
 * NUL-terminated (text assets are C strings); their count without the NUL in
 * *out_size if out_size is non-NULL. NULL if no such asset. Static storage:
 * never free it. */
const char *vkmd_asset_find(const char *name, size_t *out_size);

#endif
