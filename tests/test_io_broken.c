/* Every broken input in tests/broken/MANIFEST is loaded with
 * vkmd_system_load: the result code must be the expected one and the message
 * must contain the expected text and name the broken file. Also checks that a
 * failed load leaves the output system zeroed. */
#include "io/load.h"
#include "testlib.h"

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
    return test_finish("test_io_broken");
}
