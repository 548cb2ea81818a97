/* The public context handle (include/vkmd.h vkmd_context) over the engine's
 * Vulkan context, for the other api/ files. */
#ifndef VKMD_API_API_CONTEXT_H
#define VKMD_API_API_CONTEXT_H

#include "vkmd.h"
#include "vk/context.h"

struct vkmd_context {
    vkmd_vk_context *vk; /* owned */
};

/* Creates the engine context for a public desc (NULL: defaults) and extra
 * engine fields (presentation; NULL: none). Shared by vkmd_context_create
 * and the interop header's vkmd_context_create_presentable. */
vkmd_result vkmd_api_context_create(const vkmd_context_desc *desc,
                                    const vkmd_vk_context_desc *extra, vkmd_context **out_ctx);

#endif
