/* Progress line for `vkmd run` (see progress_line.h). The bar pads each redraw
 * with spaces to the length of the previous one instead of using an
 * erase-line escape, so it works on any terminal that honours '\r'. */
#include "run/progress_line.h"
#include "core/units.h"
#include "run/run.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void vkmd_progress_init(vkmd_progress *p, const vkmd_progress_desc *desc, double now_s)
{
    memset(p, 0, sizeof *p);
    p->d = *desc;
    if (!p->d.out)
        p->d.out = stderr;
    if (!(p->d.min_interval_s > 0))
        p->d.min_interval_s = 0.2;
    if (p->d.mode == VKMD_PROGRESS_BAR)
        p->bar = 1;
    else if (p->d.mode == VKMD_PROGRESS_LINES)
        p->bar = 0;
    else
        p->bar = isatty(fileno(p->d.out)) ? 1 : 0;
    p->start_s = now_s;
    p->now_s = now_s;
    p->last_draw_s = -1;
    p->step = p->d.first_step;
}

static void format_duration(char *buf, size_t size, double s)
{
    if (!(s >= 0) || s > 1e8) {
        snprintf(buf, size, "--:--");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 86400)
        snprintf(buf, size, "%ldd%02ld:%02ld:%02ld", t / 86400, t / 3600 % 24, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

int vkmd_progress_format(const vkmd_progress *p, char *buf, size_t size)
{
    const int64_t total = p->d.last_step - p->d.first_step;
    const int64_t done = p->step - p->d.first_step;
    double frac = total > 0 ? (double)done / (double)total : 1.0;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    const int64_t left = p->d.last_step - p->step;

    /* Seconds left: from the reported speed, else from the wall time so far. */
    double eta = -1;
    if (left <= 0)
        eta = 0;
    else if (p->ns_per_day > 0 && p->d.dt_fs > 0)
        eta = (double)left * p->d.dt_fs * 1e-6 / p->ns_per_day * 86400.0;
    else if (done > 0 && p->now_s > p->start_s)
        eta = (p->now_s - p->start_s) / (double)done * (double)left;
    char eta_s[32];
    format_duration(eta_s, sizeof eta_s, eta);

    char speed[32] = "-- ns/day";
    if (p->ns_per_day > 0)
        snprintf(speed, sizeof speed, "%.1f ns/day", p->ns_per_day);
    char temp[32] = "T -- K";
    if (isfinite(p->temperature_k) && p->temperature_k > 0)
        snprintf(temp, sizeof temp, "T %.1f K", p->temperature_k);

    int n = 0;
    if (p->bar) {
        enum { WIDTH = 24 };
        char bar[WIDTH + 1];
        int filled = (int)(frac * WIDTH + 1e-9);
        for (int i = 0; i < WIDTH; ++i)
            bar[i] = i < filled ? '#' : '.';
        bar[WIDTH] = '\0';
        n = snprintf(buf, size, "[%s] %5.1f%%  step %lld/%lld  %s  %s  ETA %s", bar, 100 * frac,
                     (long long)p->step, (long long)p->d.last_step, speed, temp, eta_s);
    } else {
        n = snprintf(buf, size, "step %lld/%lld (%.1f%%)  %.3f ps  %s  %s  ETA %s",
                     (long long)p->step, (long long)p->d.last_step, 100 * frac,
                     (double)p->step * p->d.dt_fs / VKMD_FS_PER_PS, speed, temp, eta_s);
    }
    return n < 0 ? 0 : n >= (int)size ? (int)size - 1 : n;
}

static void draw(vkmd_progress *p)
{
    char line[256];
    int n = vkmd_progress_format(p, line, sizeof line);
    if (p->bar) {
        /* Blank what a longer previous line left behind. */
        int pad = p->drawn_len > n ? p->drawn_len - n : 0;
        fprintf(p->d.out, "\r%s%*s", line, pad, "");
        p->drawn_len = n;
        p->last_draw_s = p->now_s;
    } else {
        fprintf(p->d.out, "%s\n", line);
    }
    fflush(p->d.out);
    p->pending = 0;
}

void vkmd_progress_update(vkmd_progress *p, int64_t step, double ns_per_day, double temperature_k,
                          double now_s)
{
    p->step = step;
    p->ns_per_day = ns_per_day;
    p->temperature_k = temperature_k;
    p->now_s = now_s;
    p->pending = 1;
    if (p->bar && step < p->d.last_step && p->last_draw_s >= 0 &&
        now_s - p->last_draw_s < p->d.min_interval_s)
        return;
    draw(p);
}

void vkmd_progress_finish(vkmd_progress *p)
{
    if (p->pending)
        draw(p);
    if (p->bar && p->drawn_len > 0) {
        fputc('\n', p->d.out);
        fflush(p->d.out);
        p->drawn_len = 0;
    }
}

vkmd_reporter vkmd_progress_reporter_make(vkmd_progress_reporter *p, const char *prefix)
{
    *p = (vkmd_progress_reporter){.prefix = prefix};
    return (vkmd_reporter){.user = p,
                           .begin = vkmd_progress_reporter_begin,
                           .report = vkmd_progress_reporter_report,
                           .note = vkmd_progress_reporter_note};
}

vkmd_result vkmd_progress_reporter_begin(void *user, const vkmd_run_info *info)
{
    vkmd_progress_reporter *p = user;
    const vkmd_progress_desc pd = {.last_step = info->desc->steps > 0 ? info->desc->steps : 1,
                                   .dt_fs = info->desc->md.dt_fs};
    vkmd_progress_init(&p->prog, &pd, vkmd_clock_now_s());
    p->on = 1;
    return VKMD_OK;
}

vkmd_result vkmd_progress_reporter_report(void *user, const vkmd_run_sample *s)
{
    vkmd_progress_reporter *p = user;
    if (s->start)
        return VKMD_OK;
    p->on = 1;
    vkmd_progress_update(&p->prog, s->step, s->ns_per_day, s->report->temperature_k,
                         vkmd_clock_now_s());
    return VKMD_OK;
}

void vkmd_progress_reporter_note(void *user, const char *text)
{
    vkmd_progress_reporter *p = user;
    if (p->on)
        vkmd_progress_finish(&p->prog);
    p->on = 0;
    if (text)
        fprintf(stderr, "%s: %s\n", p->prefix, text);
}
