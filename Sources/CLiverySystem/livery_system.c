#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "livery_system.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int livery_rename_exchange(const char *from, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int livery_sync_file_system(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
#ifdef __linux__
    int result = syncfs(fd);
#else
    int result = fsync(fd);
#endif
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

int livery_sync_directory(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

#include <malloc.h>

void livery_release_free_memory(void) {
    malloc_trim(0);
}

/* glibc's memmem is not vectorised for a two-byte needle, and most messages have many single spaces:
   this looks at eight bytes at a time instead. In each 64-bit word, `spaces` has the top bit set in
   every byte that is a space (exact: the add cannot carry from one byte into the next), and a pair
   is two neighbouring set bytes, within the word or across the boundary with the word before. */
int livery_has_double_space(const void *bytes, unsigned long length) {
    const unsigned char *p = bytes;
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, blanks = 0x2020202020202020ULL;
    uint64_t previousLast = 0;  /* 0x80 when the byte before the current word is a space */
    unsigned long i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        uint64_t x = word ^ blanks;
        uint64_t spaces = ~(((x & low7) + low7) | x | low7);
        if ((spaces & (spaces << 8)) | ((spaces << 56 >> 56) & previousLast)) return 1;
        previousLast = spaces >> 56;
    }
    int previousIsSpace = previousLast != 0;
    for (; i < length; i++) {
        int isSpace = p[i] == ' ';
        if (isSpace && previousIsSpace) return 1;
        previousIsSpace = isSpace;
    }
    return 0;
}
