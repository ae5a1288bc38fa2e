// PKCS#11 types and constants only: LiverySign loads the module an operator names with dlopen and
// calls it through the function list that module returns (C_GetFunctionList), never through
// p11-kit. The header is p11-kit's because Debian and Homebrew both ship it; in its default
// (compatibility) mode it spells names as the PKCS#11 standard does: CK_ATTRIBUTE, pValue, ulValueLen.
#include <p11-kit/pkcs11.h>
