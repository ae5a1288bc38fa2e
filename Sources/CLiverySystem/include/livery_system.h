#ifndef LIVERY_SYSTEM_H
#define LIVERY_SYSTEM_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL or ENOSYS where unsupported).
int livery_rename_exchange(const char *from, const char *to);



/// Flushes to disk everything written to the file system holding `path` (Linux syncfs; elsewhere an
/// fsync of `path` itself). Returns 0 on success, -1 with errno set otherwise.
int livery_sync_file_system(const char *path);

/// Flushes the directory `path` (its entries: files created, renamed or removed in it) to disk.
int livery_sync_directory(const char *path);

/// Returns freed heap memory to the system (glibc malloc_trim), between groups of tenants.
void livery_release_free_memory(void);
/// True when `length` bytes at `bytes` contain two spaces in a row (glibc's vectorised memmem).
int livery_has_double_space(const void *bytes, unsigned long length);
#endif
