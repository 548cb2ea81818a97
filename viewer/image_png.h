/* PNG screenshots (libpng). */
#ifndef VKMD_VIEWER_IMAGE_PNG_H
#define VKMD_VIEWER_IMAGE_PNG_H

#include "core/result.h"

#include <stdint.h>

/* Writes 8-bit RGB pixels (rows top to bottom, 3 bytes per pixel) to `path`.
 * Errors: VKMD_ERROR_IO naming the file. */
vkmd_result vkmd_png_write_rgb(const char *path, const uint8_t *rgb, uint32_t width,
                               uint32_t height);

#endif
