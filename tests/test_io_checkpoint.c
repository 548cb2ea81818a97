/* Checkpoints (engine/io/checkpoint.h):
 *   - a write/read round trip returns every field bit for bit;
 *   - the write goes through FILE.tmp and a rename: no .tmp is left, and a
 *     failed write (unwritable directory, full disk) leaves the previous
 *     checkpoint untouched;
 *   - a file cut at every length, every byte with one bit flipped, a wrong magic,
 *     version or byte-order mark, trailing bytes, and a checkpoint of another
 *     system (other atom count; same atom count with other masses, as another
 *     --hmr gives) are each refused with a message (printed);
 *   - settings lookup by key;
 *   - the barostat's state (version 2) round-trips, and a version 1 file
 *     (no barostat tail) is still read, with a zeroed barostat state. */
#include "io/checkpoint.h"
#include "system/hmr.h"
#include "system/water_box.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR VKMD_TEST_GEN_DIR "/io_checkpoint"

static void write_bytes(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path);
        ++test_failures;
    }
    if (f)
        fclose(f);
}

/* Expects `path` to be refused; prints the message of the first few. */
static int refused(const char *path, const char *what, int print)
{
    vkmd_checkpoint c;
    const vkmd_result r = vkmd_checkpoint_read(path, &c);
    if (r == VKMD_OK) {
        fprintf(stderr, "FAIL: %s was accepted\n", what);
        vkmd_checkpoint_free(&c);
        return 0;
    }
    if (print)
        printf("  %s -> %s: %s\n", what, vkmd_result_str(r), vkmd_last_error());
    return 1;
}

