/* Writing JSON text: the one string-literal escaper of the engine's and the
 * tools' JSON outputs (run summaries, benchmarks, energies). */
#ifndef VKMD_CORE_JSON_STRING_H
#define VKMD_CORE_JSON_STRING_H

#include <stdio.h>

/* Writes `s` as a JSON string literal: quotes, backslash escapes, control
 * characters as \u00XX. */
void vkmd_json_string(FILE *out, const char *s);

#endif
