// Which block of work a workgroup takes (the fused step's kernels). A device
// may hand each of its threads one contiguous range of a dispatch's
// workgroups: Mesa's lavapipe (22.3) gives each of its N threads
// groups / N consecutive workgroups, so when the work sits at the head of
// the index range (a kind of unit less numerous than the threads, the
// bonded terms, the protein's H clusters) one thread does it while the
// others wait. Workgroup w of n takes block (w * p) mod n, with p coprime to
// n near 0.618 n (the host's vkmd_group_stride): a permutation under which
// any run of consecutive workgroups takes blocks spread evenly over the
// range (the golden-ratio sequence). On a GPU, which schedules workgroups
// dynamically, the order does not matter. Pair tiles keep the natural order:
// neighbouring clusters share their j data in cache, and their work is
// spread over the whole range anyway.
#ifndef VKMD_GROUP_ORDER_GLSL
#define VKMD_GROUP_ORDER_GLSL

uint vkmd_group_block(uint w, uint n, uint p)
{
    return (w * p) % n; // w, p < n <= 65535
}

#endif
