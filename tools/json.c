/* JSON output helpers (see json.h): the engine's writers under the tools'
 * short names. */
#include "json.h"
#include "core/json_write.h"
#include "vk/device_json.h"

void json_string(FILE *out, const char *s)
{
    vkmd_json_write_string(out, s);
}

void json_device(FILE *out, const vkmd_vk_device_info *d)
{
    vkmd_vk_device_write_json(out, d);
}
