/* The UFF molecule readers: SDF/MOL V2000 (multi-record, charges from the
 * atom block and M CHG, radicals, CRLF, in-memory text), XYZ (bonds from
 * covalent radii and orders from valences, checked against the SDF bonds of
 * every committed molecule; frames as conformers), the loader's dispatch,
 * conformers, partial-charge files, and every malformed input of
 * tests/broken/uff/MANIFEST: the result code, the message text and the
 * file:line it names. */
#include "io/sdf.h"
#include "io/uff_load.h"
#include "io/xyz.h"
#include "ref/ref_uff.h"
#include "testlib.h"
#include "system/uff_terms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN VKMD_TEST_GEN_DIR "/io_sdf"

static const char methane[] =
    "methane\n     vkmd\n\n"
    "  5  4  0  0  0  0  0  0  0  0999 V2000\n"
    "    0.0007   -0.0113   -0.0050 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "   -0.2680    1.0532   -0.0594 H   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "   -0.8140   -0.5953   -0.4547 H   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    0.1238   -0.2956    1.0475 H   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    0.9574   -0.1510   -0.5285 H   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "  1  2  1  0\n  1  3  1  0\n  1  4  1  0\n  1  5  1  0\n"
    "M  END\n";

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

static double energy_of(const vkmd_uff_molecule *m, int32_t conformer, char (*labels)[8])
{
    vkmd_uff_typing ty;
    vkmd_uff_terms t;
    vkmd_uff_energy e;
    e.total = NAN;
    if (vkmd_uff_setup(m, NULL, &ty, &t) != VKMD_OK)
        return NAN;
    if (vkmd_ref_uff_compute(&t, vkmd_uff_molecule_conformer(m, conformer), &e, NULL) != VKMD_OK)
        e.total = NAN;
    if (labels)
        for (int32_t a = 0; a < m->atom_count; ++a)
            memcpy(labels[a], ty.label[a], 8);
    vkmd_uff_terms_free(&t);
    vkmd_uff_typing_free(&ty);
    return e.total;
}

