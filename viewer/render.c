/* Viewer pipelines and buffers; see render.h. Every pipeline has no vertex
 * input (vertex pulling) and dynamic viewport and scissor, so a resize
 * recreates only the swapchain. */
#include "render.h"

#include "cell_outline.h"
#include "font.h"
#include "vk/barrier.h"
#include "vk/check.h"
#include "vk/spirv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* CPK colour (rgb) and van der Waals radius (A, Bondi) by atomic number. */
typedef struct element_style {
    int32_t z;
    uint8_t r, g, b;
    float vdw;
} element_style;

static const element_style styles[] = {
    {1, 255, 255, 255, 1.20f}, {6, 144, 144, 144, 1.70f},  {7, 48, 80, 248, 1.55f},
    {8, 255, 13, 13, 1.52f},   {9, 144, 224, 80, 1.47f},   {11, 171, 92, 242, 2.27f},
    {12, 138, 255, 0, 1.73f},  {15, 255, 128, 0, 1.80f},   {16, 255, 255, 48, 1.80f},
    {17, 31, 240, 31, 1.75f},  {19, 143, 64, 212, 2.75f},  {20, 61, 255, 0, 2.31f},
    {26, 224, 102, 51, 2.00f}, {30, 125, 128, 176, 1.39f}, {35, 166, 41, 41, 1.85f},
    {53, 148, 0, 148, 1.98f},
};

static element_style style_of(int32_t z)
{
    for (size_t i = 0; i < sizeof styles / sizeof *styles; ++i)
        if (styles[i].z == z)
            return styles[i];
    const element_style other = {z, 255, 20, 147, 1.8f}; /* unknown: pink */
    return other;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static vkmd_result create_shader(vkmd_vk_context *ctx, const char *name, VkShaderModule *out)
{
    vkmd_result res = VKMD_OK;
    const vkmd_spirv *s = vkmd_spirv_find(name);
    if (!s)
        return vkmd_fail(VKMD_ERROR_UNSUPPORTED, "viewer: shader %s is not embedded", name);
    const VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                         .codeSize = s->size,
                                         .pCode = s->code};
    VKMD_VK_CHECK(vkCreateShaderModule(ctx->device, &ci, NULL, out));
cleanup:
    return res;
}

typedef struct pipe_desc {
    const char *vert, *frag;
    VkPrimitiveTopology topology;
    int depth; /* test and write */
    int blend; /* alpha blending */
} pipe_desc;

static vkmd_result create_pipeline(vkmd_vk_context *ctx, const vkmd_render *r, VkRenderPass rp,
                                   const pipe_desc *d, VkPipeline *out)
{
    vkmd_result res = VKMD_OK;
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    VKMD_TRY(create_shader(ctx, d->vert, &vs));
    VKMD_TRY(create_shader(ctx, d->frag, &fs));
    const VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vs,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = fs,
         .pName = "main"},
    };
    const VkPipelineVertexInputStateCreateInfo vin = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    const VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = d->topology};
    const VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1};
    const VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f};
    const VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    const VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = (VkBool32)d->depth,
        .depthWriteEnable = (VkBool32)d->depth,
        .depthCompareOp = VK_COMPARE_OP_LESS};
    const VkPipelineColorBlendAttachmentState att = {
        .blendEnable = (VkBool32)d->blend,
        .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
        .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
        .colorBlendOp = VK_BLEND_OP_ADD,
        .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
        .dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO,
        .alphaBlendOp = VK_BLEND_OP_ADD,
        .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                          VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
    const VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &att};
    const VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    const VkPipelineDynamicStateCreateInfo dy = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = 2,
        .pDynamicStates = dyn};
    const VkGraphicsPipelineCreateInfo ci = {.sType =
                                                 VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                             .stageCount = 2,
                                             .pStages = stages,
                                             .pVertexInputState = &vin,
                                             .pInputAssemblyState = &ia,
                                             .pViewportState = &vp,
                                             .pRasterizationState = &rs,
                                             .pMultisampleState = &ms,
                                             .pDepthStencilState = &ds,
                                             .pColorBlendState = &cb,
                                             .pDynamicState = &dy,
                                             .layout = r->layout,
                                             .renderPass = rp,
                                             .subpass = 0};
    VKMD_VK_CHECK(vkCreateGraphicsPipelines(ctx->device, VK_NULL_HANDLE, 1, &ci, NULL, out));
