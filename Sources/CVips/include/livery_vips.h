#ifndef LIVERY_VIPS_H
#define LIVERY_VIPS_H

#include <stddef.h>

// libvips, loaded on first use (dlopen) rather than linked: linked, it and the hundred shared libraries it
// needs (GLib, cairo, pango, librsvg, OpenEXR, HDF5, FFTW, GnuTLS, …) were loaded and relocated when any
// `livery` command started, 10 MB of every process's memory (`livery fetch` peaked at 58 MB, 47 MB before
// libvips), though only the app-icon rules and the build's icon export ever make an image.
//
// Each operation Livery uses is a fixed-argument function here (libvips' operations take their optional
// arguments as a NULL-terminated variadic list, which Swift cannot call). An image is an opaque `VipsImage *`.
// Every function fails (-1, NULL or 0) when libvips could not be loaded; `livery_vips_error_buffer` then says why.

typedef struct _VipsImage VipsImage;

/// Loads and initialises libvips once for the process (call it once; `RasterImage` does, from a `static let`).
/// 0 on success; -1 when the library is missing or `vips_init` failed (the reason is in the error buffer).
int livery_vips_start(void);

/// A PNG from memory, failing on any error or truncation (a corrupt image is refused, not patched up).
int livery_vips_pngload(const void *buffer, size_t length, VipsImage **out);
/// An SVG from memory at `scale` (librsvg): from a buffer, so librsvg resolves no external file or URL it names.
int livery_vips_svgload(const void *buffer, size_t length, double scale, VipsImage **out);
/// Exactly `width` × `height` (aspect ratio forced), with libvips' premultiplied-alpha resampling.
int livery_vips_resize(VipsImage *in, int width, int height, VipsImage **out);
/// 8-bit sRGB (grey and 16-bit images converted), with an alpha band.
int livery_vips_srgba(VipsImage *in, VipsImage **out);
/// The image without its alpha band, composed over black (used on images already checked opaque).
int livery_vips_flatten(VipsImage *in, VipsImage **out);
/// `in` placed at (`left`, `top`) on a transparent `width` × `height` canvas.
int livery_vips_embed(VipsImage *in, int left, int top, int width, int height, VipsImage **out);
/// `overlay` over `base` (Porter-Duff over).
int livery_vips_over(VipsImage *base, VipsImage *overlay, VipsImage **out);
/// `base` kept only where `mask` is opaque: its colour, its alpha times the mask's (Porter-Duff destination-in).
int livery_vips_dest_in(VipsImage *base, VipsImage *mask, VipsImage **out);
/// Decodes the whole image into memory once (a lazy pipeline would read its source again per use).
int livery_vips_materialise(VipsImage *in, VipsImage **out);
/// PNG bytes with nothing that varies between runs: no metadata chunks (`strip`: no tIME, text or EXIF),
/// fixed compression, no interlacing. Free the buffer with `livery_vips_free`.
int livery_vips_pngsave(VipsImage *in, void **buffer, size_t *length);
/// An 8-bit sRGB image with an alpha band from `width` × `height` RGBA pixels (copied), in memory.
int livery_vips_image_new_rgba(const void *pixels, size_t length, int width, int height, VipsImage **out);
/// The pixels, row by row (free with `livery_vips_free`); NULL on failure.
void *livery_vips_write_to_memory(VipsImage *in, size_t *length);

int livery_vips_width(VipsImage *image);
int livery_vips_height(VipsImage *image);
int livery_vips_hasalpha(VipsImage *image);
void livery_vips_free(void *pointer);
void livery_vips_unref(VipsImage *image);
/// libvips' version, e.g. "8.14.1"; "" when it could not be loaded.
const char *livery_vips_version(void);
/// libvips' error messages since the last clear (or why libvips could not be loaded).
const char *livery_vips_error_buffer(void);
void livery_vips_error_clear(void);

#endif
