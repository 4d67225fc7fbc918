// Transport end to end: https:// with certificate verification (a CA made at test time with the
// openssl command line), --insecure, and --unix-socket. Loopback and temp-dir sockets only.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;

std::vector<json> records(const std::string& dir) {
  std::vector<json> out;
  for (const auto& line : read_lines(dir + "/inferperf_records.jsonl"))
    out.push_back(json::parse(line));
  return out;
}

std::vector<std::string> profile_args(const std::string& url, const std::string& dir,
                                      const std::vector<std::string>& extra) {
  auto a = small_profile_args(INFERPERF_BIN, url, dir,
                              {"--streaming", "--concurrency", "2", "--request-count", "4"});
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// A CA and a server certificate for 127.0.0.1 / localhost, made once for the suite.
class Tls : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = make_temp_dir("ip-tls-certs-");
    auto r = make_test_certificates(dir_, "inferperf test CA");
    ok_ = r.exit_code == 0 && std::filesystem::exists(dir_ + "/server.pem");
    log_ = r.out;
  }
  void SetUp() override { ASSERT_TRUE(ok_) << "openssl failed:\n" << log_; }

  static std::vector<std::string> mock_flags() {
    return {"--fast", "--tls-cert", dir_ + "/server.pem", "--tls-key", dir_ + "/server.key"};
  }

  static inline std::string dir_;
  static inline bool ok_ = false;
  static inline std::string log_;
};

