#ifndef LIVERY_ARCHIVE_READER_H
#define LIVERY_ARCHIVE_READER_H

#include <stddef.h>
#include <sys/types.h>

// The part of libarchive LiveryClientCore reads tar.zst bundles with, loaded on first use (dlopen) rather than
// linked. Linked, libarchive and what it needs (libxml2 and ICU, nettle, liblzma, libzstd, libbz2, liblz4, libacl)
// were loaded and relocated when an app started, about 2 MB of its resident memory, though only a tar.zst bundle
// ever reads through it (zip bundles, the default and the only format on Apple platforms, use ZIPFoundation).
// The build side (LiveryPack) links libarchive as usual: it writes archives in every build.
//
// Each function is libarchive's of the same name without the `livery_` prefix; they fail (NULL, or ARCHIVE_FATAL)
// when libarchive could not be loaded, and `livery_archive_reader_error` then says why.

struct archive;
struct archive_entry;

/// libarchive's status codes and file types, as its headers define them (libarchive 3, soname libarchive.so.13).
enum {
    LIVERY_ARCHIVE_EOF = 1,
    LIVERY_ARCHIVE_OK = 0,
    LIVERY_ARCHIVE_WARN = -20,
    LIVERY_ARCHIVE_FATAL = -30,
};
static const unsigned int LIVERY_ARCHIVE_IFREG = 0100000;
static const unsigned int LIVERY_ARCHIVE_IFDIR = 0040000;

/// Loads libarchive once for the process (thread-safe). 0 on success; -1 when it is missing.
int livery_archive_reader_start(void);
/// Why `livery_archive_reader_start` failed.
const char *livery_archive_reader_error(void);

struct archive *livery_archive_read_new(void);
int livery_archive_read_support_format_tar(struct archive *archive);
int livery_archive_read_support_filter_zstd(struct archive *archive);
int livery_archive_read_open_filename(struct archive *archive, const char *path, size_t block_size);
int livery_archive_read_next_header(struct archive *archive, struct archive_entry **entry);
ssize_t livery_archive_read_data(struct archive *archive, void *buffer, size_t length);
int livery_archive_read_free(struct archive *archive);
const char *livery_archive_error_string(struct archive *archive);
const char *livery_archive_entry_pathname(struct archive_entry *entry);
const char *livery_archive_entry_pathname_utf8(struct archive_entry *entry);
unsigned int livery_archive_entry_filetype(struct archive_entry *entry);

#endif
