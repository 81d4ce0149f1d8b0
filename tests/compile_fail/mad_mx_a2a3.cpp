// The MX scale stores and the MX cube are A5 hardware.
// expect: load_cbuf_to_ca_mx/load_cbuf_to_cb_mx/mad_mx: the MX scale stores and MX cube exist on A5 only
#include <pto/pto-inst.hpp>
void kernel(__cbuf__ uint8_t* src) {
    load_cbuf_to_ca_mx(0, src, 0, 0, 1, 1, 1, 1);
}
