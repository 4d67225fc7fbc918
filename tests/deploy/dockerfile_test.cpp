// The Dockerfile checked statically against the repository (no docker, no network): base images,
// the non-root user, COPY sources, the entrypoint, the builtin tokenizer's place, and the packages
// the build and runtime stages install against what CMake finds and what the binaries link.
#include <fnmatch.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deploy_files.hpp"

namespace inferperf::deploy_test {
namespace {

namespace fs = std::filesystem;

const Stage& final_stage() {
  return dockerfile().stages.back();
}

const Stage* build_stage() {
  // The stage the final one copies the binaries from.
  for (const auto& ins : final_stage().body) {
    if (ins.op != "COPY") continue;
    for (const auto& w : split_words(ins.args))
      if (w.rfind("--from=", 0) == 0)
        for (const auto& s : dockerfile().stages)
          if (s.name == w.substr(7)) return &s;
  }
  return nullptr;
}

struct Copy {
  int line = 0;
  std::string from;  // --from=, or "" for the build context
  std::vector<std::string> sources;
  std::string dest;
};

std::vector<Copy> copies(const Stage& s) {
  std::vector<Copy> out;
  for (const auto& ins : s.body) {
    if (ins.op != "COPY" && ins.op != "ADD") continue;
    Copy c;
    c.line = ins.line;
    std::vector<std::string> paths;
    for (const auto& w : split_words(ins.args)) {
      if (w.rfind("--from=", 0) == 0)
        c.from = w.substr(7);
      else if (w.rfind("--", 0) != 0)
        paths.push_back(w);
    }
    if (paths.size() < 2) continue;
    c.dest = paths.back();
    paths.pop_back();
    c.sources = paths;
    out.push_back(c);
  }
  return out;
}

// The line of a stage's apt-get install (its first package), for messages about its list.
int install_line(const Stage& s) {
  const auto w = apt_packages(s);
  return w.empty() ? s.line : w.front().line;
}

std::set<std::string> package_names(const Stage& s) {
  std::set<std::string> out;
  for (const auto& w : apt_packages(s)) out.insert(w.text);
  return out;
}

TEST(Dockerfile, EveryStageIsDebianBookworm) {
  ASSERT_GE(dockerfile().stages.size(), 2u) << "Dockerfile: expected a build and a runtime stage";
  std::set<std::string> names;
  for (const auto& s : dockerfile().stages) {
    static const std::regex ok(R"(debian:bookworm(-slim)?(@sha256:[0-9a-f]{64})?)");
    EXPECT_TRUE(std::regex_match(s.image, ok) || names.count(s.image))
        << dockerfile().where(s.line) << ": FROM " << s.image
        << ": every stage is debian:bookworm or debian:bookworm-slim (the packages named here "
           "are Debian 12's)";
    if (!s.name.empty()) names.insert(s.name);
  }
  EXPECT_EQ(final_stage().image.rfind("debian:bookworm-slim", 0), 0u)
      << dockerfile().where(final_stage().line) << ": the runtime stage is debian:bookworm-slim";
}

TEST(Dockerfile, FinalStageRunsAsAFixedNonRootUser) {
  const auto u = final_user(dockerfile());
  ASSERT_TRUE(u) << dockerfile().where(final_stage().line) << ": the final stage has no USER";
  ASSERT_TRUE(u->uid) << dockerfile().where(u->line) << ": USER " << u->spec
                      << ": give a numeric UID (runAsNonRoot can only verify a number)";
  EXPECT_NE(*u->uid, 0) << dockerfile().where(u->line) << ": USER " << u->spec << " is root";
  ASSERT_TRUE(u->gid) << dockerfile().where(u->line) << ": USER " << u->spec
                      << ": give UID:GID, both numeric";
  // The user exists in the image with that UID and GID.
  bool user = false, group = false;
  for (const auto& ins : final_stage().body) {
    if (ins.op != "RUN") continue;
    const std::string uid = std::to_string(*u->uid), gid = std::to_string(*u->gid);
    user = user || std::regex_search(ins.args, std::regex("useradd .*(--uid|-u) " + uid + "\\b"));
    group =
        group || std::regex_search(ins.args, std::regex("groupadd .*(--gid|-g) " + gid + "\\b"));
  }
  EXPECT_TRUE(user) << dockerfile().where(u->line) << ": no `useradd --uid " << *u->uid
                    << "` in the final stage";
  EXPECT_TRUE(group) << dockerfile().where(u->line) << ": no `groupadd --gid " << *u->gid
                     << "` in the final stage";
}

// .dockerignore patterns (Go filepath.Match per path, a directory excludes what is under it,
// '!' re-includes; the last match wins).
bool ignored(const std::string& rel, const std::vector<std::string>& patterns) {
  bool out = false;
  for (std::string p : patterns) {
    const bool negate = !p.empty() && p[0] == '!';
    if (negate) p.erase(0, 1);
    while (!p.empty() && p.back() == '/') p.pop_back();
    if (p.rfind("./", 0) == 0) p.erase(0, 2);
    // rel itself or any folder above it.
    for (fs::path q = rel; !q.empty(); q = q.parent_path()) {
      const std::string s = q.string();
      const bool hit = fnmatch(p.c_str(), s.c_str(), FNM_PATHNAME) == 0 ||
                       (p.rfind("**/", 0) == 0 &&
                        (fnmatch(p.substr(3).c_str(), q.filename().c_str(), FNM_PATHNAME) == 0));
      if (hit) {
        out = !negate;
        break;
      }
    }
  }
  return out;
}

TEST(Dockerfile, CopiesFromTheContextExistAndAreNotIgnored) {
  std::vector<std::string> patterns;
  if (fs::exists(source_path(".dockerignore"))) {
    std::istringstream in(read_text(source_path(".dockerignore")));
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      if (!l.empty() && l[0] != '#') patterns.push_back(l);
    }
  }
  int seen = 0;
  for (const auto& s : dockerfile().stages) {
    for (const auto& c : copies(s)) {
      if (!c.from.empty()) continue;
      for (const auto& src : c.sources) {
        ++seen;
        EXPECT_EQ(src.find_first_of("*?["), std::string::npos)
            << dockerfile().where(c.line) << ": COPY " << src << ": no wildcards (the test checks "
            << "each source exists)";
        const std::string rel = fs::path(src).lexically_normal().string();
        EXPECT_TRUE(fs::exists(source_path(rel)))
            << dockerfile().where(c.line) << ": COPY " << src << ": no such path in the repository";
        if (rel != ".") {
          EXPECT_FALSE(ignored(rel, patterns))
              << dockerfile().where(c.line) << ": COPY " << src << " is excluded by .dockerignore";
        }
      }
    }
  }
  EXPECT_GT(seen, 0) << "Dockerfile: nothing is copied from the build context";
  // The host's build tree must not reach the image: its CMakeCache.txt names this checkout.
  EXPECT_TRUE(ignored("build", patterns)) << ".dockerignore: add build (the host's build trees)";
  EXPECT_TRUE(ignored(".cache", patterns)) << ".dockerignore: add .cache";
}

// Where a COPY --from puts `src`: dest itself, or dest/basename when dest is a folder.
std::string copied_to(const Copy& c, const std::string& src) {
  if (c.dest.back() == '/') return c.dest + fs::path(src).filename().string();
  return c.dest;
}

// The build-tree path of a target relative to the build folder ("apps/inferperf").
std::string relative_to_build(const std::string& target_file) {
  return fs::path(target_file).lexically_relative(INFERPERF_BINARY_DIR).string();
}

TEST(Dockerfile, EntrypointIsTheInferperfBinaryCopiedFromTheBuildTree) {
  const auto e = final_entrypoint(dockerfile());
  ASSERT_TRUE(e && !e->argv.empty())
      << dockerfile().where(final_stage().line)
      << ": the final stage needs an ENTRYPOINT in exec form, [\"/usr/local/bin/inferperf\"]";
  const std::string entry = e->argv[0];
  EXPECT_TRUE(fs::path(entry).is_absolute()) << dockerfile().where(e->line) << ": " << entry;
  const std::map<std::string, std::string> binaries = {
      {"inferperf", relative_to_build(INFERPERF_BIN)},
      {"inferperf-mock-server", relative_to_build(INFERPERF_MOCK_SERVER_BIN)}};
  std::map<std::string, std::string> installed;  // binary name -> path in the image
  for (const auto& c : copies(final_stage())) {
    if (c.from.empty()) continue;
    for (const auto& src : c.sources)
      for (const auto& [name, rel] : binaries)
        if (fs::path(src).filename() == fs::path(rel).filename()) {
          EXPECT_TRUE(src.size() >= rel.size() &&
                      src.compare(src.size() - rel.size(), rel.size(), rel) == 0 &&
                      src.find("/build/release/") != std::string::npos)
              << dockerfile().where(c.line) << ": COPY --from=" << c.from << " " << src
              << ": the release tree builds " << name << " at build/release/" << rel;
          installed[name] = copied_to(c, src);
        }
  }
  ASSERT_TRUE(installed.count("inferperf"))
      << "Dockerfile: the final stage copies no inferperf binary from the build stage";
  EXPECT_TRUE(installed.count("inferperf-mock-server"))
      << "Dockerfile: the final stage copies no inferperf-mock-server binary";
  EXPECT_EQ(entry, installed["inferperf"])
      << dockerfile().where(e->line) << ": ENTRYPOINT runs " << entry << " but COPY writes "
      << installed["inferperf"];

  // resolve.cpp: the builtin tokenizer is <binary dir>/../share/inferperf/tokenizers/builtin.
  const std::string want =
      (fs::path(entry).parent_path().parent_path() / "share/inferperf/tokenizers/builtin").string();
  bool tokenizer = false;
  for (const auto& c : copies(final_stage())) {
    for (const auto& src : c.sources) {
      fs::path s = src;
      while (!s.empty() && s.filename().empty()) s = s.parent_path();
      if (s.string().find("share/inferperf/tokenizers/builtin") == std::string::npos) continue;
      tokenizer = true;
      std::string dest = c.dest;
      while (dest.size() > 1 && dest.back() == '/') dest.pop_back();
      EXPECT_EQ(dest, want) << dockerfile().where(c.line) << ": the builtin tokenizer goes to "
                            << c.dest << " but " << entry << " looks in " << want;
    }
  }
  EXPECT_TRUE(tokenizer) << "Dockerfile: the builtin tokenizer (build/release/share/inferperf/"
                            "tokenizers/builtin) is not copied; --tokenizer builtin would fail";
}

TEST(Dockerfile, BuildStageTurnsTestsAndBenchmarksOff) {
  const Stage* b = build_stage();
  ASSERT_TRUE(b) << "Dockerfile: the final stage copies from no named stage";
  bool tests_off = false, bench_off = false;
  int line = b->line;
  for (const auto& ins : b->body) {
    if (ins.op != "RUN" || ins.args.find("cmake") == std::string::npos) continue;
    line = ins.line;
    tests_off = tests_off || ins.args.find("-DINFERPERF_BUILD_TESTS=OFF") != std::string::npos;
    bench_off = bench_off || ins.args.find("-DINFERPERF_BUILD_BENCH=OFF") != std::string::npos;
  }
  EXPECT_TRUE(tests_off) << dockerfile().where(line)
                         << ": configure with -DINFERPERF_BUILD_TESTS=OFF (GoogleTest is not "
                            "installed in the build stage)";
  EXPECT_TRUE(bench_off) << dockerfile().where(line)
                         << ": configure with -DINFERPERF_BUILD_BENCH=OFF";
}

// find_package / pkg_check_modules names -> Debian 12 packages (any one of them will do). Empty:
// nothing to install (Threads) or only needed by what the image does not build.
const std::map<std::string, std::vector<std::string>>& cmake_packages() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"Threads", {}},
      {"Boost", {"libboost1.81-dev", "libboost-dev", "libboost-all-dev"}},
      {"OpenSSL", {"libssl-dev"}},
      {"simdjson", {"libsimdjson-dev"}},
      {"nlohmann_json", {"nlohmann-json3-dev"}},
      {"CLI11", {"libcli11-dev"}},
      {"fmt", {"libfmt-dev"}},
      {"spdlog", {"libspdlog-dev"}},
      {"Curses", {"libncurses-dev"}},
      {"PkgConfig", {"pkg-config", "pkgconf"}},
      {"libpcre2-8", {"libpcre2-dev"}},
      {"libutf8proc", {"libutf8proc-dev"}},
      {"sentencepiece", {"libsentencepiece-dev"}},
      {"yaml-cpp", {"libyaml-cpp-dev"}},
      {"Eigen3", {"libeigen3-dev"}},
      {"jemalloc", {"libjemalloc-dev"}},
      // Tests and benchmarks only: the image configures with them off (checked above).
      {"GTest", {}},
      {"benchmark", {}},
      {"PNG", {"libpng-dev"}},
      {"JPEG", {"libjpeg-dev", "libjpeg62-turbo-dev"}},
      {"lame", {"libmp3lame-dev"}},
      {"libavformat", {"libavformat-dev"}},
  };
  return m;
}

