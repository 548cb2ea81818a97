/* JSON output helper shared by the vkmd subcommands. */
#ifndef VKMD_TOOLS_JSON_H
#define VKMD_TOOLS_JSON_H

#include <stdio.h>

/* Writes `s` as a JSON string literal: quotes, backslash escapes, control
 * characters as \u00XX. */
void json_string(FILE *out, const char *s);

#endif
