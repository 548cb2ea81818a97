# Second SPIR-V builds of shaders with one preprocessor define each, read by
# cmake/shaders.cmake: "<file> <suffix> <DEFINE>" embeds <file> compiled with
# -D<DEFINE> as "<file>+<suffix>".
#
# Variants are specialization constants everywhere else; these exist because
# a SPIR-V capability is declared for the whole module and checked against
# the device's enabled features before specialization, so an int64 atomic
# behind a false constant still makes the module invalid on a device without
# shaderBufferInt64Atomics (and any int64 type, without shaderInt64).
#
# +words: fixed-point sums in 32-bit words only (common/fixed_point.glsl),
# for devices without 64-bit integer atomics or arithmetic; same results to
# the bit. engine/forces/fixed_point.c picks the module.
#
# +fp16 / +fp16words (nonbonded.comp only): LJ pair math in half precision
# (capability Float16, so a module of its own: shaderFloat16 is optional);
# engine/forces/pass_nonbonded.c picks it for --nonbonded fp16.
#
# +subgroup / +subgroupwords (gb.comp): the j atoms passed round by subgroup
# shuffles instead of shared-memory tiles (capability GroupNonUniformShuffle),
# for CPU devices; engine/forces/pass_gb.c picks the build.
#
# +shared / +sharedwords (the tile shaders, common/tile.glsl): lane groups
# exchange data through shared memory instead of subgroup shuffles (the
# GroupNonUniformShuffle capability), for devices without them;
# engine/forces/tile.c picks the build.
set(VKMD_SHADER_VARIANTS
  "bonded.comp words VKMD_FIXED_WORDS"
  "vsite.comp words VKMD_FIXED_WORDS"
  "gb.comp words VKMD_FIXED_WORDS"
  "gb.comp subgroup VKMD_GB_SUBGROUP"
  "gb.comp subgroupwords VKMD_GB_SUBGROUP_WORDS"
  "fixed_point_selftest.comp words VKMD_FIXED_WORDS"
  "md.comp words VKMD_FIXED_WORDS"
  "step.comp words VKMD_FIXED_WORDS"
  "forces.comp words VKMD_FIXED_WORDS"
  "forces.comp shared VKMD_TILE_SHARED"
  "forces.comp sharedwords VKMD_TILE_SHARED_WORDS"
  "minimize_fire.comp words VKMD_FIXED_WORDS"
  "nonbonded.comp words VKMD_FIXED_WORDS"
  "nonbonded.comp fp16 VKMD_NB_FP16"
  "nonbonded.comp fp16words VKMD_NB_FP16_WORDS"
  "nonbonded.comp shared VKMD_TILE_SHARED"
  "nonbonded.comp sharedwords VKMD_TILE_SHARED_WORDS"
  "nl_prune.comp shared VKMD_TILE_SHARED"
  "nl_build.comp shared VKMD_TILE_SHARED"
  "pme_convolve.comp words VKMD_FIXED_WORDS"
  "pme_gather.comp words VKMD_FIXED_WORDS"
  "pme_grid_convert.comp words VKMD_FIXED_WORDS"
  "pme_spread.comp words VKMD_FIXED_WORDS"
  "uff.comp words VKMD_FIXED_WORDS"
  "uff_fire.comp words VKMD_FIXED_WORDS"
  "uff_lbfgs.comp words VKMD_FIXED_WORDS"
  "uff_relax_replica.comp words VKMD_FIXED_WORDS"
  "uff_md.comp words VKMD_FIXED_WORDS"
  "uff_surface_direct.comp words VKMD_FIXED_WORDS"
  "uff_surface_grid_build.comp words VKMD_FIXED_WORDS"
  "uff_surface_grid_eval.comp words VKMD_FIXED_WORDS"
)
