// A2A3 mix kernel whose two builds differ only by -DAB=<n>: the Cube core
// writes 10*AB into out[0], each Vector sub-block writes 100*AB + sub into
// out[1 + sub]. Two builds loaded in one process (an A/B comparison) must
// each run their own Cube and Vector code (docs/kernel-library-format.md).
// Build: ptocc -fPIC -shared -xcce --cce-aicore-arch=dav-c220 -DAB=1 mix_ab.cpp -o lib.so
#ifndef AB
#error "build with -DAB=<n>"
#endif

__global__ __mix__(1, 2) AICORE void mix_ab(__gm__ int32_t* out) {
#if defined(__DAV_C220_CUBE__)
    out[0] = 10 * AB;
#endif
#if defined(__DAV_C220_VEC__)
    out[1 + get_subblockid()] = 100 * AB + static_cast<int32_t>(get_subblockid());
#endif
}

extern "C" void call_mix_ab(void* stream, uint8_t* out) { mix_ab<<<1, nullptr, stream>>>((__gm__ int32_t*)out); }
