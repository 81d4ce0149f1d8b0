template<int N> void f(){ ns::k<T, N><<<n,
 nullptr, s>>>(a, [&]{ g<<<1,0,s>>>(); }); }
// k<<<1,2,3>>>()
const char* s = R"x(<<<)x";
#define L(k) k<<<1, nullptr, s>>>( \
 x)
