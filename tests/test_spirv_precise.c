/* The exact arithmetic of the split positions must survive any legal
 * compiler (issue 36): without NoContraction a SPIR-V consumer may contract
 * a * b + c into an fma and reassociate sums, and NVIDIA's does, where
 * lavapipe's did not, so a device test on lavapipe cannot see the
 * difference. This test reads the SPIR-V instead: in every embedded module
 * (engine/vk/spirv.h, build variants included), every floating-point
 * operation of every function defined in shaders/common/box.glsl,
 * positions.glsl and two_sum.glsl carries the NoContraction decoration
 * (GLSL `precise`), and none of them calls fma() (GLSL.std.450 Fma, which
 * Vulkan lets round twice). Every helper those files define must be in some
 * module, so that none escapes the audit. Needs no device.
 *
 * Operations checked: OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod, the
 * vector and matrix products and OpDot (which glslang never decorates: the
 * helpers write their dot products out). OpFNegate is exact and is left out
 * (glslang leaves it undecorated; the product it may negate is checked). */
#include "testlib.h"
#include "vk/spirv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HELPERS 64

enum {
    OP_EXT_INST_IMPORT = 11,
    OP_EXT_INST = 12,
    OP_NAME = 5,
    OP_FUNCTION = 54,
    OP_FUNCTION_END = 56,
    OP_DECORATE = 71,
    DECORATION_NO_CONTRACTION = 42,
    GLSL_STD_450_FMA = 50,
};

static const char *const files[] = {"box.glsl", "positions.glsl", "two_sum.glsl"};

typedef struct helper {
    char name[64];
    const char *file;
    int modules; /* modules holding it */
    int ops;     /* floating-point operations checked, over every module */
} helper;

static helper helpers[MAX_HELPERS];
static int helper_count;

static int float_op(uint32_t op)
{
    switch (op) {
    case 129: /* OpFAdd */
    case 131: /* OpFSub */
    case 133: /* OpFMul */
    case 136: /* OpFDiv */
    case 140: /* OpFRem */
    case 141: /* OpFMod */
    case 142: /* OpVectorTimesScalar */
    case 143: /* OpMatrixTimesScalar */
    case 144: /* OpVectorTimesMatrix */
    case 145: /* OpMatrixTimesVector */
    case 146: /* OpMatrixTimesMatrix */
    case 147: /* OpOuterProduct */
    case 148: /* OpDot */
        return 1;
    default:
        return 0;
    }
}

/* The functions defined at column 0 of shaders/common/FILE ("type name(").
 */
static void read_helpers(const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/common/%s", VKMD_TEST_SHADER_DIR, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL: cannot read %s\n", path);
        ++test_failures;
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!isalpha((unsigned char)line[0]))
            continue;
        const char *sp = strchr(line, ' '), *paren = strchr(line, '(');
        if (!sp || !paren || paren < sp)
            continue;
        const char *name = sp + 1;
        size_t len = (size_t)(paren - name);
        int ok = len > 0 && len < sizeof helpers[0].name;
        for (size_t i = 0; ok && i < len; ++i)
            ok = isalnum((unsigned char)name[i]) || name[i] == '_';
        if (!ok)
            continue;
        int seen = 0;
        for (int h = 0; h < helper_count; ++h)
            seen = seen || (strlen(helpers[h].name) == len && !strncmp(helpers[h].name, name, len));
        if (seen || helper_count == MAX_HELPERS)
            continue;
        memcpy(helpers[helper_count].name, name, len);
        helpers[helper_count].name[len] = '\0';
        helpers[helper_count].file = file;
        ++helper_count;
    }
    fclose(f);
}

/* The helper an OpName string names ("pos_sub(struct-vkmd_pos-...;"), or -1. */
static int helper_of(const char *debug_name)
{
    const char *paren = strchr(debug_name, '(');
    if (!paren)
        return -1;
    size_t len = (size_t)(paren - debug_name);
    for (int h = 0; h < helper_count; ++h)
        if (strlen(helpers[h].name) == len && !strncmp(helpers[h].name, debug_name, len))
            return h;
    return -1;
}

