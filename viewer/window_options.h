/* The window options of every client that shows a run in the viewer (vkmd
 * run, vkmd view and vkmd uff md; --no-window, --steps-per-frame, --color,
 * --screenshot, --frames) and opening the viewer for them: a window when
 * there is a display, else headless with a message, or an error when the
 * options need a window. The policy of when a window opens lives here, with
 * the window, so every client behaves alike. */
#ifndef VKMD_VIEWER_WINDOW_OPTIONS_H
#define VKMD_VIEWER_WINDOW_OPTIONS_H

#include "viewer.h"

typedef struct window_options {
    int no_window;          /* --no-window */
    int steps_per_frame;    /* --steps-per-frame N (0: the viewer's default) */
    int frames;             /* --frames N (0: until closed) */
    const char *screenshot; /* --screenshot FILE (needs --frames) */
    const char *color;      /* --color element|velocity|force|replica (NULL: default) */
} window_options;

/* If argv[*i] is one of the options, consumes it (and its value, advancing
 * *i) and returns 1, with *r set on a bad value; else returns 0. */
int window_options_parse(int argc, char **argv, int *i, window_options *o, vkmd_result *r);

/* Checks the combination (--screenshot needs --frames and a window). */
vkmd_result window_options_check(const window_options *o);

/* Opens the viewer for `o` (desc: the caller's title, labels, directory;
 * the options' fields are filled in here; default_color when --color is not
 * given) and adds what the window needs to *cd. *out stays NULL when there
 * is no window: with --no-window silently, without a display with a line on
 * stderr naming `cmd`, and with --screenshot/--frames as an error. */
vkmd_result window_options_open(const char *cmd, const window_options *o, vkmd_viewer_desc desc,
                                uint32_t default_color, vkmd_vk_context_desc *cd,
                                vkmd_viewer **out);

#endif
