/* Layouts of the constraint passes (settle.comp, hconstraints.comp;
 * engine/sim/constraints.h). Included by vkmd_layout.h. Spec ids 40..47. */
#ifndef VKMD_LAYOUT_CONSTRAINTS_H
#define VKMD_LAYOUT_CONSTRAINTS_H

#endif
