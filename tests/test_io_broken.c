/* Every broken input in tests/broken/MANIFEST is loaded with
 * vkmd_system_load: the result code must be the expected one and the message
 * must contain the expected text and name the broken file. Also checks that a
 * failed load leaves the output system zeroed.
 * Then every input of tests/broken/fuzz/MANIFEST (the regression inputs the
 * fuzz harnesses of fuzz/ found) goes through the reader its harness drives:
 * the expected result and message again, and no reader may hold more than
 * 64 MB of heap for one of these small files (glibc's mallinfo2; a sanitizer
 * build's allocator reports none, so there only the rest is checked). */
#include "io/atom_list.h"
#include "io/checkpoint.h"
#include "io/coords.h"
#include "io/dcd.h"
#include "io/netcdf.h"
#include "io/load.h"
#include "io/pdb.h"
#include "io/prmtop.h"
#include "io/sdf.h"
#include "io/xsf.h"
#include "io/xyz.h"
#include "testlib.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    vkmd_result code;
} codes[] = {
    {"INVALID_ARGUMENT", VKMD_ERROR_INVALID_ARGUMENT},
    {"OUT_OF_MEMORY", VKMD_ERROR_OUT_OF_MEMORY},
    {"IO", VKMD_ERROR_IO},
    {"PARSE", VKMD_ERROR_PARSE},
    {"UNSUPPORTED", VKMD_ERROR_UNSUPPORTED},
    {"NUMERIC", VKMD_ERROR_NUMERIC},
};

