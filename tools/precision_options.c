/* Shared precision options (see precision_options.h). */
#include "precision_options.h"
#include "args.h"
#include "forces/positions.h"

#include <stdio.h>
#include <string.h>

vkmd_result precision_options_parse(precision_options *o, int argc, char **argv, int *i,
                                    int *out_handled)
{
    const char *a = argv[*i], *v = NULL;
    *out_handled = 1;
    if (!strcmp(a, "--precision")) {
        if (!(v = args_value(argc, argv, i)))
            return VKMD_ERROR_INVALID_ARGUMENT;
        return vkmd_precision_parse(v, &o->precision);
    }
    if (!strcmp(a, "--positions")) {
        if (!(v = args_value(argc, argv, i)))
            return VKMD_ERROR_INVALID_ARGUMENT;
        return vkmd_positions_mode_parse(v, &o->positions);
    }
    if (!strcmp(a, "--nonbonded")) {
        if (!(v = args_value(argc, argv, i)))
            return VKMD_ERROR_INVALID_ARGUMENT;
        o->lj_set = 1;
        return args_nonbonded(a, v, &o->lj, &o->lj_min_r_a);
    }
    *out_handled = 0;
    return VKMD_OK;
}

vkmd_precision_request precision_options_request(const precision_options *o)
{
    return (vkmd_precision_request){.precision = o->precision,
                                    .positions_set = o->positions >= 0,
                                    .positions = o->positions,
                                    .lj_set = o->lj_set,
                                    .lj = o->lj,
                                    .lj_min_r_a = o->lj_min_r_a};
}

vkmd_result precision_options_resolve(const precision_options *o, vkmd_vk_context *ctx,
                                      const vkmd_system *sys, vkmd_ff_settings *s,
                                      vkmd_precision_choice *out)
{
    const vkmd_precision_request req = precision_options_request(o);
    return vkmd_precision_resolve(&req, ctx, sys, s, out);
}
