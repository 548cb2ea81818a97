/* A device as a JSON object (see device_json.h). */
#include "vk/device_json.h"
#include "core/json_write.h"

void vkmd_vk_device_write_json(FILE *out, const vkmd_vk_device_info *d)
{
    fprintf(out, "{\"name\": ");
    vkmd_json_write_string(out, d->name);
    fprintf(out, ", \"vendor\": ");
    vkmd_json_write_string(out, d->vendor_name);
    fprintf(out, ", \"type\": ");
    vkmd_json_write_string(out, d->type_name);
    fprintf(out, ", \"driver_name\": ");
    vkmd_json_write_string(out, d->driver_name);
    fprintf(out, ", \"driver_info\": ");
    vkmd_json_write_string(out, d->driver_info);
    fprintf(out, ", \"driver_version\": ");
    vkmd_json_write_string(out, d->driver_version_str);
    fprintf(out, ", \"vulkan\": \"%u.%u.%u\"}", VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version));
}
