#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

// Swift does not import libarchive's cast macros such as AE_IFREG; expose them as constants.
static const unsigned int LIVERY_AE_IFREG = AE_IFREG;
static const unsigned int LIVERY_AE_IFDIR = AE_IFDIR;
