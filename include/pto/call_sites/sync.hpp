// Call-site macros of the sync instruction family (see pto/call_sites.hpp).
#pragma once
