// Call-site macros of the layout instruction family (see pto/call_sites.hpp).
#pragma once