static void test_sdf(vkmd_uff_molecule *recs, int32_t n)
{
    printf("SDF reader\n");
    CHECK_MSG(n == 57, "molecules.sdf: %d records, expected 57", n);
    if (n < 1)
        return;
    const vkmd_uff_molecule *m = &recs[0];
    CHECK(!strcmp(m->name, "formic-acid") && m->atom_count == 5 && m->bond_count == 4 &&
          m->conformer_count == 1);
    CHECK(m->z[0] == 8 && m->z[1] == 6 && m->z[3] == 1);
    CHECK(m->positions[0] == 0.8477 && m->positions[1] == -0.5094 && m->positions[2] == -0.0433);
    CHECK(m->bonds[1].a == 1 && m->bonds[1].b == 2 && m->bonds[1].order == 2);
    CHECK_MSG(!strcmp(m->source, VKMD_TEST_DATA_DIR "/uff/molecules.sdf:1"), "source '%s'",
              m->source);
    printf("  %d records; record 1 %s: %d atoms, %d bonds, source %s\n", n, m->name, m->atom_count,
           m->bond_count, m->source);
    for (int32_t k = 0; k < n; ++k) {
        int sum = 0, charged = 0;
        for (int32_t a = 0; a < recs[k].atom_count; ++a) {
            sum += recs[k].formal_charge[a];
            charged += recs[k].formal_charge[a] != 0;
        }
        if (!strcmp(recs[k].name, "acetate"))
            CHECK_MSG(sum == -1 && charged == 1, "acetate: charge %d on %d atoms", sum, charged);
        if (!strcmp(recs[k].name, "glycine-zwitterion") || !strcmp(recs[k].name, "nitrobenzene"))
            CHECK_MSG(sum == 0 && charged == 2, "%s: charge %d on %d atoms", recs[k].name, sum,
                      charged);
    }

    /* In memory, two records; sources name the string and the line. */
    char two[2048];
    snprintf(two, sizeof two, "%s$$$$\n%s> <data>\nignored\n\n$$$$\n\n", methane, methane);
    vkmd_uff_molecule *mem = NULL;
    int32_t nm = 0;
    CHECK_OK(vkmd_sdf_read_string(two, "mem", &mem, &nm));
    CHECK(nm == 2 && mem && !strcmp(mem[1].source, "mem:16") && mem[1].atom_count == 5);
    if (nm == 2)
        printf("  in memory: 2 records, sources %s and %s\n", mem[0].source, mem[1].source);
    vkmd_uff_molecule_array_free(mem, nm);

    /* A .MOL file (one record, no $$$$, upper-case extension) with CRLF line ends. */
    char crlf[2048] = "";
    for (const char *p = methane; *p; ++p) {
        size_t l = strlen(crlf);
        if (*p == '\n')
            crlf[l++] = '\r';
        crlf[l++] = *p;
        crlf[l] = '\0';
    }
    CHECK(write_text(GEN "/methane_crlf.MOL", crlf));
    CHECK_OK(vkmd_uff_molecule_load(GEN "/methane_crlf.MOL", &mem, &nm));
    CHECK(nm == 1 && mem && mem[0].atom_count == 5 && mem[0].positions[3] == -0.2680);
    double e_mol = nm == 1 ? energy_of(&mem[0], 0, NULL) : NAN;
    printf("  CRLF .MOL file: %d record, E %.6f kcal/mol\n", nm, e_mol);
    CHECK(isfinite(e_mol));
    vkmd_uff_molecule_array_free(mem, nm);

    /* Charges: atom-block codes (3 = +1, 5 = -1, 4 = doublet radical); M CHG replaces them. */
    char block[2048];
    snprintf(block, sizeof block, "%s", methane);
    /* the charge field, columns 37-39, ends 7 characters after the symbol in column 32 */
    char *atom2 = strstr(block, "H   0  0  0") + 7, *atom3 = strstr(atom2, "H   0  0  0") + 7;
    atom2[0] = '3';
    atom3[0] = '4';
    CHECK_OK(vkmd_sdf_read_string(block, "codes", &mem, &nm));
    CHECK(nm == 1 && mem[0].formal_charge[1] == 1 && mem[0].radicals[2] == 1 &&
          mem[0].formal_charge[2] == 0);
    vkmd_uff_molecule_array_free(mem, nm);
    char *mend = strstr(block, "M  END");
    memmove(mend + 36, mend, strlen(mend) + 1);
    memcpy(mend, "M  CHG  1   1  -1\nM  RAD  1   4   2\n", 36);
    CHECK_OK(vkmd_sdf_read_string(block, "mchg", &mem, &nm));
    CHECK(nm == 1 && mem[0].formal_charge[0] == -1 && mem[0].formal_charge[1] == 0 &&
          mem[0].radicals[3] == 1 && mem[0].radicals[2] == 0);
    printf("  charges: atom-block codes and M CHG / M RAD (which replace them) read\n");
    vkmd_uff_molecule_array_free(mem, nm);
}

/* Writes record m as an XYZ file (or frames of two records). */
static int write_xyz(const char *path, const vkmd_uff_molecule *const *ms, int frames)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    static const char *const sym[] = {"",  "H",  "He", "Li", "Be", "B",  "C", "N", "O",
                                      "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl"};
    for (int k = 0; k < frames; ++k) {
        const vkmd_uff_molecule *m = ms[k];
        fprintf(f, "%d\n%s\n", m->atom_count, m->name);
        for (int32_t a = 0; a < m->atom_count; ++a) {
            const double *x = m->positions + 3 * a;
            if (m->z[a] < 18)
                fprintf(f, "%s %.4f %.4f %.4f\n", sym[m->z[a]], x[0], x[1], x[2]);
            else
                fprintf(f, "%d %.4f %.4f %.4f\n", m->z[a], x[0], x[1], x[2]);
        }
    }
    return fclose(f) == 0;
}

