/* PNG writer on libpng; setjmp is libpng's error channel. */
#include "image_png.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <string.h>

vkmd_result vkmd_png_write_rgb(const char *path, const uint8_t *rgb, uint32_t width,
                               uint32_t height)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return vkmd_fail(VKMD_ERROR_IO, "%s: cannot write the screenshot: %s", path,
                         strerror(errno));
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return vkmd_fail(VKMD_ERROR_IO, "%s: PNG encoding failed", path);
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; ++y)
        png_write_row(png, (png_const_bytep)(rgb + (size_t)y * width * 3));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0)
        return vkmd_fail(VKMD_ERROR_IO, "%s: %s", path, strerror(errno));
    return VKMD_OK;
}
