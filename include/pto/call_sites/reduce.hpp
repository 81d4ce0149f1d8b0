// Call-site macros of the reduce instruction family (see pto/call_sites.hpp).
#pragma once
