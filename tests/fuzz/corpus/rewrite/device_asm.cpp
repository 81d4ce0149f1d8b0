__global__ AICORE void k(__gm__ uint64_t* out) {
    uint64_t t = 0, pc = 0;
    asm volatile("MOV %0, SYS_CNT" : "=l"(t));
    __asm__ __volatile__("MOV %0, PC\n"
                         : [o] "=l"(pc)
                         : "r"(t)
                         : "memory");
    asm("nop");
    out[0] = t + pc;
}
void call(void* s, uint8_t* p) { k<<<1, nullptr, s>>>((__gm__ uint64_t*)p); }