int main(void)
{
    mkdir(VKMD_TEST_GEN_DIR, 0777);
    mkdir(DIR, 0777);
    vkmd_system sys, other;
    memset(&sys, 0, sizeof sys);
    memset(&other, 0, sizeof other);
    CHECK_OK(vkmd_water_box_build(64, 7, &sys));
    const int32_t n = sys.atom_count;
    double *v = malloc(sizeof *v * 3 * (size_t)n);
    uint64_t rng = 42;
    for (int32_t k = 0; k < 3 * n; ++k)
        v[k] = (float)(0.01 * (test_uniform(&rng) - 0.5));
    char settings[] = "integrator langevin\ndt_fs 2\nseed 9\n";
    const vkmd_checkpoint c = {.atom_count = n,
                               .periodic = sys.box.periodic,
                               .fingerprint = vkmd_checkpoint_fingerprint(&sys),
                               .step = 1200,
                               .md_step = 1700,
                               .time_ps = 2.4,
                               .box = {sys.box.len[0], sys.box.len[1], sys.box.len[2]},
                               .seed = 9,
                               .settings = settings,
                               .positions = sys.positions,
                               .velocities = v,
                               .barostat = 1,
                               .baro_step_a3 = {412.5, 0.25, 1e-3},
                               .baro_attempts = {40, 0, 7},
                               .baro_accepted = {21, 0, 3},
                               .baro_window_attempts = {0, 0, 7},
                               .baro_window_accepted = {0, 0, 3}};
    const char *path = DIR "/a.chk";
    CHECK_OK(vkmd_checkpoint_write(path, &c));
    CHECK(access(DIR "/a.chk.tmp", F_OK) != 0);

    /* Round trip. */
    vkmd_checkpoint r;
    memset(&r, 0, sizeof r);
    CHECK_OK(vkmd_checkpoint_read(path, &r));
    CHECK(r.atom_count == n && r.periodic == c.periodic && r.fingerprint == c.fingerprint);
    CHECK(r.step == 1200 && r.md_step == 1700 && r.time_ps == 2.4 && r.seed == 9);
    CHECK(r.box[0] == c.box[0] && r.box[1] == c.box[1] && r.box[2] == c.box[2]);
    CHECK(r.settings && !strcmp(r.settings, settings));
    CHECK(r.positions && !memcmp(r.positions, sys.positions, sizeof(double) * 3 * (size_t)n));
    CHECK(r.velocities && !memcmp(r.velocities, v, sizeof(double) * 3 * (size_t)n));
    CHECK(r.barostat == 1 && !memcmp(r.baro_step_a3, c.baro_step_a3, sizeof r.baro_step_a3) &&
          !memcmp(r.baro_attempts, c.baro_attempts, sizeof r.baro_attempts) &&
          !memcmp(r.baro_accepted, c.baro_accepted, sizeof r.baro_accepted) &&
          !memcmp(r.baro_window_attempts, c.baro_window_attempts, sizeof r.baro_window_attempts) &&
          !memcmp(r.baro_window_accepted, c.baro_window_accepted, sizeof r.baro_window_accepted));
    char val[64];
    CHECK(vkmd_checkpoint_setting(&r, "dt_fs", val, sizeof val) && !strcmp(val, "2"));
    CHECK(vkmd_checkpoint_setting(&r, "seed", val, sizeof val) && !strcmp(val, "9"));
    CHECK(!vkmd_checkpoint_setting(&r, "dt", val, sizeof val));
    CHECK_OK(vkmd_checkpoint_check_system(&r, &sys, path));
    vkmd_checkpoint_free(&r);

    size_t len = 0;
    unsigned char *bytes = (unsigned char *)test_read_file(path, &len);
    CHECK(bytes && len > VKMD_CHECKPOINT_HEADER_BYTES);
    if (!bytes)
        return test_finish("test_io_checkpoint");
    printf("checkpoint of %d atoms: %zu bytes\n", n, len);
    const char *bad = DIR "/bad.chk";

    /* Version 1: the same file without the 100-byte barostat tail. */
    {
        const size_t len1 = len - 100;
        unsigned char *v1 = malloc(len1);
        memcpy(v1, bytes, len1);
        const uint32_t one = 1;
        const uint64_t payload = len1 - VKMD_CHECKPOINT_HEADER_BYTES;
        const uint64_t sum =
            vkmd_fnv1a64(VKMD_FNV1A64_INIT, v1 + VKMD_CHECKPOINT_HEADER_BYTES, (size_t)payload);
        memcpy(v1 + 8, &one, 4);
        memcpy(v1 + 16, &payload, 8);
        memcpy(v1 + 24, &sum, 8);
        write_bytes(DIR "/v1.chk", v1, len1);
        vkmd_checkpoint o;
        CHECK_OK(vkmd_checkpoint_read(DIR "/v1.chk", &o));
        CHECK(o.step == 1200 && o.barostat == 0 && o.baro_step_a3[0] == 0 &&
              o.baro_attempts[0] == 0);
        CHECK(o.positions && !memcmp(o.positions, sys.positions, sizeof(double) * 3 * (size_t)n));
        printf("version 1 file (%zu bytes) read: step %lld, no barostat state\n", len1,
               (long long)o.step);
        vkmd_checkpoint_free(&o);
        free(v1);
    }

    /* Every truncation. */
    int ok = 1;
    printf("truncated:\n");
    for (size_t cut = 0; cut < len; ++cut) {
        write_bytes(bad, bytes, cut);
        ok &= refused(bad, cut == 0 ? "empty file" : "truncated file",
                      cut == 0 || cut == 20 || cut == len - 1);
    }
    CHECK(ok);
    printf("  all %zu truncations refused\n", len);

    /* Every byte with one bit flipped (header and payload). */
    ok = 1;
    printf("one bit flipped:\n");
    for (size_t at = 0; at < len; ++at) {
        bytes[at] ^= 0x01;
        write_bytes(bad, bytes, len);
        const char *what = at < 8    ? "magic"
                           : at < 12 ? "version"
                           : at < 16 ? "byte order"
                           : at < 24 ? "payload size"
                           : at < 32 ? "checksum"
                           : at < 40 ? "reserved header bytes"
                                     : "payload";
        ok &= refused(bad, what,
                      at == 0 || at == 8 || at == 12 || at == 16 || at == 24 || at == 32 ||
                          at == len / 2);
        bytes[at] ^= 0x01;
    }
    CHECK(ok);
    printf("  all %zu single-bit corruptions refused\n", len);

    /* Trailing bytes. */
    unsigned char *longer = malloc(len + 3);
    memcpy(longer, bytes, len);
    memset(longer + len, 0, 3);
    write_bytes(bad, longer, len + 3);
    CHECK(refused(bad, "trailing bytes", 1));
    free(longer);

    /* Not a file. */
    CHECK(refused(DIR "/missing.chk", "missing file", 1));

    /* Other systems. */
    CHECK_OK(vkmd_water_box_build(63, 7, &other));
    r = (vkmd_checkpoint){0};
    CHECK_OK(vkmd_checkpoint_read(path, &r));
    vkmd_result res = vkmd_checkpoint_check_system(&r, &other, path);
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT);
    printf("other atom count -> %s\n", vkmd_last_error());
    vkmd_system_destroy(&other);
    CHECK_OK(vkmd_water_box_build(64, 7, &other));
    CHECK_OK(vkmd_checkpoint_check_system(&r, &other, path)); /* same system, rebuilt */
    for (int32_t i = 0; i < other.atom_count; i += 3)
        other.atoms[i].mass += 1e-9; /* a different system with the same atom count */
    res = vkmd_checkpoint_check_system(&r, &other, path);
    CHECK(res == VKMD_ERROR_INVALID_ARGUMENT);
    printf("other masses -> %s\n", vkmd_last_error());
    vkmd_checkpoint_free(&r);

    /* A failed write keeps the previous checkpoint. */
    const vkmd_checkpoint c2 = {.atom_count = n, .positions = sys.positions, .velocities = v};
    res = vkmd_checkpoint_write(DIR "/no/such/dir/x.chk", &c2);
    CHECK(res == VKMD_ERROR_IO);
    printf("unwritable directory -> %s\n", vkmd_last_error());
    if (access("/dev/full", W_OK) == 0) {
        /* The temporary is what gets written: make it /dev/full. */
        const char *full = DIR "/full.chk";
        CHECK_OK(vkmd_checkpoint_write(full, &c));
        unlink(DIR "/full.chk.tmp");
        if (symlink("/dev/full", DIR "/full.chk.tmp") == 0) {
            res = vkmd_checkpoint_write(full, &c2);
            CHECK(res == VKMD_ERROR_IO);
            printf("full disk -> %s\n", vkmd_last_error());
            vkmd_checkpoint t;
            CHECK_OK(vkmd_checkpoint_read(full, &t)); /* the previous one, intact */
            CHECK(t.step == 1200);
            vkmd_checkpoint_free(&t);
            unlink(DIR "/full.chk.tmp");
        }
    }

    free(bytes);
    free(v);
    vkmd_system_destroy(&sys);
    vkmd_system_destroy(&other);
    return test_finish("test_io_checkpoint");
}
