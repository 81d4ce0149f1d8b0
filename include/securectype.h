/* Limits of securec.h (docs/drop-in.md). */
#ifndef PTOLAB_SECURECTYPE_H_
#define PTOLAB_SECURECTYPE_H_

#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

#endif /* PTOLAB_SECURECTYPE_H_ */
