// Reliability and security with the real binaries: bad input exits 2 before anything is sent and
// leaves nothing behind, nothing writes outside the artifact folder, no credential reaches any
// artifact, log or console line, and the mock server listens on loopback only.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;

// Files (recursively) under `dir`, as relative paths.
std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> profile_args(const MockServerProcess& mock) {
  return {INFERPERF_BIN, "profile",         "-m", "mock-model", "-u", mock.url(), "--concurrency",
          "1",           "--request-count", "2",  "--isl",      "8",  "--osl",    "4"};
}

// Connections the mock has accepted, the one that asks included: when nothing else connected in
// between, the next call answers exactly one more.
long long connections(const MockServerProcess& mock) {
  return mock.metric("inferperf_mock_connections_total");
}

// ---- no credential anywhere -------------------------------------------------------------------

TEST(Secrets, NoSecretReachesAnyArtifactLogOrConsoleLine) {
  // The mock checks the X-Api-Key header; the client also sends --api-key and an Authorization
  // header of its own, a secret body field and secret URL query parameters.
  MockServerProcess mock({"--fast", "--api-key", "SECRET2", "--auth-header-name", "X-Api-Key"});
  const std::string dir = make_temp_dir("ip-secrets-");
  const std::vector<std::string> secrets = {"SECRETKEY123", "SECRET2", "SECRET3",
                                            "SECRET4",      "SECRET5", "SECRET6"};
  auto args = profile_args(mock);
  args[5] = mock.url() + "/?api_key=SECRET5";
  const std::vector<std::string> more = {"--api-key",
                                         "SECRETKEY123",
                                         "-H",
                                         "X-Api-Key: SECRET2",
                                         "-H",
                                         "Authorization: Bearer SECRET3",
                                         "--extra-inputs",
                                         "api_key:SECRET4",
                                         "--server-metrics",
                                         mock.url() + "/metrics?token=SECRET6",
                                         "--export-level",
                                         "raw",
                                         "--streaming",
                                         "--slice-duration",
                                         "1",
                                         "-v",
                                         "--artifact-dir",
                                         dir};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = run_process(args, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto files = files_under(dir);
  for (const char* expected :
       {"inferperf_records.jsonl", "inferperf_run.json", "inputs.json", "logs/inferperf.log",
        "profile_export.jsonl", "profile_export_aiperf.csv", "profile_export_aiperf.json",
        "profile_export_raw.jsonl", "server_metrics_export.json"}) {
    EXPECT_NE(std::find(files.begin(), files.end(), expected), files.end()) << expected;
  }
  for (const auto& f : files) {
    const std::string text = read_file(dir + "/" + f);
    for (const auto& s : secrets) EXPECT_EQ(text.find(s), std::string::npos) << s << " in " << f;
  }
  for (const auto& s : secrets) EXPECT_EQ(r.out.find(s), std::string::npos) << s << " in output";
  // The redactions are there, and the requests did authenticate.
  const auto summary = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["request_count"]["avg"], 2) << summary.dump(2);
  const auto& ic = summary["input_config"];
  EXPECT_EQ(ic["endpoint"]["api_key"], "<redacted>");
  EXPECT_EQ(ic["endpoint"]["headers"]["X-Api-Key"], "<redacted>");
  EXPECT_EQ(ic["endpoint"]["extra"]["api_key"], "<redacted>");
  EXPECT_NE(summary["run_info"]["cli_command"].get<std::string>().find("--api-key '<redacted>'"),
            std::string::npos);
  const auto raw = nlohmann::json::parse(read_lines(dir + "/profile_export_raw.jsonl").at(0));
  EXPECT_EQ(raw["request_headers"]["X-Api-Key"], "<redacted>");
  EXPECT_EQ(raw["request_headers"]["Authorization"], "<redacted>");
  EXPECT_EQ(raw["payload"]["api_key"], "<redacted>");
}

// ---- bad input: exit 2, nothing sent, nothing written ------------------------------------------

struct BadCase {
  std::vector<std::string> args;
  std::string message;
};

