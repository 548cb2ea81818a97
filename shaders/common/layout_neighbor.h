/* Layouts of the neighbor module, shared by C and GLSL: included by
 * common/vkmd_layout.h (which defines VKMD_VEC4 etc.); same rules as there
 * (vec4/uvec4 records, push-constant field-list macros, _Static_assert every
 * size and offset on the C side under __STDC__). */
#ifndef VKMD_LAYOUT_NEIGHBOR_H
#define VKMD_LAYOUT_NEIGHBOR_H

#endif
