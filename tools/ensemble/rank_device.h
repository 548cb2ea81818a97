/* Which Vulkan device a rank of vkmd-mpi uses: one rank per GPU, chosen by
 * the rank's node-local rank (MPI_Comm_split_type SHARED) among the usable
 * devices of the best type on the node, round robin when there are more
 * ranks than devices (oversubscribed, e.g. several ranks on one CPU device).
 * An explicit --device (or $VKMD_DEVICE) overrides it on every rank. */
#ifndef VKMD_TOOLS_ENSEMBLE_RANK_DEVICE_H
#define VKMD_TOOLS_ENSEMBLE_RANK_DEVICE_H

#include "core/result.h"

#include <mpi.h>

/* The rank's rank among the ranks on its node (0 .. local_size - 1). */
int rank_device_local_rank(MPI_Comm comm, int *out_local_size);

/* The device string for vkmd_vk_context_desc.device: `explicit_device` when
 * given (not NULL, not "gpu"), else $VKMD_DEVICE when set, else "N" (the
 * device index) for this node-local rank, written to out (size bytes). */
vkmd_result rank_device_choose(const char *explicit_device, int local_rank, char *out, size_t size);

#endif
