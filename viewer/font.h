/* A 5x7 bitmap font for the HUD (ASCII 32..95; lowercase letters are drawn
 * as capitals), packed as the GPU reads it: glyph g (code 32 + g) is two
 * uint32 words, bit y * 5 + x set when pixel (x, y) is on (y down). */
#ifndef VKMD_VIEWER_FONT_H
#define VKMD_VIEWER_FONT_H

#include <stdint.h>

#define VKMD_FONT_GLYPHS 96 /* codes 32..127 */

/* Fills out_words[2 * VKMD_FONT_GLYPHS]. Codes without a drawn glyph
 * (96..127 except lowercase, which maps to capitals) are blank. */
void vkmd_font_pack(uint32_t *out_words);

/* The code drawn for character c (lowercase -> capital; outside 32..127 -> '?'). */
uint32_t vkmd_font_code(char c);

#endif
