#include "livery_vips.h"

#include <dlfcn.h>
#include <stdio.h>

// libvips' and GLib's functions and constants, declared here rather than included from <vips/vips.h>:
// that header needs GLib's include folders, which only pkg-config knows, and SwiftPM links every library
// pkg-config names into each executable that depends on the target, so libvips would be loaded at start-up
// again. The declarations follow libvips 8's headers (soname libvips.so.42, the ABI these constants belong
// to; Debian 12 has 8.14): an enum argument passes through `...` as an int.
enum {
    LIVERY_VIPS_FAIL_ON_ERROR = 2,            // VipsFailOn: NONE, TRUNCATED, ERROR, WARNING
    LIVERY_VIPS_SIZE_FORCE = 3,               // VipsSize: BOTH, UP, DOWN, FORCE
    LIVERY_VIPS_INTERPRETATION_SRGB = 22,     // VipsInterpretation
    LIVERY_VIPS_EXTEND_BLACK = 0,             // VipsExtend: BLACK, COPY, …
    LIVERY_VIPS_BLEND_MODE_OVER = 2,          // VipsBlendMode: CLEAR, SOURCE, OVER, IN, OUT, ATOP, DEST, DEST_OVER, DEST_IN, …
    LIVERY_VIPS_BLEND_MODE_DEST_IN = 8,
    LIVERY_VIPS_PNG_FILTER_ALL = 0xF8,        // VipsForeignPngFilter: NONE 0x08 | SUB | UP | AVG | PAETH
    LIVERY_VIPS_FORMAT_UCHAR = 0,             // VipsBandFormat
    LIVERY_G_LOG_LEVEL_WARNING = 1 << 4,      // GLogLevelFlags
    LIVERY_G_LOG_LEVEL_MESSAGE = 1 << 5,
    LIVERY_G_LOG_LEVEL_INFO = 1 << 6,
};

typedef void (*LiveryLogFunc)(const char *domain, int level, const char *message, void *data);

static struct {
    int (*init)(const char *argv0);
    void (*block_untrusted_set)(int state);
    void (*operation_block_set)(const char *name, int state);
    void (*cache_set_max)(int max);
    void (*cache_set_max_mem)(size_t max);
    void (*concurrency_set)(int concurrency);
    int (*pngload_buffer)(void *buffer, size_t length, VipsImage **out, ...);
    int (*svgload_buffer)(void *buffer, size_t length, VipsImage **out, ...);
    int (*thumbnail_image)(VipsImage *in, VipsImage **out, int width, ...);
    int (*colourspace)(VipsImage *in, VipsImage **out, int space, ...);
    int (*cast_uchar)(VipsImage *in, VipsImage **out, ...);
    int (*image_hasalpha)(VipsImage *image);
    int (*addalpha)(VipsImage *in, VipsImage **out, ...);
    int (*flatten)(VipsImage *in, VipsImage **out, ...);
    int (*embed)(VipsImage *in, VipsImage **out, int x, int y, int width, int height, ...);
    int (*composite2)(VipsImage *base, VipsImage *overlay, VipsImage **out, int mode, ...);
    int (*copy)(VipsImage *in, VipsImage **out, ...);
    VipsImage *(*image_copy_memory)(VipsImage *image);
    int (*pngsave_buffer)(VipsImage *in, void **buffer, size_t *length, ...);
    VipsImage *(*image_new_from_memory_copy)(const void *data, size_t size, int width, int height, int bands, int format);
    void *(*image_write_to_memory)(VipsImage *in, size_t *size);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    const char *(*version_string)(void);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*g_object_unref)(void *object);
    void (*g_free)(void *pointer);
    unsigned (*g_log_set_handler)(const char *domain, int levels, LiveryLogFunc handler, void *data);
} vips;

static int loaded = 0;
static char load_error[512] = "libvips is not loaded";

static void *symbol(void *library, const char *name, int *missing) {
    void *address = dlsym(library, name);
    if (address == NULL && !*missing) {
        *missing = 1;
        snprintf(load_error, sizeof load_error, "libvips lacks %s", name);
    }
    return address;
}

