/* Shared window options; see window_options.h. */
#include "window_options.h"

#include "core/options.h"
#include "vk/check.h"

#include <stdio.h>
#include <string.h>

int window_options_parse(int argc, char **argv, int *i, window_options *o, vkmd_result *r)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--no-window")) {
        o->no_window = 1;
        return 1;
    }
    if (strcmp(a, "--screenshot") && strcmp(a, "--color") && strcmp(a, "--frames") &&
        strcmp(a, "--steps-per-frame"))
        return 0;
    const char *v = vkmd_option_value(argc, argv, i);
    if (!v) {
        *r = VKMD_ERROR_INVALID_ARGUMENT;
    } else if (!strcmp(a, "--screenshot")) {
        o->screenshot = v;
    } else if (!strcmp(a, "--color")) {
        o->color = v;
        if (vkmd_viewer_color_mode(v) < 0)
            *r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                           "--color: '%s' is not element, velocity, force or replica", v);
    } else {
        *r = vkmd_option_int(a, v, 1, 100000000,
                             !strcmp(a, "--frames") ? &o->frames : &o->steps_per_frame);
    }
    return 1;
}

vkmd_result window_options_check(const window_options *o)
{
    if (o->screenshot && o->frames <= 0)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "--screenshot needs --frames N");
    if ((o->screenshot || o->frames > 0) && o->no_window)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "--screenshot and --frames need a window (no --no-window)");
    return VKMD_OK;
}

vkmd_result window_options_open(const char *cmd, const window_options *o, vkmd_viewer_desc desc,
                                uint32_t default_color, vkmd_vk_context_desc *cd, vkmd_viewer **out)
{
    *out = NULL;
    if (o->no_window)
        return VKMD_OK;
    desc.steps_per_frame = o->steps_per_frame;
    desc.screenshot_path = o->screenshot;
    desc.frames = o->frames;
    desc.color_mode = o->color ? (uint32_t)vkmd_viewer_color_mode(o->color) : default_color;
    if (vkmd_viewer_open(&desc, out) == VKMD_OK) {
        vkmd_viewer_context_desc(*out, cd);
        return VKMD_OK;
    }
    if (o->screenshot || o->frames > 0)
        return vkmd_vk_fail_prefix(VKMD_ERROR_UNSUPPORTED, "--screenshot/--frames need a window");
    fprintf(stderr, "vkmd %s: %s; running headless\n", cmd, vkmd_last_error());
    return VKMD_OK;
}
