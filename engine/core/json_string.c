/* JSON text (see json_string.h). */
#include "core/json_string.h"

void vkmd_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}
