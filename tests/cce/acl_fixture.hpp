// The harness every tests/cce suite shares: ACL set up once per suite, a
// stream per test, device copies of host vectors freed after it, and the
// results read back after the stream synchronised.
#pragma once
#include <acl/acl.h>
#include <gtest/gtest.h>
#include <ptosim/core.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cce_test {

class AclFixture : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    void SetUp() override { ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS); }
    void TearDown() override {
        for (void* p : blocks) aclrtFree(p);
        aclrtDestroyStream(stream);
    }
    template <class T>
    T* device(const std::vector<T>& host) {
        void* p = nullptr;
        const size_t n = host.size() * sizeof(T);
        EXPECT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(p, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        blocks.push_back(p);
        return static_cast<T*>(p);
    }
    template <class T>
    std::vector<T> back(const T* d, size_t n) {
        EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<T> h(n);
        EXPECT_EQ(aclrtMemcpy(h.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return h;
    }
    aclrtStream stream = nullptr;
    std::vector<void*> blocks;
};

// The dispatch point's records whose op starts with `prefix`, while it lives.
class RecordsSeen {
public:
    explicit RecordsSeen(std::string prefix)
        : id_(ptosim::subscribe([this, p = std::move(prefix)](const ptosim::Core&, const ptosim::OpRecord& r) {
              if (std::string_view(r.op).starts_with(p)) seen.push_back(r);
          })) {}
    RecordsSeen(const RecordsSeen&) = delete;
    RecordsSeen& operator=(const RecordsSeen&) = delete;
    ~RecordsSeen() { ptosim::unsubscribe(id_); }
    std::vector<ptosim::OpRecord> seen;

private:
    int id_;
};

}  // namespace cce_test
