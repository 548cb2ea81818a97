/* JSON output helpers (see json.h). */
#include "json.h"

#include <vulkan/vulkan.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void json_device(FILE *out, const vkmd_vk_device_info *d)
{
    fprintf(out, "{\"name\": ");
    json_string(out, d->name);
    fprintf(out, ", \"vendor\": ");
    json_string(out, d->vendor_name);
    fprintf(out, ", \"type\": ");
    json_string(out, d->type_name);
    fprintf(out, ", \"driver_name\": ");
    json_string(out, d->driver_name);
    fprintf(out, ", \"driver_info\": ");
    json_string(out, d->driver_info);
    fprintf(out, ", \"driver_version\": ");
    json_string(out, d->driver_version_str);
    fprintf(out, ", \"vulkan\": \"%u.%u.%u\"}", VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version));
}
