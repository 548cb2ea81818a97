/* Positional restraints on the CPU reference, and their selection:
 * - hand cases: E = k |d|^2 and its force, the flat bottom (zero inside,
 *   k (|d| - r_fb)^2 beyond), the minimum image across the box, forces
 *   against central finite differences;
 * - OpenMM: ref_restraints against OpenMM's Reference platform
 *   (CustomExternalForce, tests/oracles/openmm_restraint.py, data committed in
 *   tests/data/restraint_*.openmm.txt) within 1e-6 relative, energy and
 *   forces; the case's AMBER mask must select OpenMM's atoms exactly;
 * - AMBER masks: a table of masks with their atom counts on villin_vac and
 *   water_nacl, malformed masks with their messages;
 * - atom-list files: ranges and comments, and broken files naming path:line. */
#include "io/atom_list.h"
#include "io/load.h"
#include "io/restraint_spec.h"
#include "ref/ref.h"
#include "system/amber_mask.h"
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hand_cases(void)
{
    const vkmd_box box = {.periodic = 1, .len = {10, 12, 14}};
    const vkmd_box vac = {0};
    /* atom 1 of 2 restrained; r0 across the x boundary: d = (0.5, -0.2, 0.1) */
    double x[6] = {0, 0, 0, 9.8, 3.0, 4.0};
    int32_t atoms[1] = {1};
    double ref[3] = {-0.7, 3.2, 3.9};
    vkmd_restraints r = {.count = 1, .atoms = atoms, .ref = ref, .k = 10, .flat_bottom_a = 0};
    double f[6] = {0};
    double e = ref_restraints(&r, &box, x, f);
    check_close("harmonic, periodic image: E = k |d|^2", e, 10 * (0.25 + 0.04 + 0.01), 1e-12, 0);
    check_close("force x = -2 k d_x", f[3], -2 * 10 * 0.5, 1e-12, 0);
    check_close("force y", f[4], 2 * 10 * 0.2, 1e-12, 0);
    CHECK(f[0] == 0 && f[1] == 0 && f[2] == 0);
    /* vacuum: the plain difference (10.5 A in x) */
    memset(f, 0, sizeof f);
    e = ref_restraints(&r, &vac, x, f);
    check_close("harmonic, vacuum: plain difference", e, 10 * (10.5 * 10.5 + 0.04 + 0.01), 1e-12,
                0);
    /* flat bottom: inside, zero; outside k (|d| - r_fb)^2 */
    r.flat_bottom_a = 0.6;
    memset(f, 0, sizeof f);
    e = ref_restraints(&r, &box, x, f);
    CHECK(e == 0 && f[3] == 0 && f[4] == 0 && f[5] == 0);
    r.flat_bottom_a = 0.25;
    e = ref_restraints(&r, &box, x, NULL);
    const double dl = sqrt(0.3);
    check_close("flat bottom: k (|d| - r_fb)^2", e, 10 * (dl - 0.25) * (dl - 0.25), 1e-12, 0);
    /* finite differences, harmonic and flat bottom */
    for (int fb = 0; fb < 2; ++fb) {
        r.flat_bottom_a = fb ? 0.25 : 0;
        memset(f, 0, sizeof f);
        ref_restraints(&r, &box, x, f);
        double worst = 0;
        for (int c = 3; c < 6; ++c) {
            const double h = 1e-5, keep = x[c];
            x[c] = keep + h;
            double ep = ref_restraints(&r, &box, x, NULL);
            x[c] = keep - h;
            double em = ref_restraints(&r, &box, x, NULL);
            x[c] = keep;
            worst = fmax(worst, fabs(-(ep - em) / (2 * h) - f[c]));
        }
        printf("  finite differences (%s): max |F - (-dE/dx)| = %.2g kcal/mol/A\n",
               fb ? "flat bottom" : "harmonic", worst);
        CHECK(worst < 1e-6);
    }
}

