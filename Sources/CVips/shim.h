#include <vips/vips.h>

// libvips' operations take their optional arguments as a NULL-terminated variadic list, which Swift
// cannot call: each operation Livery uses gets a fixed-argument wrapper here (LiveryImage/VipsImage.swift).

/// Initialises libvips once for the process: blocks the loaders libvips marks untrusted (ImageMagick,
/// MATLAB, …: Livery only ever calls the PNG and SVG loaders by name anyway) except SVG from memory
/// (libvips 8.14 marks every librsvg loader untrusted; from a buffer librsvg has no base file and so
/// loads no file or URL an SVG names, and Livery's SVG rule refuses scripts and external references
/// besides), turns the operation cache
/// off (every icon is made once; a cache would only hold memory) and makes libvips' worker pools
/// one thread wide (icons are small; the pipeline runs tenants on every core already).
/// libvips also logs warnings (a CRC error, a bad tile) to stderr through GLib; the failure reaches
/// Livery in vips' error buffer and becomes a located diagnostic, so the log lines are dropped.
static void livery_vips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static inline int livery_vips_start(void) {
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO), livery_vips_drop_log, NULL);
    if (vips_init("livery") != 0) return -1;
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoadSvgBuffer", FALSE);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_concurrency_set(1);
    return 0;
}

/// A PNG from memory, failing on any error or truncation (a corrupt image is refused, not patched up).
static inline int livery_vips_pngload(const void *buffer, size_t length, VipsImage **out) {
    return vips_pngload_buffer((void *)buffer, length, out, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

/// An SVG from memory at `scale` (librsvg): loaded from a buffer, so it has no base location and
/// librsvg resolves no external file or URL it names.
static inline int livery_vips_svgload(const void *buffer, size_t length, double scale, VipsImage **out) {
    return vips_svgload_buffer((void *)buffer, length, out, "scale", scale, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

/// Exactly `width` × `height` (aspect ratio forced), with libvips' premultiplied-alpha resampling.
static inline int livery_vips_resize(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

/// 8-bit sRGB (grey and 16-bit images converted), with an alpha band.
static inline int livery_vips_srgba(VipsImage *in, VipsImage **out) {
    VipsImage *srgb = NULL, *cast = NULL;
    if (vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL) != 0) return -1;
    int result = vips_cast_uchar(srgb, &cast, NULL);
    g_object_unref(srgb);
    if (result != 0) return -1;
    if (vips_image_hasalpha(cast)) { *out = cast; return 0; }
    result = vips_addalpha(cast, out, NULL);
    g_object_unref(cast);
    return result;
}

/// The image without its alpha band, composed over black (used on images already checked opaque).
static inline int livery_vips_flatten(VipsImage *in, VipsImage **out) {
    return vips_flatten(in, out, NULL);
}

/// `in` placed at (`left`, `top`) on a transparent `width` × `height` canvas.
static inline int livery_vips_embed(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
    return vips_embed(in, out, left, top, width, height, "extend", VIPS_EXTEND_BLACK, NULL);
}

/// `overlay` over `base` (Porter-Duff over).
static inline int livery_vips_over(VipsImage *base, VipsImage *overlay, VipsImage **out) {
    return vips_composite2(base, overlay, out, VIPS_BLEND_MODE_OVER, NULL);
}

/// Decodes the whole image into memory once (a lazy pipeline would read its source again per use).
static inline int livery_vips_materialise(VipsImage *in, VipsImage **out) {
    VipsImage *copy = vips_image_copy_memory(in);
    if (copy == NULL) return -1;
    *out = copy;
    return 0;
}

/// PNG bytes with nothing that varies between runs: no metadata chunks (`strip`: no tIME, text or
/// EXIF), fixed compression, no interlacing. Free the buffer with `livery_vips_free`.
static inline int livery_vips_pngsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "compression", 9, "strip", TRUE, "interlace", FALSE, "filter", VIPS_FOREIGN_PNG_FILTER_ALL, NULL);
}

static inline int livery_vips_image_new_rgba(const void *pixels, size_t length, int width, int height, VipsImage **out) {
    VipsImage *image = vips_image_new_from_memory_copy(pixels, length, width, height, 4, VIPS_FORMAT_UCHAR);
    if (image == NULL) return -1;
    image->Type = VIPS_INTERPRETATION_sRGB;
    *out = image;
    return 0;
}

static inline void livery_vips_free(void *pointer) { g_free(pointer); }
static inline void livery_vips_unref(VipsImage *image) { g_object_unref(image); }
static inline const char *livery_vips_version(void) { return vips_version_string(); }