static int same_bonds(const vkmd_uff_molecule *a, const vkmd_uff_molecule *b)
{
    if (a->bond_count != b->bond_count)
        return 0;
    for (int32_t i = 0; i < a->bond_count; ++i) {
        int found = 0;
        for (int32_t j = 0; j < b->bond_count && !found; ++j)
            found = (a->bonds[i].a == b->bonds[j].a && a->bonds[i].b == b->bonds[j].b) ||
                    (a->bonds[i].a == b->bonds[j].b && a->bonds[i].b == b->bonds[j].a);
        if (!found)
            return 0;
    }
    return 1;
}

static void test_xyz(const vkmd_uff_molecule *recs, int32_t n)
{
    printf("XYZ reader: every committed molecule written as XYZ and read back\n");
    int same = 0, refused = 0;
    double worst = 0;
    for (int32_t k = 0; k < n; ++k) {
        const vkmd_uff_molecule *m = &recs[k];
        int charged = 0;
        for (int32_t a = 0; a < m->atom_count; ++a)
            charged |= m->formal_charge[a] != 0;
        char path[512];
        snprintf(path, sizeof path, GEN "/%s.xyz", m->name);
        CHECK(write_xyz(path, &m, 1));
        vkmd_uff_molecule x;
        vkmd_result r = vkmd_xyz_read(path, &x);
        if (charged) {
            CHECK_MSG(r == VKMD_ERROR_UNSUPPORTED, "%s (charged): read from XYZ", m->name);
            printf("  %-36s refused (charged): %s\n", m->name, vkmd_last_error());
            ++refused;
            if (r == VKMD_OK)
                vkmd_uff_molecule_destroy(&x);
            continue;
        }
        CHECK_OK(r);
        if (r != VKMD_OK)
            continue;
        int bonds_ok = same_bonds(m, &x);
        CHECK_MSG(bonds_ok, "%s: XYZ bonds differ from the SDF's (%d vs %d)", m->name, x.bond_count,
                  m->bond_count);
        char(*l1)[8] = calloc((size_t)m->atom_count, 8),
        (*l2)[8] = calloc((size_t)m->atom_count, 8);
        double e1 = energy_of(m, 0, l1), e2 = energy_of(&x, 0, l2);
        int types_ok = 1;
        for (int32_t a = 0; a < m->atom_count; ++a)
            types_ok &= !strcmp(l1[a], l2[a]);
        double rel = fabs(e2 - e1) / fmax(fabs(e1), 1e-300);
        worst = fmax(worst, rel);
        CHECK_MSG(types_ok, "%s: XYZ types differ from the SDF's", m->name);
        CHECK_MSG(rel <= 1e-12, "%s: E from XYZ %.10f, from SDF %.10f", m->name, e2, e1);
        same += bonds_ok && types_ok && rel <= 1e-12;
        free(l1);
        free(l2);
        vkmd_uff_molecule_destroy(&x);
    }
    printf("  %d molecules: same bonds, types and energy (worst rel %.1e); %d charged refused\n",
           same, worst, refused);
    CHECK(same + refused == n && refused == 3);

    /* Two frames of formic acid: conformers, each with its own energy. */
    const vkmd_uff_molecule *fa = NULL, *fp = NULL;
    for (int32_t k = 0; k < n; ++k) {
        if (!strcmp(recs[k].name, "formic-acid"))
            fa = &recs[k];
        if (!strcmp(recs[k].name, "formic-acid-perturbed"))
            fp = &recs[k];
    }
    CHECK(fa && fp);
    if (!fa || !fp)
        return;
    const vkmd_uff_molecule *two[2] = {fa, fp};
    CHECK(write_xyz(GEN "/frames.xyz", two, 2));
    vkmd_uff_molecule *x = NULL;
    int32_t nx = 0;
    CHECK_OK(vkmd_uff_molecule_load(GEN "/frames.xyz", &x, &nx));
    if (nx == 1 && x[0].conformer_count == 2) {
        double e0 = energy_of(&x[0], 0, NULL), e1 = energy_of(&x[0], 1, NULL);
        printf("  two frames: 2 conformers, E %.10f and %.10f (SDF records %.10f, %.10f)\n", e0, e1,
               energy_of(fa, 0, NULL), energy_of(fp, 0, NULL));
        CHECK(fabs(e0 - energy_of(fa, 0, NULL)) < 1e-9 && fabs(e1 - energy_of(fp, 0, NULL)) < 1e-9);
    } else {
        CHECK_MSG(0, "frames.xyz: %d molecules, expected one with 2 conformers", nx);
    }
    vkmd_uff_molecule_array_free(x, nx);
}