TEST_F(Tls, VerifiedAgainstTheGivenCaFile) {
  MockServerProcess mock(mock_flags());
  const std::string dir = make_temp_dir("ip-tls-ok-");
  const std::string url = "https://localhost:" + std::to_string(mock.port());
  auto r = run_process(profile_args(url, dir, {"--ssl-ca-file", dir_ + "/ca.pem"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto recs = records(dir);
  ASSERT_EQ(recs.size(), 4u);
  int handshakes = 0;
  for (const auto& rec : recs) {
    EXPECT_FALSE(rec.contains("error")) << rec.dump();
    EXPECT_EQ(rec["status"], 200);
    if (rec.contains("tls_handshake_start_ns")) {
      ++handshakes;
      EXPECT_FALSE(rec["connection_reused"].get<bool>());
      EXPECT_GE(rec["tls_handshake_start_ns"].get<std::int64_t>(),
                rec["connect_end_ns"].get<std::int64_t>());
      EXPECT_GT(rec["tls_handshake_end_ns"].get<std::int64_t>(),
                rec["tls_handshake_start_ns"].get<std::int64_t>());
      EXPECT_LE(rec["tls_handshake_end_ns"].get<std::int64_t>(),
                rec["send_start_ns"].get<std::int64_t>());
    }
  }
  EXPECT_GE(handshakes, 1);  // every new connection shakes hands; reused ones do not
  EXPECT_LE(handshakes, 4);
}

TEST_F(Tls, IpAddressUrlMatchesTheIpSubjectAltName) {
  MockServerProcess mock(mock_flags());
  const std::string dir = make_temp_dir("ip-tls-ip-");
  const std::string url = "https://127.0.0.1:" + std::to_string(mock.port());
  auto r = run_process(profile_args(url, dir, {"--ssl-ca-file", dir_ + "/ca.pem"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(records(dir).size(), 4u);
}

TEST_F(Tls, UnknownCaFailsVerificationAsErrorRecords) {
  MockServerProcess mock(mock_flags());
  const std::string dir = make_temp_dir("ip-tls-bad-");
  const std::string url = "https://localhost:" + std::to_string(mock.port());
  // No --ssl-ca-file; SSL_CERT_FILE pins the store so the machine's own CAs cannot matter.
  const std::vector<std::string> env = {"SSL_CERT_FILE=" + dir_ + "/none.pem",
                                        "SSL_CERT_DIR=" + dir_};
  // The preflight request stops the run before it starts, naming the verification failure.
  auto pre = run_process(profile_args(url, dir + "/pre", {}), std::chrono::seconds(60), "", env);
  EXPECT_EQ(pre.exit_code, 1) << pre.out;
  EXPECT_NE(pre.out.find("preflight failed"), std::string::npos) << pre.out;
  EXPECT_NE(pre.out.find("SSLCertVerificationError"), std::string::npos) << pre.out;
  // Without it, every request is an error record of that type.
  auto r =
      run_process(profile_args(url, dir, {"--no-preflight"}), std::chrono::seconds(60), "", env);
  EXPECT_EQ(r.exit_code, 1) << r.out;  // every request failed
  const auto recs = records(dir);
  ASSERT_EQ(recs.size(), 4u);
  for (const auto& rec : recs) {
    ASSERT_TRUE(rec.contains("error")) << rec.dump();
    EXPECT_EQ(rec["error"]["type"], "SSLCertVerificationError") << rec.dump();
    EXPECT_NE(rec["error"]["message"].get<std::string>().find("certificate verify failed"),
              std::string::npos)
        << rec.dump();
  }
}

TEST_F(Tls, InsecureSkipsVerificationWithOneWarning) {
  MockServerProcess mock(mock_flags());
  const std::string dir = make_temp_dir("ip-tls-insecure-");
  const std::string url = "https://localhost:" + std::to_string(mock.port());
  auto r = run_process(profile_args(url, dir, {"--insecure"}), std::chrono::seconds(60), "",
                       {"SSL_CERT_FILE=" + dir_ + "/none.pem", "SSL_CERT_DIR=" + dir_});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const auto& rec : records(dir)) EXPECT_FALSE(rec.contains("error")) << rec.dump();
  const std::string warning = "TLS certificates and host names are not verified";
  const auto first = r.out.find(warning);
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(warning, first + 1), std::string::npos) << r.out;
}

TEST(Transport, MissingCaFileIsAConfigError) {
  const std::string dir = make_temp_dir("ip-tls-noca-");
  auto r =
      run_process(profile_args("https://localhost:1", dir, {"--ssl-ca-file", dir + "/missing.pem"}),
                  std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--ssl-ca-file"), std::string::npos) << r.out;
}

TEST(Transport, UnixSocketCarriesTheRun) {
  const std::string tmp = make_temp_dir("ip-uds-");
  const std::string sock = tmp + "/mock.sock";
  MockServerProcess mock({"--fast", "--unix-socket", sock});
  ASSERT_EQ(mock.unix_socket(), sock);
  const std::string dir = tmp + "/out";
  // No -m: the model list is read over the socket too.
  std::vector<std::string> args = profile_args("http://localhost/", dir, {"--unix-socket", sock});
  args.erase(args.begin() + 2, args.begin() + 4);
  auto r = run_process(args, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto recs = records(dir);
  ASSERT_EQ(recs.size(), 4u);
  for (const auto& rec : recs) {
    EXPECT_FALSE(rec.contains("error")) << rec.dump();
    EXPECT_EQ(rec["status"], 200);
    EXPECT_FALSE(rec.contains("tls_handshake_start_ns"));
  }
}

// AIPerf 0.11 counts any 2xx as a success (0.6: only 200); the mock answers status=202 with a
// normal completion, which must become a valid record, not an error.
TEST(Transport, Status202WithACompletionIsAValidRecord) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-202-");
  auto a = small_profile_args(INFERPERF_BIN, mock.url(), dir,
                              {"--concurrency", "1", "--request-count", "2", "-H",
                               "X-Mock-Fault:status=202", "--ui-type", "none"});
  auto r = run_process(a, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto recs = records(dir);
  ASSERT_EQ(recs.size(), 2u);
  for (const auto& rec : recs) {
    EXPECT_EQ(rec["status"], 202) << rec.dump();
    EXPECT_FALSE(rec.contains("error")) << rec.dump();
  }
  const auto summary = load_summary(dir);
  EXPECT_EQ(summary["request_count"]["avg"], 2) << summary["request_count"].dump();
  EXPECT_FALSE(summary.contains("error_request_count")) << summary["error_request_count"].dump();
  EXPECT_GT(summary["output_sequence_length"]["avg"].get<double>(), 0.0);
}

// --session-header renames X-Correlation-ID (AIPerf 0.11, #945); X-Request-ID keeps its name.
// The raw export's request headers are parsed from the bytes sent.
TEST(Transport, SessionHeaderRenamesTheCorrelationHeader) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-session-header-");
  auto a = small_profile_args(INFERPERF_BIN, mock.url(), dir,
                              {"--concurrency", "1", "--request-count", "2", "--session-header",
                               "X-Session-Id", "--export-level", "raw", "--ui-type", "none"});
  auto r = run_process(a, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto lines = read_lines(dir + "/profile_export_raw.jsonl");
  ASSERT_EQ(lines.size(), 2u);
  for (const auto& text : lines) {
    const json line = json::parse(text);
    const json& headers = line["request_headers"];
    EXPECT_EQ(headers["X-Session-Id"], line["metadata"]["x_correlation_id"]) << headers.dump();
    EXPECT_FALSE(headers.contains("X-Correlation-ID")) << headers.dump();
    EXPECT_EQ(headers["X-Request-ID"], line["metadata"]["x_request_id"]) << headers.dump();
  }
}

TEST(Transport, UnixSocketMockReplacesAStaleSocketFile) {
  const std::string tmp = make_temp_dir("ip-uds-stale-");
  const std::string sock = tmp + "/mock.sock";
  { MockServerProcess first({"--fast", "--unix-socket", sock}); }
  ASSERT_TRUE(std::filesystem::exists(sock));  // left behind by the first server
  MockServerProcess second({"--fast", "--unix-socket", sock});
  EXPECT_EQ(second.unix_socket(), sock);
}

}  // namespace
}  // namespace inferperf::testing
