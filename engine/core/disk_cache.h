/* A small on-disk cache of derived bytes (compiled kernels), so that a
 * second process does not redo work the first did: VkFFT's SPIR-V, which it
 * otherwise generates and compiles with glslang at every plan (0.4 s of a
 * water:216 start on lavapipe, and CPU time on any GPU).
 *
 * An entry is the bytes stored under a key (any bytes that name everything
 * the data depends on). A load returns them only if the file holds exactly
 * that key, its size and its checksum; anything else is a miss. Nothing here
 * fails its caller: a directory that cannot be made or a file that cannot
 * be written costs a debug line and the next process the same work again.
 * Stores are atomic (written aside, then renamed), so concurrent processes
 * see a whole entry or none.
 *
 * The directory: $VKMD_CACHE_DIR, else $XDG_CACHE_HOME/vkmd, else
 * $HOME/.cache/vkmd. VKMD_CACHE_DIR set to "" or "off" turns the cache off.
 * Entries are never user data: deleting the directory is always safe. */
#ifndef VKMD_CORE_DISK_CACHE_H
#define VKMD_CORE_DISK_CACHE_H

#include <stddef.h>

/* The entry stored under `key` in the cache's `kind` (a short file-name
 * prefix, e.g. "vkfft"): 1 with *out_data (malloc'd; the caller frees it)
 * and *out_size, or 0 (a miss, the cache off, or any error). */
int vkmd_disk_cache_load(const char *kind, const void *key, size_t key_size, void **out_data,
                         size_t *out_size);

/* Stores `data` under `key`, replacing an entry there; best effort. */
void vkmd_disk_cache_store(const char *kind, const void *key, size_t key_size, const void *data,
                           size_t size);

/* This process's loads that found their entry, loads that did not (the
 * cache off included), and entries written; for tests and logs. */
typedef struct vkmd_disk_cache_counts {
    long hits, misses, stores;
} vkmd_disk_cache_counts;
vkmd_disk_cache_counts vkmd_disk_cache_counts_get(void);

/* The file an entry is stored in, into buf (for tests); 0 if the cache is
 * off. */
int vkmd_disk_cache_path(const char *kind, const void *key, size_t key_size, char *buf,
                         size_t size);

#endif