TEST(Dockerfile, BuildStageInstallsWhatCMakeFinds) {
  const Stage* b = build_stage();
  ASSERT_TRUE(b) << "Dockerfile: the final stage copies from no named stage";
  const auto have = package_names(*b);
  auto check = [&](const std::string& where, const std::string& call, const std::string& name) {
    const auto it = cmake_packages().find(name);
    if (it == cmake_packages().end()) {
      ADD_FAILURE() << where << ": " << call << "(" << name
                    << "): no Debian package known for it; add it to cmake_packages() in "
                       "tests/deploy/dockerfile_test.cpp and to the Dockerfile's build stage";
      return;
    }
    if (it->second.empty()) return;
    bool any = false;
    for (const auto& p : it->second) any = any || have.count(p);
    std::string options;
    for (const auto& p : it->second) options += (options.empty() ? "" : " or ") + p;
    EXPECT_TRUE(any) << dockerfile().where(install_line(*b))
                     << ": the build stage does not install " << options << ", which " << where
                     << " needs (" << call << " " << name << ")";
  };
  // Every CMake file that configures the image's targets (not tests/, fuzz/ or bench/).
  std::vector<fs::path> files = {source_path("CMakeLists.txt")};
  for (const char* dir : {"src", "apps", "tools", "cmake"})
    for (const auto& e : fs::recursive_directory_iterator(source_path(dir)))
      if (e.path().filename() == "CMakeLists.txt" || e.path().extension() == ".cmake")
        files.push_back(e.path());
  static const std::regex find_package(R"(find_package\(\s*([A-Za-z0-9_-]+))");
  static const std::regex pkg_check(R"(pkg_check_modules\(([^)]*)\))");
  int calls = 0;
  for (const auto& f : files) {
    std::istringstream in(read_text(f.string()));
    int no = 0;
    for (std::string l; std::getline(in, l);) {
      ++no;
      const auto hash = l.find('#');
      if (hash != std::string::npos) l.resize(hash);
      const std::string where =
          fs::path(f).lexically_relative(INFERPERF_SOURCE_DIR).string() + ":" + std::to_string(no);
      std::smatch m;
      if (std::regex_search(l, m, find_package)) {
        ++calls;
        check(where, "find_package", m[1].str());
      }
      if (std::regex_search(l, m, pkg_check)) {
        // pkg_check_modules(PREFIX [REQUIRED] [QUIET] [IMPORTED_TARGET] [GLOBAL] module...)
        auto words = split_words(m[1].str());
        for (std::size_t i = 1; i < words.size(); ++i) {
          const auto& w = words[i];
          if (w == "REQUIRED" || w == "QUIET" || w == "IMPORTED_TARGET" || w == "GLOBAL" ||
              w == "NO_CMAKE_PATH" || w == "NO_CMAKE_ENVIRONMENT_PATH")
            continue;
          ++calls;
          check(where, "pkg_check_modules", w.substr(0, w.find_first_of("<>=")));
        }
      }
    }
  }
  EXPECT_GE(calls, 8) << "expected the find_package calls of CMakeLists.txt";
  // The toolchain: a C++ compiler, CMake, and Ninja (the presets' generator).
  EXPECT_TRUE(have.count("build-essential") || have.count("g++"))
      << dockerfile().where(b->line) << ": the build stage installs no C++ compiler";
  EXPECT_TRUE(have.count("cmake")) << dockerfile().where(b->line) << ": no cmake";
  EXPECT_TRUE(have.count("ninja-build"))
      << dockerfile().where(b->line) << ": no ninja-build (CMakePresets.json uses Ninja)";
}