static int code_by_name(const char *name, vkmd_result *out)
{
    for (size_t k = 0; k < sizeof codes / sizeof *codes; ++k)
        if (strcmp(codes[k].name, name) == 0) {
            *out = codes[k].code;
            return 1;
        }
    return 0;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static size_t heap_bytes(void)
{
    const struct mallinfo2 m = mallinfo2();
    return m.hblkhd + m.uordblks;
}

/* Reads `path` with the reader named `reader` (a fuzz harness's name) and
 * frees what it read; *out_peak gets the most heap held beyond the start. */
static vkmd_result read_with(const char *reader, const char *path, size_t *out_peak)
{
    const size_t before = heap_bytes();
    size_t peak = 0;
    vkmd_result r = VKMD_ERROR_INVALID_ARGUMENT;
#define PEAK() (peak = heap_bytes() > before ? heap_bytes() - before : 0)
    if (!strcmp(reader, "prmtop")) {
        vkmd_system s = {0};
        r = vkmd_prmtop_read(path, &s);
        PEAK();
        vkmd_system_destroy(&s);
    } else if (!strcmp(reader, "coords") || !strcmp(reader, "pdb")) {
        vkmd_system s = {.atom_count = 3};
        r = reader[0] == 'c' ? vkmd_coords_read_amber(path, &s) : vkmd_pdb_read_coords(path, &s);
        PEAK();
        free(s.positions);
        free(s.velocities);
    } else if (!strcmp(reader, "sdf")) {
        vkmd_uff_molecule *m = NULL;
        int32_t n = 0;
        r = vkmd_sdf_read(path, &m, &n);
        PEAK();
        if (r == VKMD_OK)
            vkmd_uff_molecule_array_free(m, n);
    } else if (!strcmp(reader, "xyz")) {
        vkmd_uff_molecule m = {0};
        r = vkmd_xyz_read(path, &m);
        PEAK();
        if (r == VKMD_OK)
            vkmd_uff_molecule_destroy(&m);
    } else if (!strcmp(reader, "dcd")) {
        vkmd_dcd_reader *d = NULL;
        r = vkmd_dcd_reader_open(path, &d);
        PEAK();
        vkmd_dcd_reader_close(d);
    } else if (!strcmp(reader, "netcdf")) {
        vkmd_netcdf_reader *nc = NULL;
        r = vkmd_netcdf_reader_open(path, &nc);
        PEAK();
        vkmd_netcdf_reader_close(nc);
    } else if (!strcmp(reader, "checkpoint")) {
        vkmd_checkpoint c = {0};
        r = vkmd_checkpoint_read(path, &c);
        PEAK();
        if (r == VKMD_OK)
            vkmd_checkpoint_free(&c);
    } else if (!strcmp(reader, "xsf")) {
        vkmd_xsf x = {0};
        r = vkmd_xsf_read(path, &x);
        PEAK();
        if (r == VKMD_OK)
            vkmd_xsf_free(&x);
    } else if (!strcmp(reader, "atom_list")) {
        uint8_t sel[1000];
        int32_t n = 0;
        r = vkmd_atom_list_read(path, 1000, sel, &n);
        PEAK();
    }
#undef PEAK
    *out_peak = peak;
    return r;
}

/* tests/broken/fuzz/MANIFEST: "reader file result message" ('-': none). */
static void fuzz_regressions(void)
{
    char *manifest = test_read_file(VKMD_TEST_BROKEN_DIR "/fuzz/MANIFEST", NULL);
    CHECK(manifest != NULL);
    if (!manifest)
        return;
    int cases = 0, lineno = 0;
    for (char *save = NULL, *line = strtok_r(manifest, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        ++lineno;
        if (*line == '#')
            continue;
        char reader[32], file[256], code_name[64];
        int used = 0;
        vkmd_result want = VKMD_OK;
        if (sscanf(line, "%31s %255s %63s %n", reader, file, code_name, &used) != 3 ||
            !line[used] || (strcmp(code_name, "OK") && !code_by_name(code_name, &want))) {
            CHECK_MSG(0, "fuzz/MANIFEST line %d: expected 'reader file result message'", lineno);
            continue;
        }
        const char *want_msg = line + used;
        char path[600];
        snprintf(path, sizeof path, "%s/fuzz/%s", VKMD_TEST_BROKEN_DIR, file);
        size_t peak = 0;
        vkmd_error_clear();
        const vkmd_result got = read_with(reader, path, &peak);
        const char *msg = got == VKMD_OK ? "" : vkmd_last_error();
        const int msg_ok =
            !strcmp(want_msg, "-") || (strstr(msg, want_msg) != NULL && strstr(msg, file) != NULL);
        const int ok = got == want && msg_ok && peak < (64u << 20);
        printf("  %-4s %-10s %-28s -> %s, %zu kB heap: %s\n", ok ? "ok" : "FAIL", reader, file,
               vkmd_result_str(got), peak >> 10, msg);
        CHECK_MSG(got == want, "%s: got %s, expected %s", file, vkmd_result_str(got),
                  vkmd_result_str(want));
        CHECK_MSG(msg_ok, "%s: message lacks '%s' or the file name", file, want_msg);
        CHECK_MSG(peak < (64u << 20), "%s: the reader held %zu MB", file, peak >> 20);
        ++cases;
    }
    free(manifest);
    printf("  %d fuzz regression inputs\n", cases);
    CHECK(cases >= 1);
}

int main(void)
{
    size_t len = 0;
    char *manifest = test_read_file(VKMD_TEST_BROKEN_DIR "/MANIFEST", &len);
    CHECK(manifest != NULL);
    if (!manifest)
        return test_finish("test_io_broken");
    int cases = 0, lineno = 0;
    for (char *line = strtok(manifest, "\n"); line; line = strtok(NULL, "\n")) {
        ++lineno;
        while (*line == ' ')
            ++line;
        if (*line == '#' || *line == '\0')
            continue;
        char sys_name[256], crd_name[256], code_name[64];
        int used = 0;
        if (sscanf(line, "%255s %255s %63s %n", sys_name, crd_name, code_name, &used) != 3 ||
            !line[used]) {
            CHECK_MSG(0, "MANIFEST line %d: expected 'system coords result message'", lineno);
            continue;
        }
        const char *want_msg = line + used;
        vkmd_result want;
        if (!code_by_name(code_name, &want)) {
            CHECK_MSG(0, "MANIFEST line %d: unknown result %s", lineno, code_name);
            continue;
        }
        char sys_path[600], crd_path[600];
        int is_spec = strncmp(sys_name, "water:", 6) == 0;
        snprintf(sys_path, sizeof sys_path, "%s%s%s", is_spec ? "" : VKMD_TEST_BROKEN_DIR,
                 is_spec ? "" : "/", sys_name);
        int has_crd = strcmp(crd_name, "-") != 0;
        snprintf(crd_path, sizeof crd_path, "%s/%s", VKMD_TEST_BROKEN_DIR, crd_name);
        /* The file the message must name. */
        const char *culprit = has_crd ? base(crd_path) : is_spec ? sys_name : base(sys_path);

        vkmd_system s;
        memset(&s, 0xAB, sizeof s); /* must come back zeroed */
        vkmd_error_clear();
        vkmd_result got = vkmd_system_load(sys_path, has_crd ? crd_path : NULL, &s);
        const char *msg = vkmd_last_error();
        int ok = got == want && strstr(msg, want_msg) != NULL && strstr(msg, culprit) != NULL;
        printf("  %-4s %-22s %-22s -> %s: %s\n", ok ? "ok" : "FAIL", sys_name, crd_name,
               vkmd_result_str(got), msg);
        CHECK_MSG(got == want, "%s: got %s, expected %s", sys_name, vkmd_result_str(got),
                  vkmd_result_str(want));
        CHECK_MSG(strstr(msg, want_msg) != NULL, "message lacks '%s'", want_msg);
        CHECK_MSG(strstr(msg, culprit) != NULL, "message does not name %s", culprit);
        CHECK(s.atoms == NULL && s.positions == NULL && s.atom_count == 0);
        if (got == VKMD_OK)
            vkmd_system_destroy(&s);
        ++cases;
    }
    free(manifest);
    printf("  %d broken inputs\n", cases);
    CHECK(cases >= 19);
    fuzz_regressions();
    return test_finish("test_io_broken");
}
