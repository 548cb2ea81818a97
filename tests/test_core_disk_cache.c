/* engine/core/disk_cache.c on the host, in a fresh directory given by
 * VKMD_CACHE_DIR (made by the first store, nested two levels deep):
 *   - a stored entry loads back byte for byte, and a second key is another
 *     entry;
 *   - an entry whose file was damaged (one data byte flipped, the file cut
 *     short, a byte appended) or that holds another key (one key's file
 *     copied to the other's name) is a miss, never wrong bytes; storing
 *     again mends it;
 *   - VKMD_CACHE_DIR="off" and "" store nothing and load nothing;
 *   - the counts of hits, misses and stores follow. */
#include "testlib.h"
#include "core/disk_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int loads(const char *key, const void *want, size_t want_size)
{
    void *data = NULL;
    size_t size = 0;
    const int hit = vkmd_disk_cache_load("test", key, strlen(key), &data, &size);
    const int same = hit && size == want_size && !memcmp(data, want, size);
    free(data);
    return hit && same ? 1 : hit ? -1 : 0; /* -1: wrong bytes */
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int c;
    while (a && b && (c = fgetc(a)) != EOF)
        fputc(c, b);
    if (a)
        fclose(a);
    if (b)
        fclose(b);
}

/* Flips the byte at `at` from the end of the file (1: the last one). */
static void flip_from_end(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    fseek(f, -at, SEEK_END);
    const int c = fgetc(f);
    fseek(f, -at, SEEK_END);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(void)
{
    char root[] = "/tmp/vkmd_cache_test_XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char dir[256], path_a[4096], path_b[4096];
    snprintf(dir, sizeof dir, "%s/nested/vkmd", root);
    setenv("VKMD_CACHE_DIR", dir, 1);

    unsigned char a[1000], b[37];
    for (size_t i = 0; i < sizeof a; ++i)
        a[i] = (unsigned char)(i * 7 + 3);
    memset(b, 0xab, sizeof b);
    const char *ka = "key a: grid 18x18x18", *kb = "key b: grid 20x20x20";
    CHECK(vkmd_disk_cache_path("test", ka, strlen(ka), path_a, sizeof path_a));
    CHECK(vkmd_disk_cache_path("test", kb, strlen(kb), path_b, sizeof path_b));
    CHECK(strcmp(path_a, path_b) != 0);

    const vkmd_disk_cache_counts c0 = vkmd_disk_cache_counts_get();
    CHECK(loads(ka, a, sizeof a) == 0); /* nothing there yet */
    vkmd_disk_cache_store("test", ka, strlen(ka), a, sizeof a);
    vkmd_disk_cache_store("test", kb, strlen(kb), b, sizeof b);
    CHECK(loads(ka, a, sizeof a) == 1);
    CHECK(loads(kb, b, sizeof b) == 1);
    const vkmd_disk_cache_counts c1 = vkmd_disk_cache_counts_get();
    printf("round trip: %ld hits, %ld misses, %ld stores\n", c1.hits - c0.hits,
           c1.misses - c0.misses, c1.stores - c0.stores);
    CHECK(c1.hits - c0.hits == 2 && c1.misses - c0.misses == 1 && c1.stores - c0.stores == 2);

    /* Damage: a data byte, the length, a trailing byte, another key. */
    flip_from_end(path_a, 10);
    CHECK(loads(ka, a, sizeof a) == 0);
    vkmd_disk_cache_store("test", ka, strlen(ka), a, sizeof a);
    CHECK(loads(ka, a, sizeof a) == 1);
    const long full = file_size(path_a);
    CHECK(full > (long)sizeof a);
    CHECK(truncate(path_a, full - 1) == 0);
    CHECK(loads(ka, a, sizeof a) == 0);
    vkmd_disk_cache_store("test", ka, strlen(ka), a, sizeof a);
    FILE *f = fopen(path_a, "ab");
    if (f) {
        fputc(0, f);
        fclose(f);
    }
    CHECK(loads(ka, a, sizeof a) == 0);
    copy_file(path_b, path_a); /* key b's entry under key a's name */
    CHECK(loads(ka, a, sizeof a) == 0);
    vkmd_disk_cache_store("test", ka, strlen(ka), a, sizeof a);
    CHECK(loads(ka, a, sizeof a) == 1);
    printf("damaged entries (flipped byte, cut short, byte appended, another key's): misses\n");

    /* Off: nothing stored, nothing loaded. */
    const char *offs[] = {"off", ""};
    for (int k = 0; k < 2; ++k) {
        setenv("VKMD_CACHE_DIR", offs[k], 1);
        const vkmd_disk_cache_counts before = vkmd_disk_cache_counts_get();
        vkmd_disk_cache_store("test", "key c", 5, b, sizeof b);
        CHECK(loads(ka, a, sizeof a) == 0);
        const vkmd_disk_cache_counts after = vkmd_disk_cache_counts_get();
        CHECK(after.stores == before.stores && after.hits == before.hits);
        CHECK(!vkmd_disk_cache_path("test", ka, strlen(ka), path_b, sizeof path_b));
    }
    printf("VKMD_CACHE_DIR=off and \"\": nothing stored or loaded\n");

    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    return test_finish("test_core_disk_cache");
}
