/* Pixel statistics of vkmd screenshots for the viewer tests: reads one or
 * two PNGs (libpng) and prints "key value" lines. Rows above --skip-top
 * (the HUD) are left out of every count.
 *   width, height
 *   nonbg       fraction of pixels that are not the background colour
 *   red         pixels that look like oxygen (CPK red, any shade)
 *   white       pixels that look like hydrogen (near white)
 *   yellow      pixels of the box outline colour
 *   cyan        pixels of the virtual sites' colour (extra points)
 *   diff        with a second file: fraction of pixels that differ */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct image {
    png_uint_32 w, h;
    unsigned char *rgb;
} image;

static int load(const char *path, image *im)
{
    png_image p;
    memset(&p, 0, sizeof p);
    p.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&p, path)) {
        fprintf(stderr, "png_stats: %s: %s\n", path, p.message);
        return 0;
    }
    p.format = PNG_FORMAT_RGB;
    im->w = p.width;
    im->h = p.height;
    im->rgb = malloc(PNG_IMAGE_SIZE(p));
    if (!im->rgb || !png_image_finish_read(&p, NULL, im->rgb, 0, NULL)) {
        fprintf(stderr, "png_stats: %s: %s\n", path, p.message);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: png_stats SKIP_TOP_FRACTION A.png [B.png]\n");
        return 2;
    }
    const double skip = atof(argv[1]);
    image a = {0}, b = {0};
    if (!load(argv[2], &a) || (argc > 3 && !load(argv[3], &b)))
        return 1;
    const png_uint_32 y0 = (png_uint_32)(skip * a.h);
    long total = 0, nonbg = 0, red = 0, white = 0, yellow = 0, cyan = 0, diff = 0;
    for (png_uint_32 y = y0; y < a.h; ++y)
        for (png_uint_32 x = 0; x < a.w; ++x) {
            const unsigned char *p = a.rgb + 3 * ((size_t)y * a.w + x);
            const int r = p[0], g = p[1], bl = p[2];
            ++total;
            /* background: the clear colour (18, 20, 28) */
            if (abs(r - 18) > 6 || abs(g - 20) > 6 || abs(bl - 28) > 6)
                ++nonbg;
            if (r >= 120 && g <= 70 && bl <= 70)
                ++red;
            if (r >= 200 && g >= 200 && bl >= 200)
                ++white;
            if (r >= 200 && g >= 170 && g <= 240 && bl <= 80)
                ++yellow;
            if (r <= 80 && g >= 120 && bl >= 160 && bl >= g)
                ++cyan;
            if (b.rgb && b.w == a.w && b.h == a.h) {
                const unsigned char *q = b.rgb + 3 * ((size_t)y * a.w + x);
                if (abs(q[0] - r) > 8 || abs(q[1] - g) > 8 || abs(q[2] - bl) > 8)
                    ++diff;
            }
        }
    printf("width %u\nheight %u\nnonbg %.5f\nred %ld\nwhite %ld\nyellow %ld\ncyan %ld\n",
           (unsigned)a.w, (unsigned)a.h, total ? (double)nonbg / (double)total : 0.0, red, white,
           yellow, cyan);
    if (argc > 3)
        printf("diff %.5f\n",
               b.w == a.w && b.h == a.h && total ? (double)diff / (double)total : 1.0);
    free(a.rgb);
    free(b.rgb);
    return 0;
}
