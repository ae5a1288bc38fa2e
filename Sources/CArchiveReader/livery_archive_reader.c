#include "livery_archive_reader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libarchive's functions as its headers declare them (archive.h, archive_entry.h of libarchive 3), without
// including them: their pkg-config entry would make SwiftPM link libarchive into every app again.
static struct {
    struct archive *(*read_new)(void);
    int (*read_support_format_tar)(struct archive *);
    int (*read_support_filter_zstd)(struct archive *);
    int (*read_open_filename)(struct archive *, const char *, size_t);
    int (*read_next_header)(struct archive *, struct archive_entry **);
    ssize_t (*read_data)(struct archive *, void *, size_t);
    int (*read_free)(struct archive *);
    const char *(*error_string)(struct archive *);
    const char *(*entry_pathname)(struct archive_entry *);
    const char *(*entry_pathname_utf8)(struct archive_entry *);
    unsigned int (*entry_filetype)(struct archive_entry *);
} lib;

static int loaded = 0;
static char load_error[512] = "libarchive is not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {"libarchive.13.dylib", "/opt/homebrew/opt/libarchive/lib/libarchive.13.dylib", "/usr/local/opt/libarchive/lib/libarchive.13.dylib"};
#else
    static const char *const names[] = {"libarchive.so.13"};
#endif
    void *library = NULL;
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "libarchive could not be loaded: %s", reason ? reason : names[0]);
        return;
    }
    int missing = 0;
#define LIVERY_LOAD(field, name)                                                              \
    do {                                                                                      \
        *(void **)&lib.field = dlsym(library, name);                                          \
        if (lib.field == NULL && !missing) {                                                  \
            missing = 1;                                                                      \
            snprintf(load_error, sizeof load_error, "libarchive lacks %s", name);             \
        }                                                                                     \
    } while (0)
    LIVERY_LOAD(read_new, "archive_read_new");
    LIVERY_LOAD(read_support_format_tar, "archive_read_support_format_tar");
    LIVERY_LOAD(read_support_filter_zstd, "archive_read_support_filter_zstd");
    LIVERY_LOAD(read_open_filename, "archive_read_open_filename");
    LIVERY_LOAD(read_next_header, "archive_read_next_header");
    LIVERY_LOAD(read_data, "archive_read_data");
    LIVERY_LOAD(read_free, "archive_read_free");
    LIVERY_LOAD(error_string, "archive_error_string");
    LIVERY_LOAD(entry_pathname, "archive_entry_pathname");
    LIVERY_LOAD(entry_pathname_utf8, "archive_entry_pathname_utf8");
    LIVERY_LOAD(entry_filetype, "archive_entry_filetype");
#undef LIVERY_LOAD
    if (!missing) loaded = 1;
}

int livery_archive_reader_start(void) {
    pthread_once(&once, load);
    return loaded ? 0 : -1;
}

const char *livery_archive_reader_error(void) { return load_error; }

struct archive *livery_archive_read_new(void) { return loaded ? lib.read_new() : NULL; }
int livery_archive_read_support_format_tar(struct archive *a) { return loaded ? lib.read_support_format_tar(a) : LIVERY_ARCHIVE_FATAL; }
int livery_archive_read_support_filter_zstd(struct archive *a) { return loaded ? lib.read_support_filter_zstd(a) : LIVERY_ARCHIVE_FATAL; }
int livery_archive_read_open_filename(struct archive *a, const char *path, size_t block) { return loaded ? lib.read_open_filename(a, path, block) : LIVERY_ARCHIVE_FATAL; }
int livery_archive_read_next_header(struct archive *a, struct archive_entry **e) { return loaded ? lib.read_next_header(a, e) : LIVERY_ARCHIVE_FATAL; }
ssize_t livery_archive_read_data(struct archive *a, void *buffer, size_t length) { return loaded ? lib.read_data(a, buffer, length) : LIVERY_ARCHIVE_FATAL; }
int livery_archive_read_free(struct archive *a) { return loaded ? lib.read_free(a) : LIVERY_ARCHIVE_FATAL; }
const char *livery_archive_error_string(struct archive *a) { return loaded ? lib.error_string(a) : load_error; }
const char *livery_archive_entry_pathname(struct archive_entry *e) { return loaded ? lib.entry_pathname(e) : NULL; }
const char *livery_archive_entry_pathname_utf8(struct archive_entry *e) { return loaded ? lib.entry_pathname_utf8(e) : NULL; }
unsigned int livery_archive_entry_filetype(struct archive_entry *e) { return loaded ? lib.entry_filetype(e) : 0; }
