/* Fuzzes the command line's value parsers (core/options.c, and
 * system/ff_settings.c's --nonbonded): every helper that
 * turns an option's text into a number or a list, and the table-driven
 * option loop over an argv made of the input's NUL-separated words. */
#include "fuzz_input.h"
#include "core/options.h"
#include "system/ff_settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_input_string(data, size);
    if (!s)
        return 0;
    double d = 0;
    int64_t w = 0;
    int iv = 0, fp16 = 0, grid[3], count = 0;
    double list[16];
    (void)vkmd_option_double("--dt", s, 0.01, 10, &d);
    (void)vkmd_option_whole("--steps", s, -1, &w);
    (void)vkmd_option_int("--seed", s, -2147483647L, 2147483647L, &iv);
    (void)vkmd_lj_option_parse("--nonbonded", s, &fp16, &d);
    (void)vkmd_option_grid("--pme-grid", s, grid);
    (void)vkmd_option_list("--replicas", s, 1, 1e7, list, 16, &count);

    /* argv: "vkmd" then the input's NUL-separated words (at most 32). */
    char *argv[34] = {"vkmd"};
    int argc = 1;
    for (size_t k = 0; k <= size && argc < 33; ++k) {
        argv[argc++] = s + k;
        while (k < size && s[k])
            ++k;
    }
    argv[argc] = NULL;
    int flag = 0, integer = 0, choice = 0;
    double real = 0;
    int64_t whole = 0;
    const char *str = NULL;
    const vkmd_option opts[] = {
        VKMD_OPT_FLAG("--flag", &flag),
        VKMD_OPT_DOUBLE("--dt", &real, 0.01, 10),
        VKMD_OPT_INT("--int", &integer, -5, 5),
        VKMD_OPT_WHOLE("--steps", &whole, -1),
        VKMD_OPT_STRING("--out", &str),
        VKMD_OPT_CHOICE("--integrator", &choice, "langevin|verlet|brownian"),
    };
    for (int i = 1; i < argc; ++i) {
        vkmd_result r = VKMD_OK;
        if (!vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r))
            continue;
        if (r != VKMD_OK)
            break;
    }
    free(s);
    return 0;
}
