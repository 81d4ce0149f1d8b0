// A JSON string literal for hand-written JSON in the runtime (the checkers'
// logs, the timing summary and trace), which keeps libptosim free of a JSON
// library dependency.
#pragma once
#include <cstdio>
#include <string>

namespace ptosim {

inline std::string json_quote(const std::string& v) {
    std::string o = "\"";
    for (char ch : v) {
        switch (ch) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (static_cast<unsigned char>(ch) < 0x20) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", ch);
                    o += b;
                } else {
                    o += ch;
                }
        }
    }
    return o + "\"";
}

}  // namespace ptosim
