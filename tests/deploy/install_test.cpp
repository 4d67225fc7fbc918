// `cmake --install` of this build tree into a scratch prefix (cmake/Install.cmake), then the
// installed programs run from there: --version, a short benchmark against the installed mock
// server with the installed builtin tokenizer, the manual pages and the shell completion. And the
// Debian package: `cpack -G DEB` into a scratch folder, its files and computed Depends, and the
// programs run from it unpacked with `dpkg -x` (docs/deploy.md, Package).
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "process.hpp"

namespace inferperf::install_test {
namespace {

namespace fs = std::filesystem;
using testing::BackgroundProcess;
using testing::read_file;
using testing::run_process;

// Sanitizer builds start their programs several times slower.
constexpr int kSlow = INFERPERF_SANITIZER_BUILD ? 4 : 1;
const auto kInstallTimeout = std::chrono::seconds(120 * kSlow);
const auto kRunTimeout = std::chrono::seconds(60 * kSlow);

// A scratch folder, removed with what is in it when the test ends.
struct Scratch {
  explicit Scratch(const std::string& prefix) : path(testing::make_temp_dir(prefix)) {}
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string path;
};

// The path of a program on $PATH, or "" (run_process takes a path: it does not search).
std::string program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const fs::path p = fs::path(d.empty() ? "." : d) / name;
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

void install_into(const std::string& prefix) {
  const auto r = run_process(
      {INFERPERF_CMAKE, "--install", INFERPERF_BINARY_DIR, "--prefix", prefix}, kInstallTimeout);
  ASSERT_EQ(r.exit_code, 0) << "cmake --install " << INFERPERF_BINARY_DIR << " --prefix " << prefix
                            << ":\n"
                            << r.out;
}

bool executable(const fs::path& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR) != 0;
}

// The subcommands `inferperf --help` lists.
std::vector<std::string> subcommands(const std::string& inferperf) {
  const auto r = run_process({inferperf, "--help"}, kRunTimeout);
  std::vector<std::string> out;
  std::istringstream in(r.out);
  bool in_section = false;
  for (std::string l; std::getline(in, l);) {
    if (l == "Subcommands:") {
      in_section = true;
    } else if (in_section && l.rfind("  ", 0) == 0 && l.size() > 2 && l[2] != ' ') {
      out.push_back(l.substr(2, l.find(' ', 2) - 2));
    } else if (in_section && l.empty()) {
      break;
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(item);
  return out;
}

std::string gunzip(const fs::path& p) {
  return run_process({program("gzip"), "-dc", p.string()}, kRunTimeout).out;
}

// The manual page of `inferperf` and `inferperf-mock-server` under `root`/share/man.
void expect_man_pages(const fs::path& share, const std::string& inferperf) {
  const auto man = share / "man/man1";
  ASSERT_TRUE(fs::is_regular_file(man / "inferperf.1.gz")) << man / "inferperf.1.gz";
  ASSERT_TRUE(fs::is_regular_file(man / "inferperf-mock-server.1.gz"));
  const std::string page = gunzip(man / "inferperf.1.gz");
  for (const char* s : {".TH INFERPERF 1", ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION",
                        ".SH COMMANDS", ".SH OPTIONS", ".SH SEE ALSO", "\\-\\-request\\-count"})
    EXPECT_NE(page.find(s), std::string::npos) << "inferperf.1 has no " << s;
  const auto subs = subcommands(inferperf);
  EXPECT_GE(subs.size(), 5u) << "inferperf --help listed too few subcommands";
  for (const auto& s : subs)
    EXPECT_NE(page.find(".SS \"inferperf " + s + "\""), std::string::npos)
        << "inferperf.1 has no section for `inferperf " << s << "`";
  const std::string mock = gunzip(man / "inferperf-mock-server.1.gz");
  EXPECT_NE(mock.find(".TH INFERPERF-MOCK-SERVER 1"), std::string::npos);
  EXPECT_NE(mock.find("\\-\\-port"), std::string::npos);
}

TEST(Install, PutsProgramsTokenizerManPagesCompletionsAndDocsUnderThePrefix) {
  Scratch prefix("inferperf-install");
  ASSERT_NO_FATAL_FAILURE(install_into(prefix.path));
  const fs::path p = prefix.path;
  for (const char* bin : {"inferperf", "inferperf-mock-server"})
    EXPECT_TRUE(executable(p / "bin" / bin)) << p / "bin" / bin << " is not an executable file";

  const fs::path tree = fs::path(INFERPERF_BINARY_DIR) / "share/inferperf/tokenizers/builtin";
  const fs::path installed = p / "share/inferperf/tokenizers/builtin";
  for (const char* f : {"tokenizer.json", "tokenizer_config.json"}) {
    ASSERT_TRUE(fs::is_regular_file(installed / f)) << installed / f << " was not installed";
    EXPECT_EQ(fs::file_size(installed / f), fs::file_size(tree / f)) << f;
  }

  expect_man_pages(p / "share", (p / "bin/inferperf").string());

  for (const std::string prog : {"inferperf", "inferperf-mock-server"}) {
    const auto bash = p / "share/bash-completion/completions" / prog;
    const auto zsh = p / "share/zsh/vendor-completions" / ("_" + prog);
    ASSERT_TRUE(fs::is_regular_file(bash)) << bash;
    ASSERT_TRUE(fs::is_regular_file(zsh)) << zsh;
    EXPECT_NE(read_file(bash.string()).find(" " + prog + "\n"), std::string::npos)
        << bash << ": no `complete -F ... " << prog << "`";
    EXPECT_EQ(read_file(zsh.string()).rfind("#compdef " + prog + "\n", 0), 0u) << zsh;
  }

  EXPECT_TRUE(fs::is_regular_file(p / "share/doc/inferperf/README.md"));
  EXPECT_TRUE(fs::is_regular_file(p / "share/doc/inferperf/docs/deploy.md"));
}

// The mock server's "listening on HOST:PORT" line in its log, or "" after `limit`.
std::string wait_for_listening(const std::string& log, std::chrono::seconds limit) {
  static const std::regex line(R"(listening on ([0-9.]+:[0-9]+))");
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch m;
    const std::string text = fs::exists(log) ? read_file(log) : "";
    if (std::regex_search(text, m, line)) return m[1].str();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "";
}

TEST(Install, InstalledProgramsRunABenchmarkWithTheInstalledTokenizer) {
  Scratch prefix("inferperf-install");
  ASSERT_NO_FATAL_FAILURE(install_into(prefix.path));
  const std::string bin = prefix.path + "/bin/inferperf";
  const std::string mock_bin = prefix.path + "/bin/inferperf-mock-server";

  auto r = run_process({bin, "--version"}, kRunTimeout);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(std::string("inferperf ") + INFERPERF_VERSION), std::string::npos) << r.out;
  r = run_process({mock_bin, "--version"}, kRunTimeout);
  EXPECT_EQ(r.exit_code, 0) << r.out;

  // The installed data is what `--tokenizer builtin` finds: the installed binary loads it, and the
  // same binary copied where no share/ is beside it does not.
  r = run_process({bin, "tokenize", "--tokenizer", "builtin", "--json", "hello world"},
                  kRunTimeout);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"builtin (o200k)\""), std::string::npos) << r.out;
  Scratch elsewhere("inferperf-no-share");
  fs::create_directories(elsewhere.path + "/bin");
  fs::copy_file(bin, elsewhere.path + "/bin/inferperf");
  r = run_process({elsewhere.path + "/bin/inferperf", "tokenize", "--tokenizer", "builtin", "x"},
                  kRunTimeout);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(elsewhere.path + "/share/inferperf/tokenizers/builtin"), std::string::npos)
      << r.out;

  const std::string log = prefix.path + "/mock.log";
  BackgroundProcess mock({mock_bin, "--port", "0", "--fast"}, log);
  const std::string addr = wait_for_listening(log, kRunTimeout);
  ASSERT_FALSE(addr.empty()) << "the installed mock server did not start:\n" << read_file(log);

  const std::string dir = prefix.path + "/run";
  r = run_process(testing::small_profile_args(bin, "http://" + addr, dir,
                                              {"--tokenizer", "builtin", "--request-count", "8",
                                               "--concurrency", "2", "--streaming"}),
                  kRunTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("builtin (o200k)"), std::string::npos)
      << "the run does not say it counted with the builtin tokenizer:\n"
      << r.out;
  const auto summary = testing::load_summary(dir);
  EXPECT_EQ(testing::summary_count(summary, "request_count"), 8) << summary.dump(2);
  EXPECT_EQ(testing::summary_count(summary, "error_request_count"), 0);
}