cleanup:
    if (vs)
        vkDestroyShaderModule(ctx->device, vs, NULL);
    if (fs)
        vkDestroyShaderModule(ctx->device, fs, NULL);
    return res;
}

static vkmd_result make_buffer(vkmd_vk_context *ctx, const char *name, VkDeviceSize size,
                               const void *data, vkmd_vk_buffer *out)
{
    vkmd_result res = VKMD_OK;
    const vkmd_vk_buffer_desc d = {.size = size < 16 ? 16 : size, .name = name};
    VKMD_TRY(vkmd_vk_buffer_create(ctx, &d, out));
    if (data)
        VKMD_TRY(vkmd_vk_buffer_upload(ctx, out, 0, data, size));
cleanup:
    return res;
}

/* Per-atom style, and the pairs: bonds outside waters, then water O-H. */
static vkmd_result upload_topology(vkmd_vk_context *ctx, const vkmd_system *sys,
                                   const vkmd_render_sources *src, vkmd_render *r)
{
    vkmd_result res = VKMD_OK;
    const int32_t n = sys->atom_count;
    vkmd_gpu_uvec4 *atoms = calloc((size_t)n, sizeof *atoms);
    uint8_t *is_water = calloc((size_t)n, 1), *is_vsite = calloc((size_t)n, 1);
    uint32_t *pairs =
        calloc(2 * ((size_t)sys->bond_count + 2 * (size_t)sys->water_count) + 2, sizeof *pairs);
    uint32_t *zeros = NULL;
    if (!atoms || !is_water || !is_vsite || !pairs) {
        res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "viewer: out of memory");
        goto cleanup;
    }
    for (int32_t w = 0; w < sys->water_count; ++w) {
        is_water[sys->waters[w].o] = 1;
        is_water[sys->waters[w].h1] = 1;
        is_water[sys->waters[w].h2] = 1;
    }
    /* Virtual sites: small cyan spheres, in the water mode of their water. */
    for (int32_t k = 0; k < sys->vsite_count; ++k) {
        is_vsite[sys->vsites[k].site] = 1;
        is_water[sys->vsites[k].site] = is_water[sys->vsites[k].parents[0]];
    }
    for (int32_t i = 0; i < n; ++i) {
        element_style s = style_of(sys->atoms[i].element);
        if (is_vsite[i])
            s = (element_style){0, 0, 210, 255, 0.35f};
        const uint32_t replica =
            src->atoms_per_replica > 0 ? (uint32_t)(i / src->atoms_per_replica) : 0;
        atoms[i].x = (uint32_t)s.r | (uint32_t)s.g << 8 | (uint32_t)s.b << 16 | 255u << 24;
        atoms[i].y = float_bits(s.vdw);
        /* a site's ball pokes out of its oxygen's (0.38 A at 0.125 A) */
        atoms[i].z = float_bits(is_vsite[i] ? 0.3f : 0.25f * s.vdw);
        atoms[i].w = (is_water[i] ? VKMD_VIEW_ATOM_WATER : 0u) |
                     (is_vsite[i] ? VKMD_VIEW_ATOM_VSITE : 0u) | replica << 8;
    }
    uint32_t p = 0;
    for (int32_t b = 0; b < sys->bond_count; ++b) {
        const int32_t i = sys->bonds[b].i, j = sys->bonds[b].j;
        if (is_water[i] && is_water[j])
            continue;
        pairs[2 * p] = (uint32_t)i;
        pairs[2 * p + 1] = (uint32_t)j;
        ++p;
    }
    r->bond_pairs = p;
    for (int32_t w = 0; w < sys->water_count; ++w) {
        const vkmd_water *wt = &sys->waters[w];
        pairs[2 * p] = (uint32_t)wt->o;
        pairs[2 * p + 1] = (uint32_t)wt->h1;
        pairs[2 * p + 2] = (uint32_t)wt->o;
        pairs[2 * p + 3] = (uint32_t)wt->h2;
        p += 2;
    }
    r->water_pairs = p - r->bond_pairs;
    r->atom_count = (uint32_t)n;
    VKMD_TRY(make_buffer(ctx, "viewer atoms", sizeof *atoms * (size_t)n, atoms, &r->atom_buf));
    VKMD_TRY(
        make_buffer(ctx, "viewer pairs", sizeof *pairs * 2 * (p ? p : 1), pairs, &r->pair_buf));
    /* Stand-in for missing velocities/forces: zeros of the right size. */
    if (!src->velocities || !src->forces) {
        const size_t zb = 16 * (size_t)n > 16 ? 16 * (size_t)n : 16;
        zeros = calloc(zb, 1);
        if (!zeros) {
            res = vkmd_fail(VKMD_ERROR_OUT_OF_MEMORY, "viewer: out of memory");
            goto cleanup;
        }
        VKMD_TRY(make_buffer(ctx, "viewer zeros", zb, zeros, &r->zero_buf));
    }
    /* A triclinic cell's outline, end points as vec4 (a placeholder else). */
    float edges[6 * VKMD_CELL_OUTLINE_MAX_EDGES];
    vkmd_gpu_vec4 ends[2 * VKMD_CELL_OUTLINE_MAX_EDGES];
    memset(ends, 0, sizeof ends);
    int wigner = 0;
    const int ne =
        sys->box.periodic && sys->box.triclinic ? vkmd_cell_outline(&sys->box, edges, &wigner) : 0;
    for (int e = 0; e < 2 * ne; ++e)
        ends[e] = (vkmd_gpu_vec4){edges[3 * e], edges[3 * e + 1], edges[3 * e + 2], 0.0f};
    r->outline_edges = (uint32_t)ne;
    r->box_kind = ne == 0  ? VKMD_VIEW_BOX_RECT
                  : wigner ? VKMD_VIEW_BOX_WIGNER
                           : VKMD_VIEW_BOX_PARALLEL;
    VKMD_TRY(make_buffer(ctx, "viewer outline", sizeof(vkmd_gpu_vec4) * 2 * (size_t)(ne ? ne : 1),
                         ends, &r->outline_buf));