// scripts/install-deps.sh's package sets, by name: each NAME_PACKAGES=( ... ) array, comments
// dropped (RUN: what running needs, `--run`; BUILD: added by `--build`; TEST: added by the default;
// NPM: nodejs and npm, unless the machine has npm).
std::map<std::string, std::set<std::string>> install_deps_sets() {
  std::istringstream in(read_text(source_path("scripts/install-deps.sh")));
  std::string text;
  for (std::string l; std::getline(in, l);) {
    const auto hash = l.find('#');
    if (hash != std::string::npos) l.resize(hash);
    text += l + "\n";
  }
  static const std::regex array(R"(\b([A-Z]+)_PACKAGES=\(([^)]*)\))");
  std::map<std::string, std::set<std::string>> out;
  for (std::sregex_iterator it(text.begin(), text.end(), array), end; it != end; ++it)
    for (const auto& w : split_words((*it)[2].str())) out[(*it)[1].str()].insert(w);
  return out;
}

// The build stage's package names come from scripts/install-deps.sh (the one list the project
// keeps for Debian 12), so a rename there shows up here: they are what `install-deps.sh --build`
// installs.
TEST(Dockerfile, BuildStagePackagesAreOnesInstallDepsKnows) {
  const Stage* b = build_stage();
  ASSERT_TRUE(b);
  auto sets = install_deps_sets();
  for (const char* name : {"RUN", "BUILD", "TEST", "NPM"})
    ASSERT_FALSE(sets[name].empty())
        << "scripts/install-deps.sh: no " << name << "_PACKAGES=( ... ) array";
  std::set<std::string> known = sets["RUN"];
  known.insert(sets["BUILD"].begin(), sets["BUILD"].end());
  known.insert(sets["NPM"].begin(), sets["NPM"].end());
  for (const auto& w : apt_packages(*b)) {
    EXPECT_TRUE(known.count(w.text))
        << dockerfile().where(w.line) << ": " << w.text
        << " is not in scripts/install-deps.sh's RUN_PACKAGES, BUILD_PACKAGES or NPM_PACKAGES "
           "(what --build installs)";
  }
}