/// libvips also logs warnings (a CRC error, a bad tile) to stderr through GLib; the failure reaches Livery in
/// vips' error buffer and becomes a located diagnostic, so the log lines are dropped.
static void drop_log(const char *domain, int level, const char *message, void *data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int livery_vips_start(void) {
#if defined(__APPLE__)
    // Homebrew's prefix on Apple silicon and on Intel (dlopen searches neither by default).
    static const char *const names[] = {"libvips.42.dylib", "/opt/homebrew/lib/libvips.42.dylib", "/usr/local/lib/libvips.42.dylib"};
#else
    static const char *const names[] = {"libvips.so.42"};
#endif
    void *library = NULL;
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "libvips could not be loaded: %s", reason ? reason : names[0]);
        return -1;
    }
    int missing = 0;
    // dlsym on libvips' handle also finds GLib's and GObject's functions: they are libraries libvips needs.
#define LIVERY_LOAD(field, name) *(void **)&vips.field = symbol(library, name, &missing)
    LIVERY_LOAD(init, "vips_init");
    LIVERY_LOAD(block_untrusted_set, "vips_block_untrusted_set");
    LIVERY_LOAD(operation_block_set, "vips_operation_block_set");
    LIVERY_LOAD(cache_set_max, "vips_cache_set_max");
    LIVERY_LOAD(cache_set_max_mem, "vips_cache_set_max_mem");
    LIVERY_LOAD(concurrency_set, "vips_concurrency_set");
    LIVERY_LOAD(pngload_buffer, "vips_pngload_buffer");
    LIVERY_LOAD(svgload_buffer, "vips_svgload_buffer");
    LIVERY_LOAD(thumbnail_image, "vips_thumbnail_image");
    LIVERY_LOAD(colourspace, "vips_colourspace");
    LIVERY_LOAD(cast_uchar, "vips_cast_uchar");
    LIVERY_LOAD(image_hasalpha, "vips_image_hasalpha");
    LIVERY_LOAD(addalpha, "vips_addalpha");
    LIVERY_LOAD(flatten, "vips_flatten");
    LIVERY_LOAD(embed, "vips_embed");
    LIVERY_LOAD(composite2, "vips_composite2");
    LIVERY_LOAD(copy, "vips_copy");
    LIVERY_LOAD(image_copy_memory, "vips_image_copy_memory");
    LIVERY_LOAD(pngsave_buffer, "vips_pngsave_buffer");
    LIVERY_LOAD(image_new_from_memory_copy, "vips_image_new_from_memory_copy");
    LIVERY_LOAD(image_write_to_memory, "vips_image_write_to_memory");
    LIVERY_LOAD(image_get_width, "vips_image_get_width");
    LIVERY_LOAD(image_get_height, "vips_image_get_height");
    LIVERY_LOAD(version_string, "vips_version_string");
    LIVERY_LOAD(error_buffer, "vips_error_buffer");
    LIVERY_LOAD(error_clear, "vips_error_clear");
    LIVERY_LOAD(g_object_unref, "g_object_unref");
    LIVERY_LOAD(g_free, "g_free");
    LIVERY_LOAD(g_log_set_handler, "g_log_set_handler");
#undef LIVERY_LOAD
    if (missing) return -1;
    vips.g_log_set_handler("VIPS", LIVERY_G_LOG_LEVEL_WARNING | LIVERY_G_LOG_LEVEL_MESSAGE | LIVERY_G_LOG_LEVEL_INFO, drop_log, NULL);
    if (vips.init("livery") != 0) {
        snprintf(load_error, sizeof load_error, "%s", vips.error_buffer());
        return -1;
    }
    // Blocks the loaders libvips marks untrusted (ImageMagick, MATLAB, …: Livery only ever calls the PNG
    // and SVG loaders by name anyway) except SVG from memory (libvips 8.14 marks every librsvg loader
    // untrusted; from a buffer librsvg has no base file and so loads no file or URL an SVG names, and
    // Livery's SVG rule refuses scripts and external references besides), turns the operation cache off
    // (every icon is made once; a cache would only hold memory) and makes libvips' worker pools one thread
    // wide (icons are small; the pipeline runs tenants on every core already).
    vips.block_untrusted_set(1);
    vips.operation_block_set("VipsForeignLoadSvgBuffer", 0);
    vips.cache_set_max(0);
    vips.cache_set_max_mem(0);
    vips.concurrency_set(1);
    loaded = 1;
    return 0;
}

int livery_vips_pngload(const void *buffer, size_t length, VipsImage **out) {
    if (!loaded) return -1;
    return vips.pngload_buffer((void *)buffer, length, out, "fail_on", LIVERY_VIPS_FAIL_ON_ERROR, NULL);
}

