#ifndef LIVERY_SYSTEM_H
#define LIVERY_SYSTEM_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (EINVAL or ENOSYS where unsupported).
int livery_rename_exchange(const char *from, const char *to);



/// Returns freed heap memory to the system (glibc malloc_trim), between groups of tenants.
void livery_release_free_memory(void);
/// True when `length` bytes at `bytes` contain two spaces in a row (glibc's vectorised memmem).
int livery_has_double_space(const void *bytes, unsigned long length);
#endif