cleanup:
    free(atoms);
    free(is_water);
    free(is_vsite);
    free(pairs);
    free(zeros);
    return res;
}

vkmd_result vkmd_render_create(vkmd_vk_context *ctx, VkRenderPass render_pass,
                               const vkmd_system *sys, const vkmd_render_sources *src,
                               vkmd_render *out)
{
    vkmd_result res = VKMD_OK;
    memset(out, 0, sizeof *out);
    vkmd_render *r = out;
    uint32_t font[2 * VKMD_FONT_GLYPHS];
    vkmd_font_pack(font);
    VKMD_TRY(upload_topology(ctx, sys, src, r));
    r->w_is_mass = src->velocity_w_is_mass ? 1.0f : 0.0f;
    r->replicas =
        src->atoms_per_replica > 0
            ? (uint32_t)((sys->atom_count + src->atoms_per_replica - 1) / src->atoms_per_replica)
            : 1;
    if (src->replica_spacing_a > 0 && r->replicas > 1) {
        /* A near-cubic grid: columns x rows x layers. */
        r->spacing = (float)src->replica_spacing_a;
        uint32_t c = 1;
        while (c * c * c < r->replicas)
            ++c;
        r->grid_columns = c;
        r->grid_rows = c;
    }
    VKMD_TRY(make_buffer(ctx, "viewer frame", sizeof(vkmd_view_frame), NULL, &r->frame_buf));
    VKMD_TRY(make_buffer(ctx, "viewer text", sizeof(vkmd_gpu_uvec4) * VKMD_RENDER_TEXT_MAX, NULL,
                         &r->text_buf));
    VKMD_TRY(make_buffer(ctx, "viewer font", sizeof font, font, &r->font_buf));

    VkDescriptorSetLayoutBinding b[VKMD_VIEW_BINDING_COUNT];
    for (uint32_t i = 0; i < VKMD_VIEW_BINDING_COUNT; ++i)
        b[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                              .descriptorCount = 1,
                                              .stageFlags = VK_SHADER_STAGE_VERTEX_BIT |
                                                            VK_SHADER_STAGE_FRAGMENT_BIT};
    const VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = VKMD_VIEW_BINDING_COUNT,
        .pBindings = b};
    VKMD_VK_CHECK(vkCreateDescriptorSetLayout(ctx->device, &li, NULL, &r->set_layout));
    const VkPushConstantRange pr = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                    sizeof(vkmd_view_push)};
    const VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                            .setLayoutCount = 1,
                                            .pSetLayouts = &r->set_layout,
                                            .pushConstantRangeCount = 1,
                                            .pPushConstantRanges = &pr};
    VKMD_VK_CHECK(vkCreatePipelineLayout(ctx->device, &pli, NULL, &r->layout));
    const VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VKMD_VIEW_BINDING_COUNT};
    const VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                           .maxSets = 1,
                                           .poolSizeCount = 1,
                                           .pPoolSizes = &ps};
    VKMD_VK_CHECK(vkCreateDescriptorPool(ctx->device, &pi, NULL, &r->pool));
    const VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                            .descriptorPool = r->pool,
                                            .descriptorSetCount = 1,
                                            .pSetLayouts = &r->set_layout};
    VKMD_VK_CHECK(vkAllocateDescriptorSets(ctx->device, &ai, &r->set));
    const vkmd_vk_buffer *bufs[VKMD_VIEW_BINDING_COUNT] = {
        [VKMD_VIEW_BINDING_POSITIONS] = src->positions,
        [VKMD_VIEW_BINDING_ATOMS] = &r->atom_buf,
        [VKMD_VIEW_BINDING_FRAME] = &r->frame_buf,
        [VKMD_VIEW_BINDING_VELOCITIES] = src->velocities ? src->velocities : &r->zero_buf,
        [VKMD_VIEW_BINDING_FORCES] = src->forces ? src->forces : &r->zero_buf,
        [VKMD_VIEW_BINDING_PAIRS] = &r->pair_buf,
        [VKMD_VIEW_BINDING_TEXT] = &r->text_buf,
        [VKMD_VIEW_BINDING_FONT] = &r->font_buf,
        [VKMD_VIEW_BINDING_OUTLINE] = &r->outline_buf,
    };
    VkDescriptorBufferInfo bi[VKMD_VIEW_BINDING_COUNT];
    VkWriteDescriptorSet w[VKMD_VIEW_BINDING_COUNT];
    for (uint32_t i = 0; i < VKMD_VIEW_BINDING_COUNT; ++i) {
        bi[i] = (VkDescriptorBufferInfo){bufs[i]->buffer, 0, VK_WHOLE_SIZE};
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = r->set,
                                      .dstBinding = i,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &bi[i]};
    }
    vkUpdateDescriptorSets(ctx->device, VKMD_VIEW_BINDING_COUNT, w, 0, NULL);

    const pipe_desc atoms = {"view_atoms.vert", "view_atoms.frag",
                             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 1, 0};
    const pipe_desc bonds = {"view_bonds.vert", "view_bonds.frag",
                             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 1, 0};
    const pipe_desc lines = {"view_lines.vert", "view_lines.frag", VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
                             1, 0};
    const pipe_desc text = {"view_text.vert", "view_text.frag", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
                            0, 1};
    VKMD_TRY(create_pipeline(ctx, r, render_pass, &atoms, &r->atoms));
    VKMD_TRY(create_pipeline(ctx, r, render_pass, &bonds, &r->bonds));
    VKMD_TRY(create_pipeline(ctx, r, render_pass, &lines, &r->lines));
    VKMD_TRY(create_pipeline(ctx, r, render_pass, &text, &r->text));
