/* Per-atom generalized Born parameters and the GBn neck tables (see
 * gb_params.h). */
#include "system/gb_params.h"

#include "core/log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The neck integral's parameters of Mongan et al., J. Chem. Theory Comput.
 * 3, 156-169 (2007), published data as AMBER's gb_neck and OpenMM's
 * customgbforces.py carry them: entry [i * 21 + j] for intrinsic radii
 * 1.0 + 0.05 i and 1.0 + 0.05 j A. d0 in A (the neck's centre), m0 in 1/A
 * (its height). */
static const double neck_d0[21 * 21] = {
    2.26685, 2.32548, 2.38397, 2.44235, 2.50057, 2.55867, 2.61663, 2.67444, 2.73212, 2.78965,
    2.84705, 2.9043,  2.96141, 3.0184,  3.07524, 3.13196, 3.18854, 3.24498, 3.30132, 3.35752,
    3.4136,  2.31191, 2.37017, 2.4283,  2.48632, 2.5442,  2.60197, 2.65961, 2.71711, 2.77449,
    2.83175, 2.88887, 2.94586, 3.00273, 3.05948, 3.1161,  3.1726,  3.22897, 3.28522, 3.34136,
    3.39738, 3.45072, 2.35759, 2.41549, 2.47329, 2.53097, 2.58854, 2.646,   2.70333, 2.76056,
    2.81766, 2.87465, 2.93152, 2.98827, 3.0449,  3.10142, 3.15782, 3.21411, 3.27028, 3.32634,
    3.3823,  3.43813, 3.49387, 2.4038,  2.46138, 2.51885, 2.57623, 2.63351, 2.69067, 2.74773,
    2.80469, 2.86152, 2.91826, 2.97489, 3.0314,  3.08781, 3.1441,  3.20031, 3.25638, 3.31237,
    3.36825, 3.42402, 3.4797,  3.53527, 2.45045, 2.50773, 2.56492, 2.62201, 2.679,   2.7359,
    2.7927,  2.8494,  2.90599, 2.9625,  3.0189,  3.07518, 3.13138, 3.18748, 3.24347, 3.29937,
    3.35515, 3.41085, 3.46646, 3.52196, 3.57738, 2.4975,  2.5545,  2.61143, 2.66825, 2.72499,
    2.78163, 2.83818, 2.89464, 2.95101, 3.00729, 3.06346, 3.11954, 3.17554, 3.23143, 3.28723,
    3.34294, 3.39856, 3.45409, 3.50952, 3.56488, 3.62014, 2.54489, 2.60164, 2.6583,  2.71488,
    2.77134, 2.8278,  2.88412, 2.94034, 2.9965,  3.05256, 3.10853, 3.16442, 3.22021, 3.27592,
    3.33154, 3.38707, 3.44253, 3.49789, 3.55316, 3.60836, 3.66348, 2.59259, 2.6491,  2.70553,
    2.76188, 2.81815, 2.87434, 2.93044, 2.98646, 3.04241, 3.09827, 3.15404, 3.20974, 3.26536,
    3.32089, 3.37633, 3.4317,  3.48699, 3.54219, 3.59731, 3.65237, 3.70734, 2.64054, 2.69684,
    2.75305, 2.80918, 2.86523, 2.92122, 2.97712, 3.03295, 3.0887,  3.14437, 3.19996, 3.25548,
    3.31091, 3.36627, 3.42156, 3.47677, 3.5319,  3.58695, 3.64193, 3.69684, 3.75167, 2.68873,
    2.74482, 2.80083, 2.85676, 2.91262, 2.96841, 3.02412, 3.07976, 3.13533, 3.19082, 3.24623,
    3.30157, 3.35685, 3.41205, 3.46718, 3.52223, 3.57721, 3.63213, 3.68696, 3.74174, 3.79644,
    2.73713, 2.79302, 2.84884, 2.90459, 2.96027, 3.01587, 3.0714,  3.12686, 3.18225, 3.23757,
    3.29282, 3.34801, 3.40313, 3.45815, 3.51315, 3.56805, 3.6229,  3.67767, 3.73237, 3.78701,
    3.84159, 2.78572, 2.84143, 2.89707, 2.95264, 3.00813, 3.06356, 3.11892, 3.17422, 3.22946,
    3.28462, 3.33971, 3.39474, 3.44971, 3.5046,  3.55944, 3.61421, 3.66891, 3.72356, 3.77814,
    3.83264, 3.8871,  2.83446, 2.89,    2.94547, 3.00088, 3.05621, 3.11147, 3.16669, 3.22183,
    3.27689, 3.33191, 3.38685, 3.44174, 3.49656, 3.55132, 3.60602, 3.66066, 3.71523, 3.76975,
    3.82421, 3.8786,  3.93293, 2.88335, 2.93873, 2.99404, 3.04929, 3.10447, 3.15959, 3.21464,
    3.26963, 3.32456, 3.37943, 3.43424, 3.48898, 3.54366, 3.5983,  3.65287, 3.70737, 3.76183,
    3.81622, 3.87056, 3.92484, 3.97905, 2.93234, 2.9876,  3.04277, 3.09786, 3.15291, 3.20787,
    3.26278, 3.31764, 3.37242, 3.42716, 3.48184, 3.53662, 3.591,   3.64551, 3.69995, 3.75435,
    3.80867, 3.86295, 3.91718, 3.97134, 4.02545, 2.98151, 3.0366,  3.09163, 3.14659, 3.20149,
    3.25632, 3.3111,  3.36581, 3.42047, 3.47507, 3.52963, 3.58411, 3.63855, 3.69293, 3.74725,
    3.80153, 3.85575, 3.90991, 3.96403, 4.01809, 4.07211, 3.03074, 3.08571, 3.14061, 3.19543,
    3.25021, 3.30491, 3.35956, 3.41415, 3.46869, 3.52317, 3.57759, 3.63196, 3.68628, 3.74054,
    3.79476, 3.84893, 3.90303, 3.95709, 4.01111, 4.06506, 4.11897, 3.08008, 3.13492, 3.1897,
    3.2444,  3.29905, 3.35363, 3.40815, 3.46263, 3.51704, 3.57141, 3.62572, 3.67998, 3.73418,
    3.78834, 3.84244, 3.8965,  3.95051, 4.00447, 4.05837, 4.11224, 4.16605, 3.12949, 3.18422,
    3.23888, 3.29347, 3.348,   3.40247, 3.45688, 3.51124, 3.56554, 3.6198,  3.674,   3.72815,
    3.78225, 3.83629, 3.8903,  3.94425, 3.99816, 4.05203, 4.10583, 4.15961, 4.21333, 3.17899,
    3.23361, 3.28815, 3.34264, 3.39706, 3.45142, 3.50571, 3.55997, 3.61416, 3.66831, 3.72241,
    3.77645, 3.83046, 3.8844,  3.93831, 3.99216, 4.04598, 4.09974, 4.15347, 4.20715, 4.26078,
    3.22855, 3.28307, 3.33751, 3.39188, 3.4462,  3.50046, 3.55466, 3.6088,  3.6629,  3.71694,
    3.77095, 3.82489, 3.8788,  3.93265, 3.98646, 4.04022, 4.09395, 4.14762, 4.20126, 4.25485,
    4.3084,
};
static const double neck_m0[21 * 21] = {
    0.0381511,  0.0338587,  0.0301776,  0.027003,   0.0242506,  0.0218529,  0.0197547,  0.0179109,
    0.0162844,  0.0148442,  0.0135647,  0.0124243,  0.0114047,  0.0104906,  0.00966876, 0.008928,
    0.0082587,  0.00765255, 0.00710237, 0.00660196, 0.00614589, 0.0396198,  0.0351837,  0.0313767,
    0.0280911,  0.0252409,  0.0227563,  0.0205808,  0.0186681,  0.0169799,  0.0154843,  0.014155,
    0.0129696,  0.0119094,  0.0109584,  0.0101031,  0.00933189, 0.0086348,  0.00800326, 0.00742986,
    0.00690814, 0.00643255, 0.041048,   0.0364738,  0.0325456,  0.0291532,  0.0262084,  0.0236399,
    0.0213897,  0.0194102,  0.0176622,  0.0161129,  0.0147351,  0.0135059,  0.0124061,  0.0114192,
    0.0105312,  0.00973027, 0.00900602, 0.00834965, 0.0077535,  0.00721091, 0.00671609, 0.0424365,
    0.0377295,  0.0336846,  0.0301893,  0.0271533,  0.0245038,  0.0221813,  0.0201371,  0.018331,
    0.0167295,  0.0153047,  0.014033,   0.0128946,  0.0118727,  0.0109529,  0.0101229,  0.00937212,
    0.00869147, 0.00807306, 0.00751003, 0.00699641, 0.0437861,  0.0389516,  0.0347944,  0.0311998,
    0.0280758,  0.0253479,  0.0229555,  0.0208487,  0.0189864,  0.0173343,  0.0158637,  0.0145507,
    0.0133748,  0.0123188,  0.0113679,  0.0105096,  0.0097329,  0.00902853, 0.00838835, 0.00780533,
    0.0072733,  0.0450979,  0.0401406,  0.0358753,  0.0321851,  0.0289761,  0.0261726,  0.0237125,
    0.0215451,  0.0196282,  0.017927,   0.0164121,  0.0150588,  0.0138465,  0.0127573,  0.0117761,
    0.0108902,  0.0100882,  0.00936068, 0.00869923, 0.00809665, 0.00754661, 0.0463729,  0.0412976,
    0.0369281,  0.0331456,  0.0298547,  0.026978,   0.0244525,  0.0222264,  0.0202567,  0.0185078,
    0.0169498,  0.0155575,  0.0143096,  0.0131881,  0.0121775,  0.0112646,  0.010438,   0.00968781,
    0.00900559, 0.00838388, 0.00781622, 0.0476123,  0.0424233,  0.0379534,  0.034082,   0.0307118,
    0.0277645,  0.0251757,  0.0228927,  0.0208718,  0.0190767,  0.0174768,  0.0160466,  0.0147642,
    0.0136112,  0.0125719,  0.0116328,  0.0107821,  0.0100099,  0.00930735, 0.00866695, 0.00808206,
    0.0488171,  0.0435186,  0.038952,   0.0349947,  0.0315481,  0.0285324,  0.0258824,  0.0235443,
    0.0214738,  0.0196339,  0.0179934,  0.0165262,  0.0152103,  0.0140267,  0.0129595,  0.0119947,
    0.0111206,  0.0103268,  0.00960445, 0.00894579, 0.00834405, 0.0499883,  0.0445845,  0.0399246,
    0.0358844,  0.032364,   0.0292822,  0.0265729,  0.0241815,  0.0220629,  0.0201794,  0.0184994,
    0.0169964,  0.0156479,  0.0144345,  0.0133401,  0.0123504,  0.0114534,  0.0106386,  0.00989687,
    0.00922037, 0.00860216, 0.0511272,  0.0456219,  0.040872,   0.0367518,  0.0331599,  0.0300142,
    0.0272475,  0.0248045,  0.0226392,  0.0207135,  0.0189952,  0.0174574,  0.0160771,  0.0148348,
    0.0137138,  0.0126998,  0.0117805,  0.0109452,  0.0101846,  0.00949067, 0.00885636, 0.0522348,
    0.0466315,  0.0417948,  0.0375973,  0.0339365,  0.030729,   0.0279067,  0.0254136,  0.023203,
    0.0212363,  0.0194809,  0.0179092,  0.016498,   0.0152275,  0.0140807,  0.013043,   0.012102,
    0.0112466,  0.0104676,  0.00975668, 0.00910664, 0.0533123,  0.0476145,  0.042694,   0.0384218,
    0.0346942,  0.0314268,  0.0285507,  0.026009,   0.0237547,  0.0217482,  0.0199566,  0.018352,
    0.0169108,  0.0156128,  0.0144408,  0.0133801,  0.0124179,  0.011543,   0.010746,   0.0100184,
    0.00935302, 0.0543606,  0.0485716,  0.04357,    0.0392257,  0.0354335,  0.0321082,  0.02918,
    0.0265913,  0.0242943,  0.0222492,  0.0204225,  0.0187859,  0.0173155,  0.0159908,  0.0147943,
    0.0137111,  0.0127282,  0.0118343,  0.0110197,  0.0102759,  0.00959549, 0.0553807,  0.0495037,
    0.0444239,  0.0400097,  0.0361551,  0.0327736,  0.0297949,  0.0271605,  0.0248222,  0.0227396,
    0.0208788,  0.0192111,  0.0177122,  0.0163615,  0.0151413,  0.0140361,  0.013033,   0.0121206,
    0.0112888,  0.0105292,  0.00983409, 0.0563738,  0.0504116,  0.0452562,  0.0407745,  0.0368593,
    0.0334235,  0.0303958,  0.0277171,  0.0253387,  0.0232197,  0.0213257,  0.0196277,  0.0181013,
    0.0167252,  0.0154817,  0.0143552,  0.0133325,  0.0124019,  0.0115534,  0.0107783,  0.0100688,
    0.0573406,  0.0512963,  0.0460676,  0.0415206,  0.0375468,  0.0340583,  0.030983,   0.0282614,
    0.0258441,  0.0236896,  0.0217634,  0.020036,   0.0184826,  0.017082,   0.0158158,  0.0146685,
    0.0136266,  0.0126783,  0.0118135,  0.0110232,  0.0102998,  0.0582822,  0.0521584,  0.0468589,
    0.0422486,  0.038218,   0.0346784,  0.0315571,  0.0287938,  0.0263386,  0.0241497,  0.0221922,
    0.0204362,  0.0188566,  0.0174319,  0.0161437,  0.0149761,  0.0139154,  0.0129499,  0.0120691,
    0.0112641,  0.0105269,  0.0591994,  0.0529987,  0.0476307,  0.042959,   0.0388734,  0.0352843,
    0.0321182,  0.0293144,  0.0268225,  0.0246002,  0.0226121,  0.0208283,  0.0192232,  0.0177751,
    0.0164654,  0.015278,   0.0141991,  0.0132167,  0.0123204,  0.0115009,  0.0107504,  0.0600932,
    0.053818,   0.0483836,  0.0436525,  0.0395136,  0.0358764,  0.0326669,  0.0298237,  0.0272961,
    0.0250413,  0.0230236,  0.0212126,  0.0195826,  0.0181118,  0.0167811,  0.0155744,  0.0144778,
    0.0134789,  0.0125673,  0.0117338,  0.0109702,  0.0609642,  0.0546169,  0.0491183,  0.0443295,
    0.0401388,  0.036455,   0.0332033,  0.030322,   0.0277596,  0.0254732,  0.0234266,  0.0215892,
    0.0199351,  0.018442,   0.0170909,  0.0158654,  0.0147514,  0.0137365,  0.0128101,  0.0119627,
    0.0111863,
};

/* Table position of an intrinsic radius: index and the two weights, as
 * OpenMM's _createUniqueTable clamps and interpolates. */
static void neck_index(double radius_a, int *i1, int *i2, double *w1, double *w2)
{
    const double p = (radius_a - 1.0) * 20.0;
    if (p <= 0) {
        *i1 = *i2 = 0;
        *w1 = 1, *w2 = 0;
    } else if (p >= 20) {
        *i1 = *i2 = 20;
        *w1 = 1, *w2 = 0;
    } else {
        *i1 = (int)floor(p);
        *i2 = *i1 + 1;
        *w1 = (double)*i2 - p;
        *w2 = 1.0 - *w1;
    }
}

void vkmd_gb_neck_lookup(double radius_i_a, double radius_j_a, double *out_d0_a,
                         double *out_m0_per_a)
{
    int a1, a2, b1, b2;
    double wa1, wa2, wb1, wb2;
    /* Row j, column i: OpenMM's GBSAGBnForce fills its table row-major by
     * (radius index 1, 2) but reads it through a Discrete2DFunction, whose
     * values[x + size * y] is f(x, y), so getm0(radindex1, radindex2) is the
     * entry at row 2 (j), column 1 (i). The tables are not symmetric. */
    neck_index(radius_j_a, &a1, &a2, &wa1, &wa2);
    neck_index(radius_i_a, &b1, &b2, &wb1, &wb2);
    const double *t[2] = {neck_d0, neck_m0};
    double v[2];
    for (int k = 0; k < 2; ++k)
        v[k] = wa1 * wb1 * t[k][a1 * 21 + b1] + wa1 * wb2 * t[k][a1 * 21 + b2] +
               wa2 * wb1 * t[k][a2 * 21 + b1] + wa2 * wb2 * t[k][a2 * 21 + b2];
    *out_d0_a = v[0];
    *out_m0_per_a = v[1];
}

/* Screening factors by element (OpenMM's table, AMBER's defaults): the
 * HCT/OBC column is unused here (those models take the prmtop's SCREEN),
 * then GBn, GBn2, GBn2 for nucleic acids. Deuterium is hydrogen. */
typedef struct screen_row {
    int z;
    double gbn, gbn2, gbn2_nucleic;
} screen_row;
static const screen_row screens[] = {
    {1, 1.09085413633, 1.425952, 1.696538},
    {6, 0.48435382330, 1.058554, 1.268902},
    {7, 0.700147318409, 0.733599, 1.4259728},
    {8, 1.06557401132, 1.061039, 0.1840098},
    {9, 0.5, 0.5, 0.5},
    {15, 0.5, 0.5, 1.5450597},
    {16, 0.602256336067, -0.703469, 0.05},
};
static const screen_row screen_default = {0, 0.5, 0.5, 0.5};

/* GBn2's alpha, beta, gamma by element (Nguyen, Roe and Simmerling, J.
 * Chem. Theory Comput. 9, 2020 (2013)); elements not listed take the
 * default row. */
typedef struct abg_row {
    int z;
    double a, b, g;
} abg_row;
static const abg_row gbn2_abg[] = {
    {1, 0.788440, 0.798699, 0.437334},  {6, 0.733756, 0.506378, 0.205844},
    {7, 0.503364, 0.316828, 0.192915},  {8, 0.867814, 0.876635, 0.387882},
    {16, 0.867814, 0.876635, 0.387882},
};
static const abg_row gbn2_abg_nucleic[] = {
    {1, 0.537050, 0.362861, 0.116704},  {6, 0.331670, 0.196842, 0.093422},
    {7, 0.686311, 0.463189, 0.138722},  {8, 0.606344, 0.463006, 0.142262},
    {16, 0.606344, 0.463006, 0.142262}, {15, 0.418365, 0.290054, 0.1064245},
};
static const abg_row gbn2_abg_default = {0, 1.0, 0.8, 4.851};

static const screen_row *screen_of(int z)
{
    for (size_t k = 0; k < sizeof screens / sizeof *screens; ++k)
        if (screens[k].z == z)
            return &screens[k];
    return &screen_default;
}

static const abg_row *abg_of(int z, int nucleic)
{
    const abg_row *t = nucleic ? gbn2_abg_nucleic : gbn2_abg;
    const size_t n = nucleic ? sizeof gbn2_abg_nucleic / sizeof *gbn2_abg_nucleic
                             : sizeof gbn2_abg / sizeof *gbn2_abg;
    for (size_t k = 0; k < n; ++k)
        if (t[k].z == z)
            return &t[k];
    return &gbn2_abg_default;
}

/* OpenMM's _NUCLEIC_ACID_RESIDUES. */
static int is_nucleic(const char *res)
{
    static const char *const names[] = {"A", "C", "G", "U", "DA", "DC", "DG", "DT"};
    for (size_t k = 0; k < sizeof names / sizeof *names; ++k)
        if (!strcmp(res, names[k]))
            return 1;
    return 0;
}

/* The "(name)" of a RADIUS_SET line, e.g. "modified Bondi radii (mbondi)"
 * gives "mbondi"; "" when there is none. */
static void radius_set_name(const char *line, char *out, size_t size)
{
    out[0] = 0;
    const char *open = strrchr(line, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    if (!open || !close || (size_t)(close - open - 1) >= size)
        return;
    memcpy(out, open + 1, (size_t)(close - open - 1));
    out[close - open - 1] = 0;
}

void vkmd_gb_params_destroy(vkmd_gb_params *p)
{
    if (!p)
        return;
    free(p->charge);
    free(p->radius);
    free(p->offset_radius);
    free(p->scaled_radius);
    free(p->alpha);
    free(p->beta);
    free(p->gamma);
    memset(p, 0, sizeof *p);
}

vkmd_result vkmd_gb_params_build(const vkmd_system *sys, const vkmd_gb_settings *settings,
                                 vkmd_gb_params *out)
{
    memset(out, 0, sizeof *out);
    vkmd_gb_params p = {0};
    VKMD_TRY_RETURN(vkmd_gb_settings_resolve(settings, &p.settings));
    const vkmd_gb_model model = p.settings.model;
    const char *mname = vkmd_gb_model_name(model);
    const int32_t n = sys->atom_count;
    if (sys->box.periodic)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born (%s): the system has a periodic box; implicit solvent "
                         "needs a non-periodic system (a vacuum prmtop)",
                         mname);
    int any = 0;
    for (int32_t a = 0; sys->gb_params_present && a < n; ++a)
        any |= sys->gb_radius[a] > 0;
    if (!sys->gb_params_present || !any)
        return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                         "generalized Born (%s): the prmtop has %s; set them with tleap's `set "
                         "default PBRadii %s` before saveAmberParm, or ParmEd's changeRadii",
                         mname,
                         sys->gb_params_present ? "only zero GB radii (RADII)"
                                                : "no GB radii (no RADII / SCREEN sections)",
                         vkmd_gb_model_radius_set(model));
    char set[32];
    radius_set_name(sys->gb_radius_set, set, sizeof set);
    if (strcmp(set, vkmd_gb_model_radius_set(model)))
        vkmd_log_warn("generalized Born (%s, igb %d): the prmtop's radius set is '%s', not %s; "
                      "non-optimal GB parameters (AMBER pairs %s with %s)",
                      mname, vkmd_gb_model_igb(model), sys->gb_radius_set,
                      vkmd_gb_model_radius_set(model), mname, vkmd_gb_model_radius_set(model));

    p.atom_count = n;
    p.kappa_per_a = vkmd_gb_kappa_per_a(&p.settings);
    p.coulomb_k = model == VKMD_GB_OBC2 && p.kappa_per_a == 0 ? VKMD_GB_COULOMB_K_BUILTIN
                                                              : VKMD_GB_COULOMB_K_CUSTOM;
    p.offset_a = model == VKMD_GB_GBN2 ? 0.195141 : 0.09;
    p.neck_scale = model == VKMD_GB_GBN ? 0.361825 : model == VKMD_GB_GBN2 ? 0.826836 : 0;
    p.neck_cut_a = 6.8;
    p.ace_factor = 4.0 * 3.14159265358979323846 * p.settings.surface_tension_kcal_a2;
    if (p.coulomb_k == VKMD_GB_COULOMB_K_CUSTOM &&
        p.settings.surface_tension_kcal_a2 == VKMD_GB_SURFACE_TENSION_DEFAULT)
        p.ace_factor = 28.3919551 / 418.4;
    double **arrays[] = {&p.charge, &p.radius, &p.offset_radius, &p.scaled_radius,
                         &p.alpha,  &p.beta,   &p.gamma};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; ++k) {
        *arrays[k] = calloc((size_t)n, sizeof(double));
        if (!*arrays[k]) {
            vkmd_gb_params_destroy(&p);
            return vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY,
                             "generalized Born: out of memory for %d "
                             "atoms",
                             n);
        }
    }
    for (int32_t a = 0; a < n; ++a) {
        const vkmd_atom *at = &sys->atoms[a];
        const double radius = sys->gb_radius[a];
        if (!(radius > p.offset_a) ||
            ((model == VKMD_GB_GBN || model == VKMD_GB_GBN2) && (radius < 1.0 || radius > 2.0))) {
            vkmd_gb_params_destroy(&p);
            return vkmd_fail(VKMD_ERROR_INVALID_ARGUMENT,
                             "generalized Born (%s): atom %d (%s %s) has GB radius %g A; "
                             "expected > %g A%s",
                             mname, a + 1, at->res_name, at->name, radius, p.offset_a,
                             model == VKMD_GB_GBN || model == VKMD_GB_GBN2
                                 ? " and within the neck tables' 1-2 A"
                                 : "");
        }
        const int nucleic = is_nucleic(at->res_name);
        double screen = sys->gb_screen[a];
        if (model == VKMD_GB_GBN)
            screen = screen_of(at->element)->gbn;
        else if (model == VKMD_GB_GBN2)
            screen = nucleic ? screen_of(at->element)->gbn2_nucleic : screen_of(at->element)->gbn2;
        p.charge[a] = at->charge;
        p.radius[a] = radius;
        p.offset_radius[a] = radius - p.offset_a;
        p.scaled_radius[a] = screen * p.offset_radius[a];
        switch (model) {
        case VKMD_GB_OBC1:
            p.alpha[a] = 0.8, p.beta[a] = 0, p.gamma[a] = 2.909125;
            break;
        case VKMD_GB_OBC2:
            p.alpha[a] = 1.0, p.beta[a] = 0.8, p.gamma[a] = 4.85;
            break;
        case VKMD_GB_GBN:
            p.alpha[a] = 1.09511284, p.beta[a] = 1.907992938, p.gamma[a] = 2.50798245;
            break;
        case VKMD_GB_GBN2: {
            const abg_row *r = abg_of(at->element, nucleic);
            p.alpha[a] = r->a, p.beta[a] = r->b, p.gamma[a] = r->g;
            break;
        }
        default: /* HCT: no rescaling */
            break;
        }
    }
    *out = p;
    return VKMD_OK;
}
