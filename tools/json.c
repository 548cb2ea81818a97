/* JSON output helper (see json.h): the engine's string writer under the
 * tools' short name. */
#include "json.h"
#include "core/json_write.h"

void json_string(FILE *out, const char *s)
{
    vkmd_json_write_string(out, s);
}
