/* Layouts of the MD integration passes (md_*.comp; engine/sim/md.h).
 * Included by vkmd_layout.h. Spec ids 48..55. */
#ifndef VKMD_LAYOUT_MD_H
#define VKMD_LAYOUT_MD_H

#endif