// `bash` with the installed completion sourced, asked to complete `words` (the last one is the
// word under the cursor); the candidates, one a line.
std::string complete(const fs::path& script, const std::vector<std::string>& words,
                     const std::string& cwd) {
  std::string cmd = "source \"$0\"; COMP_WORDS=(";
  for (const auto& w : words) cmd += "'" + w + "' ";
  cmd += "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _inferperf; printf '%s\\n' \"${COMPREPLY[@]}\"";
  const auto r = run_process({program("bash"), "--norc", "--noprofile", "-c", cmd, script.string()},
                             kRunTimeout, cwd);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return "\n" + r.out;
}

TEST(Install, BashCompletionCompletesCommandsOptionsValuesAndFiles) {
  Scratch prefix("inferperf-install");
  ASSERT_NO_FATAL_FAILURE(install_into(prefix.path));
  const auto script = fs::path(prefix.path) / "share/bash-completion/completions/inferperf";
  fs::create_directories(prefix.path + "/work/runs");
  { std::ofstream(prefix.path + "/work/data.jsonl") << "{}\n"; }
  const std::string cwd = prefix.path + "/work";

  auto out = complete(script, {"inferperf", "pro"}, cwd);
  EXPECT_NE(out.find("\nprofile\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nprobe\n"), std::string::npos) << out;
  out = complete(script, {"inferperf", "profile", "--request-co"}, cwd);
  EXPECT_NE(out.find("\n--request-count\n"), std::string::npos) << out;
  out = complete(script, {"inferperf", "profile", "-m", "x", "--endpoint-type", "ch"}, cwd);
  EXPECT_EQ(out, "\nchat\nchat_embeddings\n");
  out = complete(script, {"inferperf", "profile", "--input-file", "da"}, cwd);
  EXPECT_EQ(out, "\ndata.jsonl\n");
  out = complete(script, {"inferperf", "profile", "--artifact-dir", ""}, cwd);
  EXPECT_EQ(out, "\nruns\n") << "--artifact-dir completes folders only";
  out = complete(script, {"inferperf", "config", "init", "--te"}, cwd);
  EXPECT_EQ(out, "\n--template\n");

  const auto zsh = fs::path(prefix.path) / "share/zsh/vendor-completions/_inferperf";
  // zsh is no dependency of the project: its syntax check runs where it is installed.
  if (const auto z = program("zsh"); !z.empty()) {
    const auto r = run_process({z, "-n", zsh.string()}, kRunTimeout);
    EXPECT_EQ(r.exit_code, 0) << "zsh -n " << zsh << ":\n" << r.out;
  }
}

