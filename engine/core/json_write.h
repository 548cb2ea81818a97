/* JSON string literals for the files and reports the engine writes (the
 * benchmark result files). */
#ifndef VKMD_CORE_JSON_WRITE_H
#define VKMD_CORE_JSON_WRITE_H

#include <stdio.h>

/* Writes `s` as a JSON string literal: quotes, backslash escapes for '"' and
 * '\\', control characters as \u00XX. */
void vkmd_json_write_string(FILE *out, const char *s);

#endif
