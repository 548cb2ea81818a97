/* Orbit camera (cglm): rotates about a target, pans it, zooms by distance.
 * Produces Vulkan matrices: depth 0..1 and y pointing down in clip space. */
#ifndef VKMD_VIEWER_CAMERA_H
#define VKMD_VIEWER_CAMERA_H

typedef struct vkmd_camera {
    float target[3];  /* A */
    float distance;   /* A from the target */
    float yaw, pitch; /* radians */
    float fov_y;      /* radians */
    float home_target[3], home_distance;
} vkmd_camera;

/* Frames the axis-aligned bounds lo..hi (A) from the default direction and
 * remembers it as the home view. */
void vkmd_camera_fit(vkmd_camera *cam, const float lo[3], const float hi[3]);

/* Back to the last fitted view. */
void vkmd_camera_reset(vkmd_camera *cam);

/* Mouse drags in pixels of a window `height` pixels high. */
void vkmd_camera_orbit(vkmd_camera *cam, float dx, float dy, float height);
void vkmd_camera_pan(vkmd_camera *cam, float dx, float dy, float height);
/* Scroll steps: positive zooms in. */
void vkmd_camera_zoom(vkmd_camera *cam, float steps);

/* Column-major view and projection matrices for an aspect ratio w/h. */
void vkmd_camera_matrices(const vkmd_camera *cam, float aspect, float out_view[16],
                          float out_proj[16]);

#endif