TEST(BadInput, ExitsTwoSendsNothingAndWritesNothing) {
  MockServerProcess mock({"--fast"});
  const std::string scratch = make_temp_dir("ip-badinput-");
  std::ofstream(scratch + "/a-file") << "x";
  const std::vector<BadCase> cases = {
      {{"--extra-inputs", "foo"}, "--extra-inputs: expected key:value, got 'foo'"},
      {{"--extra-inputs", "a:"}, "(empty value"},
      {{"--extra-inputs", "{"}, "--extra-inputs: invalid JSON object"},
      {{"--extra-inputs", "\"text\""}, "got a JSON string"},
      {{"-H", "NoColon"}, "--header: expected key:value"},
      {{"-H", "Bad Name:v"}, "--header: header name 'Bad Name'"},
      {{"-H", "X-A:v\r\nX-Injected: 1"}, "holds a line break"},
      {{"--goodput", "nonsense:5"}, "--goodput: unknown metric 'nonsense'"},
      {{"--goodput", "time_to_first_token:-1"}, "must not be negative"},
      {{"--goodput", "time_to_first_token=5"}, "is not tag:value"},
      {{"--artifact-dir", scratch + "/a-file"}, "is a file, not a folder"},
      {{"--artifact-dir", scratch + "/a-file/sub"}, "is a file, not a folder"},
      {{"--artifact-dir", "/proc/inferperf-artifacts"}, "cannot create files in /proc"},
      {{"--profile-export-prefix", ".."}, "--profile-export-prefix '..' is not a file name"},
      {{"--profile-export-prefix", "inputs"}, "would overwrite the run's own inputs.json"},
  };
  for (const auto& c : cases) {
    const std::string dir = scratch + "/run";
    auto args = profile_args(mock);
    args.insert(args.end(), c.args.begin(), c.args.end());
    if (std::none_of(c.args.begin(), c.args.end(),
                     [](const std::string& a) { return a == "--artifact-dir"; })) {
      args.push_back("--artifact-dir");
      args.push_back(dir);
    }
    const long long before = connections(mock);
    const auto r = run_process(args, std::chrono::seconds(30));
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << ": " << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos)
        << "expected '" << c.message << "' in: " << r.out;
    // One message line, no load, no preflight, not even a connection.
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_EQ(connections(mock), before + 1) << c.args[1];
    EXPECT_FALSE(fs::exists(dir)) << c.args[1];
    EXPECT_EQ(files_under(scratch), std::vector<std::string>{"a-file"}) << c.args[1];
  }
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(BadInput, ReadOnlyArtifactFolderExitsTwo) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes through permission bits (see /proc cases)";
  MockServerProcess mock({"--fast"});
  const std::string scratch = make_temp_dir("ip-readonly-");
  fs::permissions(scratch, fs::perms::owner_read | fs::perms::owner_exec);
  auto args = profile_args(mock);
  args.push_back("--artifact-dir");
  args.push_back(scratch + "/run");
  const long long before = connections(mock);
  const auto r = run_process(args, std::chrono::seconds(30));
  fs::permissions(scratch, fs::perms::owner_all);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot create files in " + scratch), std::string::npos) << r.out;
  EXPECT_EQ(connections(mock), before + 1);
}

TEST(BadInput, DefaultArtifactsFolderUnderAFileExitsTwoBeforeThePreflight) {
  MockServerProcess mock({"--fast"});
  const std::string cwd = make_temp_dir("ip-defaultdir-");
  std::ofstream(cwd + "/artifacts") << "not a folder";
  const long long before = connections(mock);
  const auto r = run_process(profile_args(mock), std::chrono::seconds(30), cwd);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("is a file, not a folder"), std::string::npos) << r.out;
  EXPECT_EQ(connections(mock), before + 1);
}

// ---- names from data stay inside the artifact folder -------------------------------------------