cleanup:
    if (res != VKMD_OK)
        vkmd_render_destroy(ctx, r);
    return res;
}

void vkmd_render_destroy(vkmd_vk_context *ctx, vkmd_render *r)
{
    if (!ctx || !ctx->device)
        return;
    VkPipeline pipes[4] = {r->atoms, r->bonds, r->lines, r->text};
    for (int i = 0; i < 4; ++i)
        if (pipes[i])
            vkDestroyPipeline(ctx->device, pipes[i], NULL);
    if (r->pool)
        vkDestroyDescriptorPool(ctx->device, r->pool, NULL);
    if (r->layout)
        vkDestroyPipelineLayout(ctx->device, r->layout, NULL);
    if (r->set_layout)
        vkDestroyDescriptorSetLayout(ctx->device, r->set_layout, NULL);
    vkmd_vk_buffer_destroy(ctx, &r->atom_buf);
    vkmd_vk_buffer_destroy(ctx, &r->pair_buf);
    vkmd_vk_buffer_destroy(ctx, &r->frame_buf);
    vkmd_vk_buffer_destroy(ctx, &r->text_buf);
    vkmd_vk_buffer_destroy(ctx, &r->font_buf);
    vkmd_vk_buffer_destroy(ctx, &r->outline_buf);
    vkmd_vk_buffer_destroy(ctx, &r->zero_buf);
    memset(r, 0, sizeof *r);
}

