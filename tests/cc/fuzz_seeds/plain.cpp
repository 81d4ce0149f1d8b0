k<<<1, nullptr, s>>>(x);
