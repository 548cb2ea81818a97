/* vkmd view: shows a structure, or plays a trajectory, in the viewer
 * window. The system is what `vkmd run` takes (an AMBER prmtop or water:N,
 * with --coords) or a small molecule (SDF/MOL, XYZ or a built-in name: its
 * conformers play as frames). Frames are made whole (molecules unbroken
 * across the box) on the host and uploaded into a positions buffer the
 * window draws from, as it draws a running simulation's. */
#include "args.h"
#include "commands.h"
#include "io/dcd.h"
#include "io/uff_load.h"
#include "io/load.h"
#include "system/molecule_system.h"
#include "system/molecules.h"
#include "system/uff_molecule.h"
#include "vk/buffer.h"
#include "vk/check.h"
#include "vk/context.h"
#include "window_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vkmd view SYSTEM [options]\n"
            "  SYSTEM               AMBER prmtop, water:N, or a molecule: .sdf/.mol/.xyz or a\n"
            "                       built-in name (formic-acid, xylitol); conformers play as\n"
            "                       frames\n"
            "  --coords FILE        coordinates for a prmtop (inpcrd, rst7 or pdb)\n"
            "  --traj FILE.dcd      play this trajectory (e.g. vkmd run's traj.dcd); loops\n"
            "  --every N            with --traj: advance N frames per drawn frame (default 1)\n"
            "  --color MODE         element (default) or replica (velocity and force colours\n"
            "                       need a running simulation: vkmd run)\n"
            "  --screenshot FILE    write FILE (PNG) after --frames frames, then exit\n"
            "  --frames N           draw N frames, then exit\n"
            "  --device gpu|N|NAME  Vulkan device (default: the best one)\n"
            "Keys: space pause, . next frame, c colour, w water, b box, r vdW/balls, p\n"
            "screenshot, f reset view, ? help, Esc quit. Mouse: orbit, pan, zoom.\n");
}