static void test_model(const vkmd_uff_molecule *recs, int32_t n)
{
    printf("conformers, loader dispatch, charge files\n");
    vkmd_uff_molecule m;
    CHECK_OK(vkmd_uff_molecule_alloc(recs[0].atom_count, recs[0].bond_count, 1, &m));
    memcpy(m.z, recs[0].z, (size_t)m.atom_count * sizeof *m.z);
    memcpy(m.bonds, recs[0].bonds, (size_t)m.bond_count * sizeof *m.bonds);
    memcpy(m.positions, recs[0].positions, (size_t)m.atom_count * 3 * sizeof(double));
    snprintf(m.source, sizeof m.source, "copy");
    const vkmd_uff_molecule *perturbed = NULL, *methane_rec = NULL;
    for (int32_t k = 0; k < n; ++k) {
        if (!strcmp(recs[k].name, "formic-acid-perturbed"))
            perturbed = &recs[k];
        if (!strcmp(recs[k].name, "methane"))
            methane_rec = &recs[k];
    }
    CHECK(perturbed && methane_rec);
    if (perturbed && methane_rec) {
        CHECK_OK(vkmd_uff_molecule_add_conformers(&m, perturbed));
        CHECK(m.conformer_count == 2 &&
              vkmd_uff_molecule_conformer(&m, 1)[0] == perturbed->positions[0]);
        CHECK(vkmd_uff_molecule_add_conformers(&m, methane_rec) == VKMD_ERROR_INVALID_ARGUMENT);
        printf("  other molecule as a conformer: %s\n", vkmd_last_error());
        CHECK(strstr(vkmd_last_error(), "not conformers of one molecule") != NULL);
    }
    vkmd_uff_molecule *out = NULL;
    int32_t nout = 0;
    CHECK(vkmd_uff_molecule_load("molecule.pdb", &out, &nout) == VKMD_ERROR_INVALID_ARGUMENT &&
          out == NULL && nout == 0);
    printf("  unknown kind: %s\n", vkmd_last_error());
    CHECK(vkmd_uff_molecule_load(GEN "/missing.sdf", &out, &nout) == VKMD_ERROR_IO);
    printf("  missing file: %s\n", vkmd_last_error());

    CHECK(write_text(GEN "/charges.txt", "# formic acid\n-0.5 0.6\n-0.5, 0.3 0.1\n"));
    CHECK_OK(vkmd_uff_molecule_read_charges(GEN "/charges.txt", &m));
    CHECK(m.partial_charges && m.partial_charges[1] == 0.6 && m.partial_charges[4] == 0.1);
    CHECK(write_text(GEN "/charges_short.txt", "-0.5 0.6\n-0.5\n"));
    CHECK(vkmd_uff_molecule_read_charges(GEN "/charges_short.txt", &m) == VKMD_ERROR_PARSE);
    CHECK(strstr(vkmd_last_error(), "charges_short.txt:2: expected 5 charges") != NULL);
    printf("  short charge file: %s\n", vkmd_last_error());
    CHECK(write_text(GEN "/charges_bad.txt", "-0.5 0.6\n-0.5 0.x 1\n"));
    CHECK(vkmd_uff_molecule_read_charges(GEN "/charges_bad.txt", &m) == VKMD_ERROR_PARSE);
    CHECK(
        strstr(vkmd_last_error(), "charges_bad.txt:2: expected a charge (a number), found '0.x'"));
    printf("  bad charge: %s\n", vkmd_last_error());
    CHECK(m.partial_charges && m.partial_charges[1] == 0.6); /* unchanged by the failures */
    vkmd_uff_molecule_destroy(&m);
}

