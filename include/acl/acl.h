/*
 * ptolab ACL subset: the header host programs include.
 *
 * Declares the part of Huawei's ACL that the simulator implements, so a host
 * main.cpp written for ACL builds against libptosim. docs/acl.md lists what
 * is there, what each call checks, and what is missing.
 */
#ifndef PTOLAB_ACL_ACL_H_
#define PTOLAB_ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"
#include "acl_mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * configPath may be NULL or ""; otherwise the file must be readable. Its
 * contents are not interpreted by the simulator.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_ACL_ACL_H_ */