int cmd_view(int argc, char **argv)
{
    const char *system = NULL, *coords = NULL, *traj = NULL, *device = NULL;
    window_options win = {0};
    int every = 1;
    vkmd_result r = VKMD_OK;
    for (int i = 1; i < argc && r == VKMD_OK; ++i) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--coords")) {
            ARGS_VALUE();
            coords = v;
        } else if (!strcmp(a, "--traj")) {
            ARGS_VALUE();
            traj = v;
        } else if (!strcmp(a, "--device")) {
            ARGS_VALUE();
            device = v;
        } else if (!strcmp(a, "--every")) {
            ARGS_VALUE();
            if (v)
                r = args_int(a, v, 1, 100000000, &every);
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
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    vkmd_uff_molecule *mols = NULL;
    int32_t mol_count = 0;
    vkmd_dcd_reader *dcd = NULL;
    vkmd_dcd_info info;
    memset(&info, 0, sizeof info);
    vkmd_molecules molecules;
    memset(&molecules, 0, sizeof molecules);
    vkmd_viewer *view = NULL;
    vkmd_vk_context *ctx = NULL;
    vkmd_vk_buffer pos;
    memset(&pos, 0, sizeof pos);
    double *xyz = NULL;
    float *x4 = NULL;

    const int molecule = vkmd_uff_molecule_spec(system);
    int32_t frame_count = 1;
    if (molecule) {
        VKMD_TRY(vkmd_uff_molecule_load(system, &mols, &mol_count));
        VKMD_TRY(vkmd_system_from_uff_molecule(&mols[0], 1, NULL, &sys));
        frame_count = mols[0].conformer_count;
        if (mol_count > 1)
            fprintf(stderr, "vkmd view: %s holds %d molecules; showing the first\n", system,
                    mol_count);
    } else {
        VKMD_TRY(vkmd_system_load(system, coords, &sys));
        if (!sys.positions && !traj) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                            "%s: no coordinates (give --coords or --traj)", system);
            goto cleanup;
        }
    }
    if (traj) {
        VKMD_TRY(vkmd_dcd_read_info(traj, &info));
        if (info.atom_count != sys.atom_count) {
            res = vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT, "%s: %d atoms per frame, %s has %d", traj,
                            info.atom_count, system, sys.atom_count);
            goto cleanup;
        }
        if (info.frame_count < 1) {
            res = vkmd_fail(VKMD_ERROR_PARSE, "%s: no complete frame", traj);
            goto cleanup;
        }
        VKMD_TRY(vkmd_dcd_reader_open(traj, &dcd));
        frame_count = info.frame_count;
        if (!sys.positions) {
            sys.positions = calloc(3 * (size_t)sys.atom_count, sizeof(double));
            if (!sys.positions) {
                res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "view: out of memory");
                goto cleanup;
            }
        }
        VKMD_TRY(vkmd_dcd_reader_frame(dcd, 0, sys.positions, &sys.box));
    }
    VKMD_TRY(vkmd_molecules_build(&sys, &molecules));

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
    const vkmd_vk_buffer_desc bd = {.size = sizeof(float) * 4 * (size_t)sys.atom_count,
                                    .name = "view positions"};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &bd, &pos));
    xyz = malloc(sizeof *xyz * 3 * (size_t)sys.atom_count);
    x4 = calloc(4 * (size_t)sys.atom_count, sizeof *x4);
    if (!xyz || !x4) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "view: out of memory");
        goto cleanup;
    }
    const vkmd_render_sources src = {.positions = &pos};
    VKMD_TRY(vkmd_viewer_attach(view, ctx, &sys, &src));
    int32_t shown = -1, current = 0;
    for (;;) {
        if (current != shown) {
            if (dcd)
                VKMD_TRY(vkmd_dcd_reader_frame(dcd, current, xyz, &sys.box));
            else if (molecule)
                memcpy(xyz, mols[0].positions + 3 * (size_t)sys.atom_count * (size_t)current,
                       sizeof *xyz * 3 * (size_t)sys.atom_count);
            else
                memcpy(xyz, sys.positions, sizeof *xyz * 3 * (size_t)sys.atom_count);
            if (sys.box.periodic)
                vkmd_molecules_make_whole(&sys, &molecules, xyz);
            for (int32_t i = 0; i < sys.atom_count; ++i)
                for (int k = 0; k < 3; ++k)
                    x4[4 * i + k] = (float)xyz[3 * i + k];
            VKMD_TRY(vkmd_vk_buffer_upload(ctx, &pos, 0, x4, bd.size));
            shown = current;
        }
        vkmd_viewer_hud hud = {
            .step = current + (frame_count > 1 ? 1 : 0),
            .time_ps = dcd ? (double)(info.first_step + (int64_t)current * info.steps_per_frame) *
                                 info.dt_fs * 1e-3
                           : 0,
            .temperature_k = -1};
        char note[96];
        snprintf(note, sizeof note, "%d FRAMES%s", frame_count, dcd ? " (DCD)" : "");
        hud.note = note;
        vkmd_viewer_input in;
        VKMD_TRY(vkmd_viewer_frame(view, ctx, &hud, &in));
        if (in.quit)
            break;
        if (frame_count > 1 && in.steps > 0)
            current = (int32_t)((current + in.steps) % frame_count);
    }
    fprintf(stderr, "vkmd view: %lld frames drawn of %d trajectory frames\n",
            (long long)vkmd_viewer_frames(view), frame_count);
    vkmd_viewer_close(view, ctx); /* first, so its teardown is validated too */
    view = NULL;
    VKMD_TRY(vkmd_vk_context_check_validation(ctx));
    exit_code = 0;
cleanup:
    if (exit_code != 0)
        tool_error("view", res);
    vkmd_viewer_close(view, ctx);
    if (ctx) {
        vkmd_vk_buffer_destroy(ctx, &pos);
        vkmd_vk_context_destroy(ctx);
    }
    vkmd_dcd_reader_close(dcd);
    vkmd_molecules_destroy(&molecules);
    vkmd_uff_molecule_array_free(mols, mol_count);
    vkmd_system_destroy(&sys);
    free(xyz);
    free(x4);
    return exit_code;
}
