/* The device of a rank by its node-local rank (rank_device.h). */
#include "rank_device.h"
#include "vk/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rank_device_local_rank(MPI_Comm comm, int *out_local_size)
{
    MPI_Comm node;
    int local = 0, size = 1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_size(node, &size);
        MPI_Comm_free(&node);
    }
    if (out_local_size)
        *out_local_size = size;
    return local;
}

vkmd_result rank_device_choose(const char *explicit_device, int local_rank, char *out, size_t size)
{
    const char *env = getenv("VKMD_DEVICE");
    if (explicit_device && strcmp(explicit_device, "gpu") != 0) {
        snprintf(out, size, "%s", explicit_device);
        return VKMD_OK;
    }
    if (env && *env) {
        snprintf(out, size, "%s", env);
        return VKMD_OK;
    }
    vkmd_vk_device_info *devs = NULL;
    uint32_t n = 0, best = 0;
    VKMD_TRY_RETURN(vkmd_vk_devices_list(&devs, &n));
    vkmd_result res = vkmd_vk_devices_choose(devs, n, NULL, &best);
    if (res == VKMD_OK) {
        /* The usable devices of the best one's type, in index order. */
        uint32_t same[64], count = 0;
        const VkPhysicalDeviceType type = devs[best].type;
        for (uint32_t i = 0; i < n && count < 64; ++i)
            if (devs[i].usable && devs[i].type == type)
                same[count++] = devs[i].index;
        snprintf(out, size, "%u", count ? same[(uint32_t)local_rank % count] : devs[best].index);
    }
    free(devs);
    return res;
}
