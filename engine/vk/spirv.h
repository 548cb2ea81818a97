/* Table of the SPIR-V modules compiled from shaders/ at build time
 * (cmake/shaders.cmake generates the table). */
#ifndef VKMD_VK_SPIRV_H
#define VKMD_VK_SPIRV_H

#include <stddef.h>
#include <stdint.h>

typedef struct vkmd_spirv {
    const char *name;     /* file name in shaders/, e.g. "bonded.comp" */
    const uint32_t *code; /* SPIR-V words */
    size_t size;          /* bytes */
} vkmd_spirv;

/* The embedded module named `name`, or NULL. */
const vkmd_spirv *vkmd_spirv_find(const char *name);

/* Every embedded module, in name order, ended by an entry whose name is NULL
 * (tests that audit the SPIR-V walk it). */
const vkmd_spirv *vkmd_spirv_all(void);

#endif