// `install-deps.sh --run` installs what the image's runtime stage does: the same list, so the
// ldd check below covers both.
TEST(Dockerfile, RuntimeStagePackagesAreInstallDepsRunSet) {
  const auto run = install_deps_sets()["RUN"];
  ASSERT_FALSE(run.empty()) << "scripts/install-deps.sh: no RUN_PACKAGES=( ... ) array";
  const auto have = package_names(final_stage());
  for (const auto& p : have)
    EXPECT_TRUE(run.count(p)) << dockerfile().where(install_line(final_stage())) << ": " << p
                              << " is not in scripts/install-deps.sh's RUN_PACKAGES";
  for (const auto& p : run)
    EXPECT_TRUE(have.count(p)) << dockerfile().where(install_line(final_stage()))
                               << ": the runtime stage does not install " << p
                               << ", which scripts/install-deps.sh --run installs";
}

std::string run_text(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The Debian package that owns a library file, or "" (merged /usr: try both spellings).
std::string owner(const std::string& lib) {
  std::vector<std::string> tries = {lib};
  std::error_code ec;
  const auto real = fs::canonical(lib, ec);
  if (!ec) tries.push_back(real.string());
  for (std::size_t i = 0, n = tries.size(); i < n; ++i) {
    const std::string& t = tries[i];
    if (t.rfind("/usr/lib/", 0) == 0) tries.push_back(t.substr(4));
    if (t.rfind("/lib/", 0) == 0) tries.push_back("/usr" + t);
  }
  for (const auto& t : tries) {
    const std::string out = run_text("dpkg -S " + shell_quote(t) + " 2>/dev/null");
    const auto colon = out.find(": ");
    if (colon == std::string::npos) continue;
    std::string pkg = out.substr(0, colon);
    if (const auto arch = pkg.find(':'); arch != std::string::npos) pkg.resize(arch);
    return pkg;
  }
  return "";
}

TEST(Dockerfile, RuntimeStageInstallsWhatTheBinariesLink) {
  if (INFERPERF_SANITIZER_BUILD) GTEST_SKIP() << "sanitizer build: it links the sanitizer runtimes";
  const std::string debian =
      fs::exists("/etc/debian_version") ? read_text("/etc/debian_version") : "";
  if (debian.rfind("12.", 0) != 0)
    GTEST_SKIP() << "not Debian 12: library package names here are not the image's";
  if (run_text("command -v ldd dpkg readelf").empty()) GTEST_SKIP() << "no ldd, dpkg or readelf";
  const auto have = package_names(final_stage());
  // libc6 is essential: every Debian image has it.
  const std::set<std::string> base = {"libc6"};
  for (const std::string bin : {INFERPERF_BIN, INFERPERF_MOCK_SERVER_BIN}) {
    // The libraries the binary names itself: apt brings what those packages depend on (FFmpeg's
    // dozens of codec libraries), so only the direct ones must be in the stage.
    std::set<std::string> needed;
    {
      std::istringstream dyn(run_text("readelf -d " + shell_quote(bin) + " 2>&1"));
      for (std::string l; std::getline(dyn, l);) {
        const auto open = l.find("(NEEDED)");
        const auto lb = l.find('['), rb = l.rfind(']');
        if (open != std::string::npos && lb != std::string::npos && rb > lb)
          needed.insert(l.substr(lb + 1, rb - lb - 1));
      }
    }
    ASSERT_FALSE(needed.empty()) << "readelf -d " << bin << " listed no NEEDED library";
    const std::string out = run_text("ldd " + shell_quote(bin) + " 2>&1");
    std::istringstream in(out);
    int libs = 0;
    for (std::string l; std::getline(in, l);) {
      const auto arrow = l.find("=> ");
      if (arrow == std::string::npos) continue;
      if (!needed.count(split_words(l.substr(0, arrow)).front())) continue;
      const auto words = split_words(l.substr(arrow + 3));
      if (words.empty() || words[0][0] != '/') {
        ADD_FAILURE() << bin << ": ldd cannot resolve " << l;
        continue;
      }
      ++libs;
      const std::string pkg = owner(words[0]);
      if (pkg.empty()) {
        ADD_FAILURE() << bin << ": no Debian package owns " << words[0]
                      << " (a library built here?); the image cannot install it";
        continue;
      }
      EXPECT_TRUE(have.count(pkg) || base.count(pkg))
          << dockerfile().where(install_line(final_stage()))
          << ": the runtime stage does not install " << pkg << ", which holds " << words[0]
          << " (linked by " << fs::path(bin).filename() << ")";
    }
    EXPECT_GT(libs, 0) << "ldd " << bin << " listed no library:\n" << out;
  }
  for (const char* p : {"gnuplot-nox", "fonts-dejavu-core", "ca-certificates"})
    EXPECT_TRUE(have.count(p)) << dockerfile().where(install_line(final_stage()))
                               << ": the runtime stage does not install " << p;
}

}  // namespace
}  // namespace inferperf::deploy_test
