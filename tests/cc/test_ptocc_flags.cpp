// The declarative flag table: every spelling reaches its own row, the parser,
// --help and the docs' tables are all read from it.
#include "options.hpp"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstring>

using namespace ptocc;

namespace {

// A word that spelling `s` accepts, and the value word after it if it takes one.
std::vector<std::string> example(const FlagSpelling& s) {
    switch (s.form) {
    case FlagForm::Exact: return {s.text};
    case FlagForm::Separate: return {s.text, "value"};
    case FlagForm::Joined:
    case FlagForm::Prefix: return {std::string(s.text) + "value"};
    }
    return {};
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

TEST(FlagTableModel, EverySpellingMatchesItsOwnRowNotAnEarlierOne) {
    int spellings = 0;
    for (const FlagSpec& f : flag_table())
        for (const FlagSpelling& s : f.spellings) {
            ++spellings;
            const FlagMatch m = match_flag(example(s)[0]);
            EXPECT_EQ(m.spec, &f) << example(s)[0] << " is taken by " << (m.spec ? m.spec->usage : "nothing");
            EXPECT_EQ(m.spelling, &s) << example(s)[0];
        }
    EXPECT_GE(spellings, 60);
}

TEST(FlagTableModel, FormsDecideWhatMatches) {
    EXPECT_EQ(match_flag("-f").spec, nullptr);  // Joined needs a value in the word
    EXPECT_EQ(match_flag("-W").spec, nullptr);
    ASSERT_NE(match_flag("-O").spec, nullptr);  // Prefix matches the spelling alone
    EXPECT_EQ(match_flag("-O").spec->action, FlagAction::Compile);
    EXPECT_EQ(match_flag("-g4").spec, nullptr);
    EXPECT_EQ(match_flag("-MDx").spec, nullptr);
    EXPECT_EQ(match_flag("-o").spelling->form, FlagForm::Separate);
    EXPECT_EQ(match_flag("-ofile").spelling->form, FlagForm::Joined);
    EXPECT_EQ(match_flag("-fPIC").spec->action, FlagAction::Ignored);  // the ignored row precedes -f*
    EXPECT_EQ(match_flag("-Wl,-z,now").spec->action, FlagAction::Link);
    EXPECT_EQ(match_flag("-Wno-gnu-zero-variadic").spec->action, FlagAction::Ignored);
    EXPECT_EQ(match_flag("-Wno-unused").spec->action, FlagAction::Compile);
    EXPECT_EQ(match_flag("kernel.cpp").spec, nullptr);
}

// Every spelling parses without an unknown flag; bisheng's command line keeps
// exactly the words of the rows that go to it.
TEST(FlagTableModel, EverySpellingParsesAndReachesBishengUnlessItIsPtoccs) {
    for (const FlagSpec& f : flag_table()) {
        if (f.action == FlagAction::AicoreStart || f.action == FlagAction::HostStart ||
            f.action == FlagAction::AicoreEnd || f.action == FlagAction::HostEnd)
            continue;  // brackets: XaicoreBracket*, HostBracket*
        for (const FlagSpelling& s : f.spellings) {
            std::vector<std::string> args = example(s);
            args.push_back("k.cpp");
            std::vector<Diag> diags;
            Options o = parse_args(args, diags);
            EXPECT_TRUE(o.unknown.empty()) << args[0];
            ASSERT_EQ(o.inputs.size(), 1u) << args[0];
            std::vector<std::string> want = f.to_bisheng ? args : std::vector<std::string>{"k.cpp"};
            EXPECT_EQ(o.user_args, want) << args[0];
        }
    }
}

TEST(FlagTableModel, OwnFlagsAreTakenEvenInsideBrackets) {
    std::vector<Diag> diags;
    Options o = parse_args({"-Xhost-start", "--dry-run", "-g", "-Xhost-end", "-Xaicore-start", "--keep-temps",
                            "-O3", "-Xaicore-end", "k.cpp"},
                           diags);
    EXPECT_TRUE(diags.empty());
    EXPECT_TRUE(o.dry_run);
    EXPECT_TRUE(o.keep_temps);
    EXPECT_EQ(o.host_only, std::vector<std::string>{"-g"});
    EXPECT_EQ(o.ignored, (std::vector<std::string>{"-Xaicore-start", "-O3", "-Xaicore-end"}));
    EXPECT_EQ(o.user_args, (std::vector<std::string>{"-Xhost-start", "-g", "-Xhost-end", "-Xaicore-start", "-O3",
                                                     "-Xaicore-end", "k.cpp"}));
}

TEST(FlagTableModel, AicoreBracketInsideAHostBracketDropsItsFlags) {
    std::vector<Diag> diags;
    Options o = parse_args({"-Xhost-start", "-g", "-Xaicore-start", "-O3", "-Xaicore-end", "-O1", "-Xhost-end", "k.cpp"},
                           diags);
    EXPECT_TRUE(diags.empty());
    EXPECT_EQ(o.host_only, (std::vector<std::string>{"-g", "-O1"}));
    EXPECT_EQ(o.ignored, (std::vector<std::string>{"-Xaicore-start", "-O3", "-Xaicore-end"}));
}

TEST(FlagTableModel, StrayBracketEndsAreErrors) {
    std::vector<Diag> diags;
    parse_args({"-Xhost-end", "-Xaicore-end", "k.cpp"}, diags);
    ASSERT_EQ(diags.size(), 2u);
    EXPECT_EQ(diags[0].text, "'-Xhost-end' without a preceding '-Xhost-start'");
    EXPECT_EQ(diags[1].text, "'-Xaicore-end' without a preceding '-Xaicore-start'");
}

TEST(FlagTableModel, LanguageErrorsNameTheFormGiven) {
    std::vector<Diag> diags;
    parse_args({"-x", "fortran", "-xpascal", "k.cpp"}, diags);
    ASSERT_EQ(diags.size(), 2u);
    EXPECT_EQ(diags[0].text, "-x fortran: unknown language; use cce, c++, c or none");
    EXPECT_EQ(diags[1].text, "-xpascal: unknown language; use -xcce, -xc++, -xc or -xnone");
}

TEST(FlagTableModel, SeparateAndJoinedFormsGiveTheSameOptions) {
    std::vector<Diag> d1, d2;
    Options s = parse_args({"-I", "inc", "-D", "MEMORY_BASE", "-U", "X", "-l", "m", "-L", "/l", "-MF", "k.d", "-o",
                            "k.o", "k.cpp"},
                           d1);
    Options j = parse_args({"-Iinc", "-DMEMORY_BASE", "-UX", "-lm", "-L/l", "-MFk.d", "-ok.o", "k.cpp"}, d2);
    EXPECT_TRUE(d1.empty());
    EXPECT_TRUE(d2.empty());
    EXPECT_EQ(s.link, j.link);
    EXPECT_EQ(s.link, (std::vector<std::string>{"-lm", "-L/l"}));
    EXPECT_EQ(s.depend, j.depend);
    EXPECT_EQ(s.dep_file, "k.d");
    EXPECT_EQ(j.dep_file, "k.d");
    EXPECT_EQ(s.output, j.output);
    EXPECT_TRUE(s.memory_base);
    EXPECT_TRUE(j.memory_base);
    ASSERT_EQ(s.compile.size(), 3u);
    ASSERT_EQ(j.compile.size(), 3u);
    EXPECT_EQ(s.compile[0].include_dir, "inc");
    EXPECT_EQ(j.compile[0].include_dir, "inc");
    EXPECT_EQ(s.compile[1].argv, (std::vector<std::string>{"-D", "MEMORY_BASE"}));
    EXPECT_EQ(j.compile[1].argv, (std::vector<std::string>{"-DMEMORY_BASE"}));
}

TEST(FlagTableModel, PrintFlagTableIsPtoccsOwn) {
    std::vector<Diag> diags;
    Options o = parse_args({"--print-flag-table-markdown=sim"}, diags);
    EXPECT_EQ(o.print_flag_table, "sim");
    EXPECT_TRUE(o.user_args.empty());
}

TEST(FlagTableModel, HelpListsEveryVisibleRowAndEveryIgnoredFlag) {
    const std::string h = help_text();
    for (const FlagSpec& f : flag_table()) {
        if (!f.help || f.action == FlagAction::Ignored) continue;
        EXPECT_TRUE(contains(h, std::string("  ") + f.usage)) << f.usage;
        EXPECT_TRUE(contains(h, f.help)) << f.usage;
    }
    for (const IgnoredFlag& f : ignored_flags()) {
        char line[512];
        if (std::strlen(f.flag) <= 26) {
            std::snprintf(line, sizeof line, "  %-26s %s\n", f.flag, f.reason);
            EXPECT_TRUE(contains(h, line)) << line;
        } else {
            EXPECT_TRUE(contains(h, std::string("  ") + f.flag + "\n" + std::string(29, ' ') + f.reason + "\n")) << f.flag;
        }
    }
    EXPECT_FALSE(contains(h, "--print-flag-table-markdown"));  // a maintenance flag, not for users
    EXPECT_EQ(h.rfind("usage: ptocc ", 0), 0u);
}

TEST(FlagTableModel, MarkdownSectionsHoldTheirRows) {
    const std::string own = flag_table_markdown("own"), sim = flag_table_markdown("sim"),
                      ign = flag_table_markdown("ignored");
    EXPECT_TRUE(contains(own, "| `--toolchain=auto\\|sim\\|bisheng` | `auto` (default)"));
    EXPECT_TRUE(contains(own, "| `--help`, `-h` | "));
    EXPECT_FALSE(contains(own, "`-v`"));
    EXPECT_TRUE(contains(sim, "| `-v` | "));
    EXPECT_TRUE(contains(sim, "| `-o file`, `-ofile` | output |\n"));
    EXPECT_TRUE(contains(sim, "| `-Wl,...`, `-l lib`, `-llib`, `-L dir`, `-Ldir` | passed to the link, except"));
    EXPECT_FALSE(contains(sim, "`--dry-run`"));
    EXPECT_FALSE(contains(sim, "`-mllvm <option>`"));  // ignored rows have their own table
    for (const IgnoredFlag& f : ignored_flags())
        EXPECT_TRUE(contains(ign, std::string("| `") + f.flag + "` | " + f.reason + " |\n")) << f.flag;
    EXPECT_EQ(flag_table_markdown("nonsense"), "");
    // Rows of a section: its header, separator and one line per row.
    auto lines = [](const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); };
    EXPECT_EQ(lines(ign), ignored_flags().size() + 2);
}

}  // namespace