/* The OpenMM case file `name`: mask selection, energy and forces. */
static void openmm_case(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/restraint_%s.openmm.txt", VKMD_TEST_DATA_DIR, name);
    FILE *fp = fopen(path, "r");
    CHECK_MSG(fp != NULL, "%s missing (run tests/oracles/openmm_restraint.py)", path);
    if (!fp)
        return;
    char line[512], sysname[512] = "", mask[512] = "";
    double k = 0, rfb = 0, e_omm = 0;
    int n_ref = 0, n_f = 0;
    int32_t *atoms = NULL;
    double *refs = NULL, *f_omm = NULL;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "system ", 7))
            snprintf(sysname, sizeof sysname, "%s", line + 7);
        else if (!strncmp(line, "mask ", 5))
            snprintf(mask, sizeof mask, "%s", line + 5);
        else if (!strncmp(line, "k ", 2))
            k = atof(line + 2);
        else if (!strncmp(line, "flat_bottom_a ", 14))
            rfb = atof(line + 14);
        else if (!strncmp(line, "energy ", 7))
            e_omm = atof(line + 7);
        else if (!strncmp(line, "restraints ", 11)) {
            n_ref = atoi(line + 11);
            atoms = calloc((size_t)n_ref, sizeof *atoms);
            refs = calloc(3 * (size_t)n_ref, sizeof *refs);
            for (int i = 0; i < n_ref; ++i)
                CHECK(fscanf(fp, "%d %lf %lf %lf", &atoms[i], &refs[3 * i], &refs[3 * i + 1],
                             &refs[3 * i + 2]) == 4);
        } else if (!strncmp(line, "forces ", 7)) {
            n_f = atoi(line + 7);
            f_omm = calloc(3 * (size_t)n_f, sizeof *f_omm);
            for (int i = 0; i < 3 * n_f; ++i)
                CHECK(fscanf(fp, "%lf", &f_omm[i]) == 1);
        }
    }
    fclose(fp);
    char prmtop[1024], inpcrd[1024];
    snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_DATA_DIR, sysname);
    snprintf(inpcrd, sizeof inpcrd, "%s/%s.inpcrd", VKMD_TEST_DATA_DIR, sysname);
    vkmd_system sys = {0};
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys));
    CHECK(n_f == sys.atom_count && n_ref > 0);
    if (n_f != sys.atom_count || n_ref <= 0)
        goto done;
    /* The mask selects OpenMM's atoms, and a set built from it and the
     * case's references is the case. */
    uint8_t *sel = calloc((size_t)sys.atom_count, 1);
    double *ref_all = calloc(3 * (size_t)sys.atom_count, sizeof *ref_all);
    int32_t count = 0;
    CHECK_OK(vkmd_amber_mask_select(&sys, mask, sel, &count));
    int same = count == n_ref;
    for (int i = 0; i < n_ref && same; ++i) {
        same = sel[atoms[i] - 1] != 0;
        memcpy(&ref_all[3 * (atoms[i] - 1)], &refs[3 * i], 3 * sizeof(double));
    }
    CHECK_MSG(same, "%s: mask '%s' selects %d atoms, OpenMM's rule %d", name, mask, count, n_ref);
    vkmd_restraints r = {0};
    CHECK_OK(vkmd_restraints_build(sel, sys.atom_count, ref_all, k, rfb, &r));
    double *f = calloc(3 * (size_t)sys.atom_count, sizeof *f);
    double e = ref_restraints(&r, &sys.box, sys.positions, f);
    char what[160];
    snprintf(what, sizeof what, "%s: restraint energy vs OpenMM (%d atoms, k %g, r_fb %g)", name,
             n_ref, k, rfb);
    check_close(what, e, e_omm, 1e-6, 0);
    const double ferr = rms_rel_error(f, f_omm, 3 * sys.atom_count);
    printf("  %s: forces vs OpenMM: RMS relative error %.2g, max abs %.2g kcal/mol/A\n", name, ferr,
           max_abs_error(f, f_omm, 3 * sys.atom_count));
    CHECK(ferr <= 1e-6);
    /* The whole reference force field carries the term as `restraint`. */
    vkmd_ff_settings s = {0};
    CHECK_OK(vkmd_ff_settings_resolve(&s, &sys));
    vkmd_energy plain, restrained;
    CHECK_OK(vkmd_ref_compute(&sys, &s, &plain, NULL));
    CHECK_OK(vkmd_ref_compute_restrained(&sys, &s, &r, &restrained, NULL));
    check_close("vkmd_ref_compute_restrained: restraint field", restrained.restraint, e, 1e-12, 0);
    check_close("total = unrestrained total + restraint", restrained.total, plain.total + e, 1e-12,
                1e-9);
    vkmd_restraints_destroy(&r);
    free(f);
    free(sel);
    free(ref_all);