TEST(PathSafety, ModelNamesAndPrefixesCannotLeaveTheArtifactFolder) {
  MockServerProcess mock({"--fast"});
  const std::string cwd = make_temp_dir("ip-paths-");
  // No --artifact-dir: the leaf comes from the model name.
  auto args = profile_args(mock);
  args[3] = "../../escaped";
  args.insert(args.end(), {"--tokenizer", "builtin", "--profile-export-prefix", "../../../out/x"});
  const auto r = run_process(args, std::chrono::seconds(60), cwd);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("always written inside the artifact folder; using 'x'"), std::string::npos)
      << r.out;
  // Everything is in cwd/artifacts/<one folder>/.
  std::vector<std::string> top;
  for (const auto& e : fs::directory_iterator(cwd)) top.push_back(e.path().filename().string());
  EXPECT_EQ(top, std::vector<std::string>{"artifacts"});
  std::vector<std::string> leaves;
  for (const auto& e : fs::directory_iterator(cwd + "/artifacts"))
    leaves.push_back(e.path().filename().string());
  ASSERT_EQ(leaves.size(), 1u);
  EXPECT_EQ(leaves[0], "_._.._escaped-openai-chat-concurrency1");
  const auto files = files_under(cwd + "/artifacts/" + leaves[0]);
  EXPECT_NE(std::find(files.begin(), files.end(), "x.json"), files.end());
  EXPECT_NE(std::find(files.begin(), files.end(), "x.jsonl"), files.end());
  EXPECT_FALSE(fs::exists(fs::path(cwd).parent_path() / "escaped"));
  EXPECT_FALSE(fs::exists(fs::path(cwd).parent_path() / "out"));
}

// ---- the mock server listens on loopback unless told otherwise ----------------------------------

TEST(MockServer, BindsLoopbackByDefault) {
  MockServerProcess mock({"--fast"});
  // The listening socket in /proc/net/tcp: local address 127.0.0.1 (0100007F), state LISTEN (0A).
  std::ifstream tcp("/proc/net/tcp");
  ASSERT_TRUE(tcp) << "no /proc/net/tcp";
  char port_hex[8];
  std::snprintf(port_hex, sizeof port_hex, "%04X", mock.port());
  bool found = false;
  for (std::string line; std::getline(tcp, line);) {
    std::istringstream in(line);
    std::string sl, local, remote, state;
    in >> sl >> local >> remote >> state;
    if (state != "0A" || !local.ends_with(std::string(":") + port_hex)) continue;
    found = true;
    EXPECT_EQ(local, std::string("0100007F:") + port_hex) << line;
  }
  EXPECT_TRUE(found) << "no listening socket on port " << mock.port();
  // And from another address of this machine, when it has one, the port is closed.
  ifaddrs* addrs = nullptr;
  ASSERT_EQ(getifaddrs(&addrs), 0);
  for (ifaddrs* a = addrs; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
    sockaddr_in sin = *reinterpret_cast<sockaddr_in*>(a->ifa_addr);
    if ((ntohl(sin.sin_addr.s_addr) >> 24) == 127) continue;
    sin.sin_port = htons(static_cast<std::uint16_t>(mock.port()));
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    const int rc = connect(fd, reinterpret_cast<sockaddr*>(&sin), sizeof sin);
    const int err = errno;
    close(fd);
    EXPECT_NE(rc, 0) << "reachable on " << inet_ntoa(sin.sin_addr);
    EXPECT_EQ(err, ECONNREFUSED) << inet_ntoa(sin.sin_addr);
  }
  freeifaddrs(addrs);
}

TEST(MockServer, HubEmulationServesNothingOutsideItsFolder) {
  const std::string hub = make_temp_dir("ip-hubdir-");
  fs::create_directories(hub + "/org/name");
  std::ofstream(hub + "/org/name/tokenizer.json") << "{}";
  std::ofstream(fs::path(hub).parent_path() / (fs::path(hub).filename().string() + "-secret"))
      << "outside";
  MockServerProcess mock({"--fast", "--hub-dir", hub});
  EXPECT_EQ(http_get(mock.port(), "/org/name/resolve/main/tokenizer.json").status, 200);
  const std::string outside = "/" + fs::path(hub).filename().string() + "-secret";
  const std::vector<std::string> targets = {
      "/org/name/resolve/main//etc/hostname", "//etc/resolve/main/hostname",
      "/org/name/resolve/main/../../.." + outside, "/../resolve/main" + outside};
  for (const auto& target : targets) {
    const auto reply = http_get(mock.port(), target);
    EXPECT_EQ(reply.status, 404) << target << ": " << reply.body;
    EXPECT_EQ(reply.body.find("outside"), std::string::npos) << target;
  }
}

}  // namespace
}  // namespace inferperf::testing
