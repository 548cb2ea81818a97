/* The energy report (forces/energy_report.h): the text table and the JSON
 * object of a non-periodic system computed on the CPU reference (no
 * precision choice), every term under its key with its value, and the
 * forces file's header and one line per atom. */
#include "forces/energy_report.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR "/forces_energy_report"

static void report(const vkmd_energy_report_desc *d, const vkmd_system *sys,
                   const vkmd_ff_settings *s, const vkmd_energy *e, char *text, size_t size)
{
    FILE *out = tmpfile();
    CHECK(out != NULL);
    CHECK_OK(vkmd_energy_report_write(out, d, sys, s, e));
    rewind(out);
    const size_t len = fread(text, 1, size - 1, out);
    text[len] = 0;
    fclose(out);
    printf("%s", text);
}

int main(void)
{
    vkmd_system sys;
    memset(&sys, 0, sizeof sys);
    double positions[3] = {0, 0, 0};
    sys.atom_count = 1;
    sys.positions = positions;
    vkmd_ff_settings s;
    memset(&s, 0, sizeof s);
    vkmd_energy e;
    memset(&e, 0, sizeof e);
    e.bond = 1.5;
    e.lj = -2.25;
    e.total = -0.75;
    vkmd_energy_report_desc d = {.system = "two \"atoms\"", .device = "cpu (double)"};
    char text[8192];
    report(&d, &sys, &s, &e, text, sizeof text);
    CHECK(strstr(text, "vkmd energy: two \"atoms\", 1 atoms, device cpu (double)\n") == text);
    CHECK(strstr(text, "no periodic box: no cutoff") != NULL);
    CHECK(strstr(text, "bond                                       1.500000\n") != NULL);
    CHECK(strstr(text, "total                                     -0.750000\n") != NULL);

    d.json = 1;
    report(&d, &sys, &s, &e, text, sizeof text);
    CHECK(strstr(text, "\"system\": \"two \\\"atoms\\\"\"") != NULL);
    CHECK(strstr(text, "\"lj\": -2.2500000000,\n") != NULL);
    CHECK(strstr(text, "\"cutoff_a\": null") != NULL);
    CHECK(strstr(text, "\"precision\": \"double\"") != NULL);
    CHECK(text[strlen(text) - 2] == '}');

    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", GEN);
    CHECK(system(cmd) == 0);
    const double forces[3] = {1, -2, 0.5};
    CHECK_OK(vkmd_energy_report_write_forces(GEN "/forces.txt", "cpu", &sys, forces));
    FILE *f = fopen(GEN "/forces.txt", "r");
    CHECK(f != NULL);
    const size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[len] = 0;
    if (f)
        fclose(f);
    CHECK(!strcmp(text, "# vkmd forces, 1 atoms, units kcal/mol/A, device cpu\n# atom fx fy fz\n"
                        "1 1.0000000000e+00 -2.0000000000e+00 5.0000000000e-01\n"));
    CHECK(vkmd_energy_report_write_forces("/nonexistent/dir/f.txt", "cpu", &sys, forces) ==
          VKMD_ERROR_IO);
    return test_finish("forces_energy_report");
}