done:
    vkmd_system_destroy(&sys);
    free(atoms);
    free(refs);
    free(f_omm);
}

static void mask_table(void)
{
    /* Literal counts were counted independently with OpenMM's AMBER reader
     * (atom and residue names, elements); -1: derived below from the atoms. */
    static const struct {
        const char *system, *mask;
        int32_t count;
    } rows[] = {
        {"villin_vac", "*", 584},
        {"villin_vac", ":*", 584},
        {"villin_vac", ":1", 21},
        {"villin_vac", ":1-3", 44},
        {"villin_vac", ":5,8,10-12", -1}, /* counted below from residues */
        {"villin_vac", "@CA", 35},
        {"villin_vac", "@CA,C,N", 105},
        {"villin_vac", "@1-20", 20},
        {"villin_vac", "@H=", 293},
        {"villin_vac", "!@H=", 291},
        {"villin_vac", "@/C", 189},
        {"villin_vac", "@/c", 189},
        {"villin_vac", "@%CT", -1},
        {"villin_vac", ":1-3 & @CA", 3},
        {"villin_vac", ":1-3@CA", 3},
        {"villin_vac", ":1-3 @CA", 3}, /* blanks are ignored */
        {"villin_vac", ":1-3 | @CA", 76},
        {"villin_vac", "!(:1-3 | @CA)", 584 - 76},
        {"villin_vac", "!:1-3 & @CA | :1", 53},
        {"villin_vac", "!:Cl & !@H=", 289},
        {"villin_vac", ":Cl", 2},
        {"villin_vac", ":LE?", -1},
        {"villin_vac", ":1@CA <@3.0", -1},
        {"water_nacl", ":HOH", 903},
        {"water_nacl", ":WAT,HOH", 903},
        {"water_nacl", ":NA,CL", 12},
        {"water_nacl", "!:WAT,HOH,Na+,Cl-,K+,NA,CL & !@H=", 0},
        {"water_nacl", ":1-30@O | :NA,CL", 42},
        {"water_nacl", ":1 <:3.5", -1},
    };
    vkmd_system sys[2];
    memset(sys, 0, sizeof sys);
    const char *names[2] = {"villin_vac", "water_nacl"};
    for (int s = 0; s < 2; ++s) {
        char prmtop[1024], inpcrd[1024];
        snprintf(prmtop, sizeof prmtop, "%s/%s.prmtop", VKMD_TEST_DATA_DIR, names[s]);
        snprintf(inpcrd, sizeof inpcrd, "%s/%s.inpcrd", VKMD_TEST_DATA_DIR, names[s]);
        CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys[s]));
    }
    uint8_t *sel = calloc(4096, 1);
    for (size_t i = 0; i < sizeof rows / sizeof *rows; ++i) {
        const vkmd_system *y = strcmp(rows[i].system, "villin_vac") ? &sys[1] : &sys[0];
        int32_t count = -2;
        vkmd_result res = vkmd_amber_mask_select(y, rows[i].mask, sel, &count);
        CHECK_MSG(res == VKMD_OK, "%s: %s", rows[i].mask, vkmd_last_error());
        /* counts marked -1 are derived here from the atoms' fields */
        int32_t want = rows[i].count;
        if (want == -1) {
            want = 0;
            for (int32_t a = 0; a < y->atom_count; ++a) {
                const vkmd_atom *at = &y->atoms[a];
                int r = at->res_index + 1;
                if (!strcmp(rows[i].mask, ":5,8,10-12"))
                    want += r == 5 || r == 8 || (r >= 10 && r <= 12);
                else if (!strcmp(rows[i].mask, "@%CT"))
                    want += !strcmp(at->type_name, "CT");
                else if (!strcmp(rows[i].mask, ":LE?"))
                    want += !strncmp(at->res_name, "LE", 2) && strlen(at->res_name) == 3;
                else if (!strcmp(rows[i].mask, ":1@CA <@3.0") ||
                         !strcmp(rows[i].mask, ":1 <:3.5")) {
                    const int by_res = rows[i].mask[3] == '<';
                    double lim = by_res ? 3.5 : 3.0;
                    /* brute force: near any centre atom */
                    int near = 0;
                    for (int32_t b = 0; b < y->atom_count && !near; ++b) {
                        const vkmd_atom *cb = &y->atoms[b];
                        int centre = by_res ? cb->res_index == 0
                                            : cb->res_index == 0 && !strcmp(cb->name, "CA");
                        if (!centre)
                            continue;
                        for (int32_t m = 0; m < y->atom_count && !near; ++m) {
                            if (by_res && y->atoms[m].res_index != at->res_index)
                                continue;
                            if (!by_res && m != a)
                                continue;
                            double d[3];
                            ref_delta(&y->box, &y->positions[3 * b], &y->positions[3 * m], d);
                            near = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= lim * lim;
                        }
                    }
                    want += near;
                }
            }
        }
        printf("  %-12s %-40s %4d atoms (expected %d)\n", rows[i].system, rows[i].mask, count,
               want);
        CHECK_MSG(count == want, "mask '%s' on %s: %d atoms, expected %d", rows[i].mask,
                  rows[i].system, count, want);
    }
    static const struct {
        const char *mask, *message;
    } bad[] = {
        {"", "mask '': character 1: unexpected end"},
        {":1-", "mask ':1-': character 4: expected a number after '-' in a range"},
        {":1 &", "mask ':1 &': character 5: unexpected end"},
        {"(:1 | @CA", "mask '(:1 | @CA': character 1: unclosed '('"},
        {":1)", "mask ':1)': character 3: unmatched ')'"},
        {"@", "mask '@': character 2: expected an atom number, range or name"},
        {":,", "mask ':,': character 2: expected a residue number, range or name"},
        {"CA", "mask 'CA': character 1: expected ':', '@', '*', '!' or '('"},
        {":1 :2", "mask ':1 :2': character 4: expected '&', '|' or the end of the mask"},
        {":0", "mask ':0': character 2: numbers start at 1 and ranges go upwards"},
        {":5-2", "mask ':5-2': character 2: numbers start at 1 and ranges go upwards"},
        {"@%1", "mask '@%1': character 3: expected a name after % or /"},
        {":1 <@x", "mask ':1 <@x': character 6: expected a distance in A"},
        {":1 <5", "mask ':1 <5': character 5: expected ':' or '@' after a distance operator"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        vkmd_result res = vkmd_amber_mask_select(&sys[0], bad[i].mask, sel, NULL);
        printf("  bad mask %-12s -> %s\n", bad[i].mask, vkmd_last_error());
        CHECK_MSG(res == VKMD_ERROR_PARSE && strstr(vkmd_last_error(), bad[i].message),
                  "mask '%s': got '%s', expected '%s'", bad[i].mask, vkmd_last_error(),
                  bad[i].message);
    }
    CHECK(vkmd_amber_mask_match("H=", "H1") && vkmd_amber_mask_match("H=", "H") &&
          !vkmd_amber_mask_match("H=", "CH") && vkmd_amber_mask_match("C?", "CA ") &&
          vkmd_amber_mask_match("*", ""));
    free(sel);
    vkmd_system_destroy(&sys[0]);
    vkmd_system_destroy(&sys[1]);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void atom_lists(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/restraint_atoms.txt", VKMD_TEST_GEN_DIR);
    write_text(path, "# solute heavy atoms\n1\n  3-5   # a range\n\n10\n");
    uint8_t sel[12];
    int32_t count = 0;
    CHECK_OK(vkmd_atom_list_read(path, 12, sel, &count));
    CHECK(count == 5 && sel[0] && !sel[1] && sel[2] && sel[4] && !sel[5] && sel[9]);
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"1\n2\nx\n", ":3: expected a 1-based atom index or a range a-b"},
        {"1\n3-\n", ":2: expected a 1-based atom index or a range a-b"},
        {"13\n", ":1: atoms 13-13: outside 1..12 or going down"},
        {"0\n", ":1: atoms 0-0: outside 1..12"},
        {"5-2\n", ":1: atoms 5-2: outside 1..12 or going down"},
        {"1 2\n", ":1: expected a 1-based atom index or a range a-b"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        write_text(path, bad[i].text);
        vkmd_result res = vkmd_atom_list_read(path, 12, sel, NULL);
        printf("  bad atom list -> %s\n", vkmd_last_error());
        CHECK_MSG(res == VKMD_ERROR_PARSE && strstr(vkmd_last_error(), path) &&
                      strstr(vkmd_last_error(), bad[i].message),
                  "got '%s', expected '%s'", vkmd_last_error(), bad[i].message);
    }
    CHECK(vkmd_atom_list_read("/nonexistent/atoms.txt", 12, sel, NULL) == VKMD_ERROR_IO);

    /* A spec: mask and file together are refused; a reference file with
     * the system's atoms is read; the default reference is the coordinates. */
    vkmd_system sys = {0};
    char prmtop[1024], inpcrd[1024];
    snprintf(prmtop, sizeof prmtop, "%s/villin_vac.prmtop", VKMD_TEST_DATA_DIR);
    snprintf(inpcrd, sizeof inpcrd, "%s/villin_vac.inpcrd", VKMD_TEST_DATA_DIR);
    CHECK_OK(vkmd_system_load(prmtop, inpcrd, &sys));
    vkmd_restraints r = {0};
    vkmd_restraint_spec both = {.mask = "@CA", .file = path};
    CHECK(vkmd_restraint_spec_build(&both, &sys, &r) == VKMD_ERROR_INVALID_ARGUMENT);
    vkmd_restraint_spec spec = {.mask = "@CA", .reference = inpcrd};
    CHECK_OK(vkmd_restraint_spec_build(&spec, &sys, &r));
    CHECK(r.count == 35 && r.k == VKMD_RESTRAINT_K_DEFAULT);
    CHECK(r.count > 0 && memcmp(r.ref, &sys.positions[3 * r.atoms[0]], 3 * sizeof(double)) == 0);
    CHECK(ref_restraints(&r, &sys.box, sys.positions, NULL) == 0);
    const uint64_t digest = vkmd_restraints_digest(&r);
    vkmd_restraints_destroy(&r);
    spec.reference = NULL;
    CHECK_OK(vkmd_restraint_spec_build(&spec, &sys, &r));
    CHECK(vkmd_restraints_digest(&r) == digest && digest != 0);
    vkmd_restraints_destroy(&r);
    vkmd_system_destroy(&sys);
}

int main(void)
{
    hand_cases();
    openmm_case("water_nacl");
    openmm_case("water_nacl_fb");
    openmm_case("villin_vac");
    mask_table();
    atom_lists();
    return test_finish("test_ref_restraint");
}
