#include <ptosim/core.hpp>
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace ptosim {

namespace detail {
bool g_has_subscribers = false;
void set_dispatch_hook(void (*hook)(const Core&));
}

namespace {
std::mutex g_mu;
// Called with every record before the subscribers, while set: the remote
// window transport ends the ranges an instruction opened in peers' windows
// (peers.cpp). It makes dispatch() call notify() like a subscriber does.
std::atomic<void (*)(const Core&)> g_hook{nullptr};
std::vector<std::pair<int, Subscriber>> g_subs;
std::vector<int> g_ordered;  // ids of the subscribers that need one order of records
int g_next = 1;
}  // namespace

int subscribe(Subscriber s, bool ordered) {
    std::lock_guard lk(g_mu);
    if (ordered) g_ordered.push_back(g_next);
    g_subs.emplace_back(g_next, std::move(s));
    detail::g_has_subscribers = true;
    return g_next++;
}

void unsubscribe(int id) {
    std::lock_guard lk(g_mu);
    std::erase_if(g_subs, [&](auto& p) { return p.first == id; });
    std::erase(g_ordered, id);
    detail::g_has_subscribers = !g_subs.empty() || g_hook.load() != nullptr;
}

void detail::set_dispatch_hook(void (*hook)(const Core&)) {
    std::lock_guard lk(g_mu);
    g_hook.store(hook);
    detail::g_has_subscribers = !g_subs.empty() || g_hook.load() != nullptr;
}

bool detail::has_ordered_subscribers() {
    std::lock_guard lk(g_mu);
    return !g_ordered.empty();
}

void detail::notify(const Core& c, const OpRecord& r) {
    if (void (*hook)(const Core&) = g_hook.load(std::memory_order_relaxed)) hook(c);
    std::lock_guard lk(g_mu);
    for (auto& [id, s] : g_subs) s(c, r);
}

const char* to_string(Target t) { return t == Target::A2A3 ? "A2A3" : "A5"; }
const char* to_string(CoreType t) { return t == CoreType::AIC ? "AIC" : "AIV"; }
const char* to_string(KernelKind k) {
    switch (k) {
        case KernelKind::Vec: return "vector";
        case KernelKind::Cube: return "cube";
        case KernelKind::Mix: return "mix";
    }
    return "?";
}
const char* to_string(Space s) {
    static const char* names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "L0A_MX", "L0B_MX"};
    return static_cast<int>(s) < kSpaceCount ? names[static_cast<int>(s)] : "?";
}
const char* to_string(Pipe p) {
    static const char* names[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",    "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                  "PIPE_ALL",  "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2",   "PIPE_FIX"};
    return static_cast<int>(p) < kPipeCount ? names[static_cast<int>(p)] : "PIPE_?";
}

}  // namespace ptosim
