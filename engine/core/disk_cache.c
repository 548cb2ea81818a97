/* The on-disk cache (see disk_cache.h). A file: the header below, the key,
 * then the data; the checksum covers key and data. */
#include "core/disk_cache.h"
#include "core/log.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC      "VKMDC001"
#define MOST_BYTES ((uint64_t)1 << 30) /* larger entries are refused both ways */

typedef struct header {
    char magic[8];
    uint64_t key_size, data_size, checksum;
} header;

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define FNV_BASIS 0xcbf29ce484222325ull

static vkmd_disk_cache_counts counts; /* one thread at a time, as the engine */

vkmd_disk_cache_counts vkmd_disk_cache_counts_get(void)
{
    return counts;
}

/* The cache directory into buf; 0 if the cache is off or no home is known. */
static int cache_dir(char *buf, size_t size)
{
    const char *e = getenv("VKMD_CACHE_DIR");
    int n = 0;
    if (e) {
        if (!*e || !strcmp(e, "off"))
            return 0;
        n = snprintf(buf, size, "%s", e);
    } else if ((e = getenv("XDG_CACHE_HOME")) && *e) {
        n = snprintf(buf, size, "%s/vkmd", e);
    } else if ((e = getenv("HOME")) && *e) {
        n = snprintf(buf, size, "%s/.cache/vkmd", e);
    } else {
        return 0;
    }
    return n > 0 && (size_t)n < size;
}

/* mkdir -p, owner only; 1 if the directory is there. */
static int make_dirs(char *path)
{
    for (char *p = path + 1;; ++p) {
        const char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        const int ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *p = c;
        if (!ok)
            return 0;
        if (c == '\0')
            return 1;
    }
}

static int entry_path(const char *kind, const void *key, size_t key_size, char *buf, size_t size,
                      char *dir, size_t dir_size)
{
    if (!cache_dir(dir, dir_size))
        return 0;
    const int n = snprintf(buf, size, "%s/%s-%016llx.bin", dir, kind,
                           (unsigned long long)fnv1a(FNV_BASIS, key, key_size));
    return n > 0 && (size_t)n < size;
}

int vkmd_disk_cache_path(const char *kind, const void *key, size_t key_size, char *buf, size_t size)
{
    char dir[4096];
    return entry_path(kind, key, key_size, buf, size, dir, sizeof dir);
}

int vkmd_disk_cache_load(const char *kind, const void *key, size_t key_size, void **out_data,
                         size_t *out_size)
{
    *out_data = NULL;
    *out_size = 0;
    char path[4096], dir[4096];
    counts.misses += 1; /* until the entry is read whole */
    if (!entry_path(kind, key, key_size, path, sizeof path, dir, sizeof dir))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    header h;
    unsigned char *k = NULL, *data = NULL;
    int ok = fread(&h, sizeof h, 1, f) == 1 && !memcmp(h.magic, MAGIC, 8) &&
             h.key_size == key_size && h.data_size > 0 && h.data_size <= MOST_BYTES;
    if (ok) {
        k = malloc(key_size ? key_size : 1);
        data = malloc((size_t)h.data_size);
        ok = k && data && fread(k, 1, key_size, f) == key_size && !memcmp(k, key, key_size) &&
             fread(data, 1, (size_t)h.data_size, f) == h.data_size && fgetc(f) == EOF;
    }
    if (ok)
        ok = fnv1a(fnv1a(FNV_BASIS, k, key_size), data, (size_t)h.data_size) == h.checksum;
    fclose(f);
    free(k);
    if (!ok) {
        vkmd_log_debug("cache: %s does not hold this entry whole (another key, or damaged); "
                       "doing the work again",
                       path);
        free(data);
        return 0;
    }
    *out_data = data;
    *out_size = (size_t)h.data_size;
    counts.misses -= 1;
    counts.hits += 1;
    return 1;
}

void vkmd_disk_cache_store(const char *kind, const void *key, size_t key_size, const void *data,
                           size_t size)
{
    char path[4096], dir[4096], tmp[4200];
    if (size == 0 || size > MOST_BYTES ||
        !entry_path(kind, key, key_size, path, sizeof path, dir, sizeof dir))
        return;
    if (!make_dirs(dir)) {
        vkmd_log_debug("cache: cannot make %s (%s); not stored", dir, strerror(errno));
        return;
    }
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        vkmd_log_debug("cache: cannot write %s (%s); not stored", tmp, strerror(errno));
        return;
    }
    header h = {.key_size = key_size, .data_size = size};
    memcpy(h.magic, MAGIC, 8);
    h.checksum = fnv1a(fnv1a(FNV_BASIS, key, key_size), data, size);
    int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(key, 1, key_size, f) == key_size &&
             fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        vkmd_log_debug("cache: cannot write %s (%s); not stored", path, strerror(errno));
        unlink(tmp);
        return;
    }
    counts.stores += 1;
    vkmd_log_debug("cache: stored %zu bytes in %s", size, path);
}