// The Debian package: `cpack -G DEB` into a scratch folder (the build tree is only read), its
// control fields and files, then the programs run from it unpacked with `dpkg -x`.
TEST(Package, DebHasTheFilesAndComputedDependsAndRunsUnpacked) {
  // The package is the release tree's: a sanitizer tree's would depend on the sanitizer runtimes,
  // and compressing its binaries (ten times the size) was the ASan stage's slowest test.
  if (INFERPERF_SANITIZER_BUILD)
    GTEST_SKIP() << "sanitizer build: the package is the release tree's";
  const std::string dpkg_deb = program("dpkg-deb"), dpkg = program("dpkg");
  if (dpkg_deb.empty() || dpkg.empty() || program("dpkg-shlibdeps").empty())
    GTEST_SKIP() << "dpkg-deb or dpkg-shlibdeps missing: dpkg-dev (scripts/install-deps.sh "
                    "--build) computes the package's dependencies";
  Scratch out("inferperf-cpack");
  auto r = run_process(
      {INFERPERF_CPACK, "--config", std::string(INFERPERF_BINARY_DIR) + "/CPackConfig.cmake", "-G",
       "DEB", "-B", out.path},
      kInstallTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::vector<fs::path> debs;
  for (const auto& e : fs::directory_iterator(out.path))
    if (e.path().extension() == ".deb") debs.push_back(e.path());
  ASSERT_EQ(debs.size(), 1u) << "cpack made no single .deb in " << out.path << ":\n" << r.out;
  const std::string deb = debs.front().string();
  EXPECT_EQ(debs.front().filename().string().rfind(
                std::string("inferperf_") + INFERPERF_VERSION + "_", 0),
            0u)
      << deb << ": not Debian's NAME_VERSION_ARCH.deb";

  const auto info = run_process({dpkg_deb, "-I", deb}, kRunTimeout);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(info.out, m, std::regex(R"(\n Depends: ([^\n]*))"))) << info.out;
  // The package names of the Depends field, without their versions.
  std::set<std::string> depends;
  for (const auto& item : split(m[1].str(), ',')) {
    std::string name;
    if (std::istringstream(item) >> name) depends.insert(name);
  }
  // Computed by dpkg-shlibdeps from the binaries (libc6 and FFmpeg, libpng are linked by them),
  // plus the one the package names itself.
  for (const char* p : {"libc6", "libstdc++6", "libssl3", "libavformat59", "libavcodec59",
                        "libpng16-16", "ca-certificates"})
    EXPECT_TRUE(depends.count(p)) << "Depends: " << m[1].str() << "\nhas no " << p;
  for (const char* field : {" Package: inferperf\n", " Section: utils\n",
                            " Recommends: gnuplot-nox, fonts-dejavu-core\n"})
    EXPECT_NE(info.out.find(field), std::string::npos) << info.out << "\nhas no" << field;
  EXPECT_NE(info.out.find(std::string(" Version: ") + INFERPERF_VERSION), std::string::npos)
      << info.out;

  const auto files = run_process({dpkg_deb, "-c", deb}, kRunTimeout);
  ASSERT_EQ(files.exit_code, 0) << files.out;
  for (const char* f :
       {"./usr/bin/inferperf\n", "./usr/bin/inferperf-mock-server\n",
        "./usr/share/inferperf/tokenizers/builtin/tokenizer.json\n",
        "./usr/share/man/man1/inferperf.1.gz\n",
        "./usr/share/man/man1/inferperf-mock-server.1.gz\n",
        "./usr/share/bash-completion/completions/inferperf\n",
        "./usr/share/zsh/vendor-completions/_inferperf\n", "./usr/share/doc/inferperf/README.md\n"})
    EXPECT_NE(files.out.find(f), std::string::npos) << "dpkg-deb -c " << deb << ": no " << f;

  const std::string root = out.path + "/root";
  r = run_process({dpkg, "-x", deb, root}, kInstallTimeout);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = run_process({root + "/usr/bin/inferperf", "--version"}, kRunTimeout);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(std::string("inferperf ") + INFERPERF_VERSION), std::string::npos) << r.out;
  r = run_process(
      {root + "/usr/bin/inferperf", "tokenize", "--tokenizer", "builtin", "--json", "hi"},
      kRunTimeout);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"builtin (o200k)\""), std::string::npos) << r.out;
  r = run_process({root + "/usr/bin/inferperf-mock-server", "--version"}, kRunTimeout);
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

}  // namespace
}  // namespace inferperf::install_test
