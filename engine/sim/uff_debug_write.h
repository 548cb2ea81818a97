/* Writes the per-interaction details a Vulkan device recorded for one UFF
 * replica (sim/uff_replicas.h, forces/pass_uff.h): geometry, energy,
 * derivative and the force on each atom of every term, as a text table or
 * a JSON array. What `vkmd uff energy|scan --debug-replica` prints. */
#ifndef VKMD_SIM_UFF_DEBUG_WRITE_H
#define VKMD_SIM_UFF_DEBUG_WRITE_H

#include "forces/pass_uff.h"
#include "system/uff_params.h"

#include <stdio.h>

/* Writes the `count` records `recs` (borrowed; records whose info.z is not 1
 * are skipped) to `out`. Atoms are molecule-local and printed 1-based, with
 * their UFF labels `labels[atom]` in the table when labels is not NULL.
 * json: a JSON array (keys carry their units: kcal/mol, A, degrees; no
 * trailing newline) whose lines are indented by `indent` spaces; else a
 * table with a header line. Write errors are left in ferror(out). */
void vkmd_uff_debug_write(FILE *out, const vkmd_uff_debug_record *recs, int32_t count,
                          char (*labels)[VKMD_UFF_LABEL_MAX], int json, int indent);

#endif