static void test_broken(void)
{
    printf("broken inputs (tests/broken/uff/MANIFEST)\n");
    size_t len = 0;
    char *manifest = test_read_file(VKMD_TEST_BROKEN_DIR "/uff/MANIFEST", &len);
    CHECK(manifest != NULL);
    if (!manifest)
        return;
    int cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0])
            continue;
        char file[128], stage[16], code[32], where[16];
        int used = 0;
        if (sscanf(line, "%127s %15s %31s %15s %n", file, stage, code, where, &used) != 4 ||
            !line[used]) {
            CHECK_MSG(0, "MANIFEST: malformed line '%s'", line);
            continue;
        }
        const char *want = line + used;
        vkmd_result want_code = !strcmp(code, "PARSE")         ? VKMD_ERROR_PARSE
                                : !strcmp(code, "UNSUPPORTED") ? VKMD_ERROR_UNSUPPORTED
                                                               : VKMD_ERROR_IO;
        char path[512], at[256];
        snprintf(path, sizeof path, VKMD_TEST_BROKEN_DIR "/uff/%s", file);
        if (!strcmp(where, "-"))
            snprintf(at, sizeof at, "%s", file);
        else
            snprintf(at, sizeof at, "%s:%s:", file, where);
        vkmd_uff_molecule *recs = (vkmd_uff_molecule *)0x1;
        int32_t n = -1;
        vkmd_error_clear();
        vkmd_result got = vkmd_uff_molecule_load(path, &recs, &n);
        if (!strcmp(stage, "type")) {
            CHECK_MSG(got == VKMD_OK, "%s: the load failed: %s", file, vkmd_last_error());
            got = VKMD_OK;
            for (int32_t k = 0; k < n && got == VKMD_OK; ++k) {
                vkmd_uff_typing ty;
                vkmd_uff_terms t;
                got = vkmd_uff_setup(&recs[k], NULL, &ty, &t);
                if (got == VKMD_OK) {
                    vkmd_uff_terms_free(&t);
                    vkmd_uff_typing_free(&ty);
                }
            }
            vkmd_uff_molecule_array_free(recs, n);
        } else if (got == VKMD_OK) {
            vkmd_uff_molecule_array_free(recs, n);
        } else {
            CHECK_MSG(recs == NULL && n == 0, "%s: failed load left records", file);
        }
        const char *msg = vkmd_last_error();
        int ok = got == want_code && strstr(msg, want) && strstr(msg, at);
        CHECK_MSG(ok, "%s: got %s '%s', want %s with '%s' at '%s'", file, vkmd_result_str(got), msg,
                  code, want, at);
        printf("  %-24s %-5s %s: %s\n", file, stage, ok ? "ok" : "FAIL", msg);
        ++cases;
    }
    CHECK(cases >= 25);
    printf("  %d broken inputs\n", cases);
    free(manifest);
}

int main(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", GEN);
    CHECK(system(cmd) == 0);
    vkmd_uff_molecule *recs = NULL;
    int32_t n = 0;
    CHECK_OK(vkmd_sdf_read(VKMD_TEST_DATA_DIR "/uff/molecules.sdf", &recs, &n));
    if (recs && n > 0) {
        test_sdf(recs, n);
        test_xyz(recs, n);
        test_model(recs, n);
    }
    test_broken();
    vkmd_uff_molecule_array_free(recs, n);
    return test_finish("test_io_sdf");
}