/* Audits one module; returns the operations that miss the decoration. */
static int audit(const vkmd_spirv *m)
{
    const uint32_t *w = m->code;
    const size_t n = m->size / 4;
    if (n < 5 || w[0] != 0x07230203u) {
        printf("FAIL: %s is not SPIR-V\n", m->name);
        ++test_failures;
        return 0;
    }
    const uint32_t bound = w[3];
    int *helper_by_id = malloc(sizeof *helper_by_id * bound);
    unsigned char *no_contraction = calloc(bound, 1);
    for (uint32_t i = 0; i < bound; ++i)
        helper_by_id[i] = -1;
    uint32_t glsl_std = 0;
    /* First pass: names, decorations, the GLSL.std.450 import. */
    for (size_t i = 5; i < n;) {
        const uint32_t count = w[i] >> 16, op = w[i] & 0xFFFFu;
        if (count == 0 || i + count > n)
            break;
        if (op == OP_NAME && count > 2 && w[i + 1] < bound)
            helper_by_id[w[i + 1]] = helper_of((const char *)&w[i + 2]);
        else if (op == OP_DECORATE && count > 2 && w[i + 2] == DECORATION_NO_CONTRACTION &&
                 w[i + 1] < bound)
            no_contraction[w[i + 1]] = 1;
        else if (op == OP_EXT_INST_IMPORT && count > 2 &&
                 !strcmp((const char *)&w[i + 2], "GLSL.std.450"))
            glsl_std = w[i + 1];
        i += count;
    }
    /* Second pass: the bodies of the helpers. */
    int missing = 0, current = -1;
    int in_module[MAX_HELPERS] = {0};
    for (size_t i = 5; i < n;) {
        const uint32_t count = w[i] >> 16, op = w[i] & 0xFFFFu;
        if (count == 0 || i + count > n)
            break;
        if (op == OP_FUNCTION && count > 2 && w[i + 2] < bound) {
            current = helper_by_id[w[i + 2]];
            if (current >= 0)
                in_module[current] = 1;
        } else if (op == OP_FUNCTION_END) {
            current = -1;
        } else if (current >= 0 && float_op(op) && count > 2) {
            ++helpers[current].ops;
            if (!no_contraction[w[i + 2]]) {
                if (missing < 3)
                    printf("  %s: %s (%s): opcode %u, result %%%u without NoContraction\n", m->name,
                           helpers[current].name, helpers[current].file, op, w[i + 2]);
                ++missing;
            }
        } else if (current >= 0 && op == OP_EXT_INST && count > 4 && w[i + 3] == glsl_std &&
                   w[i + 4] == GLSL_STD_450_FMA) {
            printf("  %s: %s (%s) calls fma()\n", m->name, helpers[current].name,
                   helpers[current].file);
            ++missing;
        }
        i += count;
    }
    for (int h = 0; h < helper_count; ++h)
        helpers[h].modules += in_module[h];
    free(helper_by_id);
    free(no_contraction);
    return missing;
}

int main(void)
{
    for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f)
        read_helpers(files[f]);
    printf("%d helpers defined in shaders/common/{box,positions,two_sum}.glsl\n", helper_count);
    CHECK(helper_count >= 10);
    int modules = 0, missing = 0, bad_modules = 0;
    for (const vkmd_spirv *m = vkmd_spirv_all(); m->name; ++m) {
        const int miss = audit(m);
        missing += miss;
        bad_modules += miss > 0;
        ++modules;
    }
    for (int h = 0; h < helper_count; ++h) {
        printf("  %-26s %-15s in %2d modules, %4d floating-point operations\n", helpers[h].name,
               helpers[h].file, helpers[h].modules, helpers[h].ops);
        if (helpers[h].modules == 0) {
            printf("FAIL: %s (%s) is compiled into no module, so the audit cannot see it\n",
                   helpers[h].name, helpers[h].file);
            ++test_failures;
        }
    }
    printf("%d modules; operations without NoContraction (or fma calls): %d in %d modules\n",
           modules, missing, bad_modules);
    CHECK(missing == 0);
    return test_finish("test_spirv_precise");
}
