// at_npu::native::OpCommand for extensions built against the simulated
// torch_npu (ptolab, docs/torch_npu.md): only the custom-handler form public
// kernel launchers use. Run() calls the handler at once on the calling
// thread (torch_npu would queue it on its task queue) and raises when it
// returns non-zero. Named ACL operators (Input/Output/Attr) do not exist in
// the simulator and are rejected.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace at_npu {
namespace native {

class OpCommand {
public:
    OpCommand &Name(const std::string &name) {
        name_ = name;
        return *this;
    }
    OpCommand &SetCustomHandler(std::function<int()> handler) {
        handler_ = std::move(handler);
        return *this;
    }
    void Run() {
        if (!handler_) {
            throw std::runtime_error("OpCommand " + name_ +
                                     ": only SetCustomHandler launches are simulated; ACL operators (Input/Output/"
                                     "Attr) have no simulator implementation");
        }
        if (int rc = handler_(); rc != 0)
            throw std::runtime_error("OpCommand " + name_ + ": the custom handler returned " + std::to_string(rc));
    }

private:
    std::string name_;
    std::function<int()> handler_;
};

}  // namespace native
}  // namespace at_npu
