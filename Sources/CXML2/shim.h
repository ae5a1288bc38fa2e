#include <libxml/xmlversion.h>
// Debian builds libxml2 against the system ICU, whose UErrorCode clashes with Foundation's.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>

// `xmlFree` is a global function pointer, which Swift 6 treats as unsafe shared state.
static inline void livery_xml_free(void *pointer) { xmlFree(pointer); }
static inline const char *livery_xml_version(void) { return xmlParserVersion; }
