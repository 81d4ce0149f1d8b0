#define LAUNCH(k, n, s, ...) k<<<n, nullptr, s>>>(__VA_ARGS__)
#define CONCAT(a, b) a##b
const char* t = R"x(k<<<1, 2, 3>>>(x))x";
char c = '<'; int d = 1'000 << 2;
void f(void* s, int* p) {
    ns::k<float, (4 > 2), 16><<<8, nullptr, s>>>(p, [](int a) { return a >> 1; }(3));
    CONCAT(run, K)<int><<<1, nullptr, s>>>(
        p,
        p);
    auto g = [&] { k<<<1, nullptr, s>>>(); };
    x.k<<<1>>>;  // a member: left alone
    k<<<1, nullptr  // unterminated
}