void vkmd_render_record_updates(const vkmd_render *r, VkCommandBuffer cb,
                                const vkmd_view_frame *frame, const vkmd_gpu_uvec4 *text,
                                uint32_t text_count)
{
    /* The previous frame's draws read these buffers: writes wait for them. */
    const VkPipelineStageFlags draw =
        VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    vkmd_vk_barrier(cb, draw, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdUpdateBuffer(cb, r->frame_buf.buffer, 0, sizeof *frame, frame);
    if (text_count > VKMD_RENDER_TEXT_MAX)
        text_count = VKMD_RENDER_TEXT_MAX;
    if (text_count)
        vkCmdUpdateBuffer(cb, r->text_buf.buffer, 0, sizeof *text * text_count, text);
    vkmd_vk_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, draw,
                    VK_ACCESS_SHADER_READ_BIT);
}

static void push(const vkmd_render *r, VkCommandBuffer cb, uint32_t kind, uint32_t first)
{
    const vkmd_view_push p = {.kind = kind, .first = first};
    vkCmdPushConstants(cb, r->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof p, &p);
}

void vkmd_render_record_draws(const vkmd_render *r, VkCommandBuffer cb, VkExtent2D extent,
                              const vkmd_view_frame *frame, uint32_t text_count)
{
    const VkViewport vp = {0, 0, (float)extent.width, (float)extent.height, 0, 1};
    const VkRect2D sc = {{0, 0}, extent};
    vkCmdSetViewport(cb, 0, 1, &vp);
    vkCmdSetScissor(cb, 0, 1, &sc);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, r->layout, 0, 1, &r->set, 0, NULL);
    const uint32_t water = frame->mode.z & VKMD_VIEW_WATER_MASK;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, r->atoms);
    push(r, cb, VKMD_VIEW_DRAW_ATOMS, 0);
    vkCmdDraw(cb, 6, r->atom_count, 0, 0);
    if (frame->mode.y == VKMD_VIEW_REP_BALL_STICK) {
        const uint32_t n = r->bond_pairs + (water == VKMD_VIEW_WATER_SHOWN ? r->water_pairs : 0);
        if (n) {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, r->bonds);
            push(r, cb, VKMD_VIEW_DRAW_BONDS, 0);
            vkCmdDraw(cb, 6, n, 0, 0);
        }
    }
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, r->lines);
    if (water == VKMD_VIEW_WATER_THIN && r->water_pairs) {
        push(r, cb, VKMD_VIEW_DRAW_WATER, r->bond_pairs);
        vkCmdDraw(cb, 2 * r->water_pairs, 1, 0, 0);
    }
    if (frame->box.w > 0) {
        push(r, cb, VKMD_VIEW_DRAW_BOX, 0);
        vkCmdDraw(cb, r->outline_edges ? 2 * r->outline_edges : 24, 1, 0, 0);
    }
    if (text_count) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, r->text);
        push(r, cb, VKMD_VIEW_DRAW_TEXT, 0);
        vkCmdDraw(cb, 6, text_count > VKMD_RENDER_TEXT_MAX ? VKMD_RENDER_TEXT_MAX : text_count, 0,
                  0);
    }
}