int livery_vips_svgload(const void *buffer, size_t length, double scale, VipsImage **out) {
    if (!loaded) return -1;
    return vips.svgload_buffer((void *)buffer, length, out, "scale", scale, "fail_on", LIVERY_VIPS_FAIL_ON_ERROR, NULL);
}

int livery_vips_resize(VipsImage *in, int width, int height, VipsImage **out) {
    if (!loaded) return -1;
    return vips.thumbnail_image(in, out, width, "height", height, "size", LIVERY_VIPS_SIZE_FORCE, NULL);
}

int livery_vips_srgba(VipsImage *in, VipsImage **out) {
    if (!loaded) return -1;
    VipsImage *srgb = NULL, *cast = NULL;
    if (vips.colourspace(in, &srgb, LIVERY_VIPS_INTERPRETATION_SRGB, NULL) != 0) return -1;
    int result = vips.cast_uchar(srgb, &cast, NULL);
    vips.g_object_unref(srgb);
    if (result != 0) return -1;
    if (vips.image_hasalpha(cast)) { *out = cast; return 0; }
    result = vips.addalpha(cast, out, NULL);
    vips.g_object_unref(cast);
    return result;
}

int livery_vips_flatten(VipsImage *in, VipsImage **out) {
    if (!loaded) return -1;
    return vips.flatten(in, out, NULL);
}

int livery_vips_embed(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
    if (!loaded) return -1;
    return vips.embed(in, out, left, top, width, height, "extend", LIVERY_VIPS_EXTEND_BLACK, NULL);
}

int livery_vips_over(VipsImage *base, VipsImage *overlay, VipsImage **out) {
    if (!loaded) return -1;
    return vips.composite2(base, overlay, out, LIVERY_VIPS_BLEND_MODE_OVER, NULL);
}

int livery_vips_dest_in(VipsImage *base, VipsImage *mask, VipsImage **out) {
    if (!loaded) return -1;
    // DEST_IN: the base's colour where the mask is, alpha multiplied by the mask's (Porter-Duff destination-in).
    return vips.composite2(base, mask, out, LIVERY_VIPS_BLEND_MODE_DEST_IN, NULL);
}

int livery_vips_materialise(VipsImage *in, VipsImage **out) {
    if (!loaded) return -1;
    VipsImage *copy = vips.image_copy_memory(in);
    if (copy == NULL) return -1;
    *out = copy;
    return 0;
}

int livery_vips_pngsave(VipsImage *in, void **buffer, size_t *length) {
    if (!loaded) return -1;
    return vips.pngsave_buffer(in, buffer, length, "compression", 9, "strip", 1, "interlace", 0,
                               "filter", LIVERY_VIPS_PNG_FILTER_ALL, NULL);
}

int livery_vips_image_new_rgba(const void *pixels, size_t length, int width, int height, VipsImage **out) {
    if (!loaded) return -1;
    VipsImage *image = vips.image_new_from_memory_copy(pixels, length, width, height, 4, LIVERY_VIPS_FORMAT_UCHAR);
    if (image == NULL) return -1;
    // Tagged sRGB through vips_copy (its public way to set the interpretation), then made a memory image again.
    VipsImage *tagged = NULL;
    int result = vips.copy(image, &tagged, "interpretation", LIVERY_VIPS_INTERPRETATION_SRGB, NULL);
    vips.g_object_unref(image);
    if (result != 0) return -1;
    VipsImage *copy = vips.image_copy_memory(tagged);
    vips.g_object_unref(tagged);
    if (copy == NULL) return -1;
    *out = copy;
    return 0;
}

void *livery_vips_write_to_memory(VipsImage *in, size_t *length) {
    return loaded ? vips.image_write_to_memory(in, length) : NULL;
}

int livery_vips_width(VipsImage *image) { return loaded ? vips.image_get_width(image) : 0; }
int livery_vips_height(VipsImage *image) { return loaded ? vips.image_get_height(image) : 0; }
int livery_vips_hasalpha(VipsImage *image) { return loaded ? vips.image_hasalpha(image) : 0; }
void livery_vips_free(void *pointer) { if (loaded) vips.g_free(pointer); }
void livery_vips_unref(VipsImage *image) { if (loaded) vips.g_object_unref(image); }
const char *livery_vips_version(void) { return loaded ? vips.version_string() : ""; }
const char *livery_vips_error_buffer(void) { return loaded ? vips.error_buffer() : load_error; }
void livery_vips_error_clear(void) { if (loaded) vips.error_clear(); }
