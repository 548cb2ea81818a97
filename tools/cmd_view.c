/* vkmd view: shows a structure, or plays a trajectory, in the viewer
 * window. The system is what `vkmd run` takes (an AMBER prmtop or water:N,
 * with --coords) or a small molecule (SDF/MOL, XYZ or a built-in name: its
 * conformers play as frames). Frames come made whole from io/frame_source.h
 * and are uploaded into a positions buffer the window draws from, as it
 * draws a running simulation's. */
#include "core/options.h"
#include "commands.h"
#include "io/frame_source.h"
#include "viewer_play.h"
#include "vk/context.h"
#include "window_options.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd view SYSTEM [options]\n"
            "  SYSTEM               AMBER prmtop, water:N, or a molecule: .sdf/.mol/.xyz or a\n"
            "                       built-in name (formic-acid, xylitol); conformers play as\n"
            "                       frames\n"
            "  --coords FILE        coordinates for a prmtop (inpcrd, rst7, ncrst or pdb)\n"
            "  --traj FILE          play this trajectory, DCD or AMBER NetCDF (e.g. vkmd run's\n"
            "                       traj.dcd or --traj traj.nc); loops\n"
            "  --every N            with --traj: advance N frames per drawn frame (default 1)\n"
            "  --color MODE         element (default) or replica (velocity and force colours\n"
            "                       need a running simulation: vkmd run)\n"
            "  --screenshot FILE    write FILE (PNG) after --frames frames, then exit\n"
            "  --frames N           draw N frames, then exit\n"
            "  --device gpu|N|NAME  Vulkan device (default: the best one)\n"
            "Keys: space pause, . next frame, c colour, w water, b box, r vdW/balls, p\n"
            "screenshot, f reset view, v show/hide extra points (virtual sites, small cyan\n"
            "spheres), ? help, Esc quit. Mouse: orbit, pan, zoom.\n");
}

int cmd_view(int argc, char **argv)
{
    const char *system = NULL, *coords = NULL, *traj = NULL, *device = NULL;
    window_options win = {0};
    int every = 1;
    vkmd_result r = VKMD_OK;
    const vkmd_option opts[] = {
        VKMD_OPT_STRING("--coords", &coords), VKMD_OPT_STRING("--traj", &traj),
        VKMD_OPT_STRING("--device", &device), VKMD_OPT_INT("--every", &every, 1, 100000000)};
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i];
        if (vkmd_options_parse(argc, argv, &i, opts, VKMD_ARRAY_LEN(opts), &r))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--no-window") && strcmp(a, "--steps-per-frame") &&
                   window_options_parse(argc, argv, &i, &win, &r)) {
            /* --color, --screenshot, --frames */
        } else if (a[0] == '-' && a[1]) {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
        } else if (!system) {
            system = a;
        } else {
            r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "unexpected argument '%s'", a);
        }
    }
    if (r == VKMD_OK && !system)
        r = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "no SYSTEM given (see --help)");
    if (r == VKMD_OK)
        r = window_options_check(&win);
    if (r != VKMD_OK) {
        tool_error("view", r);
        return 2;
    }

    vkmd_result res = VKMD_OK;
    int exit_code = 1;
    vkmd_frame_source fs = {0};
    vkmd_viewer *view = NULL;
    vkmd_vk_context *ctx = NULL;
    vkmd_viewer_player player = {0};
    VKMD_TRY(vkmd_frame_source_open(system, coords, traj, &fs));
    if (fs.mol_count > 1)
        fprintf(stderr, "vkmd view: %s holds %d molecules; showing the first\n", system,
                fs.mol_count);

    /* The window is the point of vkmd view: no display is an error here. */
    const vkmd_viewer_desc vd = {.title = traj ? traj : system,
                                 .steps_per_frame = every,
                                 .screenshot_path = win.screenshot,
                                 .frames = win.frames,
                                 .unit_label = "FRAME",
                                 .color_mode =
                                     win.color ? (uint32_t)vkmd_viewer_color_mode(win.color) : 0};
    VKMD_TRY(vkmd_viewer_open(&vd, &view));
    vkmd_vk_context_desc cd = {.device = device && strcmp(device, "gpu") ? device : NULL};
    vkmd_viewer_context_desc(view, &cd);
    VKMD_TRY(vkmd_vk_context_create(&cd, &ctx));
    VKMD_TRY(vkmd_viewer_play(view, ctx, &fs, &player));
    fprintf(stderr, "vkmd view: %lld frames drawn of %d trajectory frames\n",
            (long long)vkmd_viewer_frames(view), fs.frame_count);
    vkmd_viewer_close(view, ctx); /* first, so its teardown is validated too */
    view = NULL;
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
    exit_code = 0;
cleanup:
    if (exit_code != 0)
        tool_error("view", res);
    vkmd_viewer_close(view, ctx);
    vkmd_viewer_player_free(ctx, &player);
    vkmd_vk_context_destroy(ctx);
    vkmd_frame_source_close(&fs);
    return exit_code;
}
