// Tokenizer download from a Hub-compatible HTTPS server (the mock server with TLS and --hub-dir)
// through HF_ENDPOINT, into the HF cache layout, then offline reuse.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;

struct EnvGuard {
  std::vector<std::string> names;
  void set(const std::string& k, const std::string& v) {
    setenv(k.c_str(), v.c_str(), 1);
    names.push_back(k);
  }
  ~EnvGuard() {
    for (const auto& n : names) unsetenv(n.c_str());
  }
};

class HubDownload : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("ip-hub-");
    const std::string cmd =
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout " + dir_ + "/key.pem -out " + dir_ +
        "/cert.pem -days 2 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << "openssl is needed to make a test certificate";
    const fs::path src = fs::path(INFERPERF_SOURCE_DIR) / ".cache/tokenizers/qwen3";
    ASSERT_TRUE(fs::exists(src / "tokenizer.json")) << "run scripts/fetch-tokenizers.sh";
    fs::create_directories(dir_ + "/hub/acme/tiny-model");
    fs::copy_file(src / "tokenizer.json", dir_ + "/hub/acme/tiny-model/tokenizer.json");
    fs::copy_file(src / "tokenizer_config.json",
                  dir_ + "/hub/acme/tiny-model/tokenizer_config.json");
  }

  std::vector<std::string> args(const MockServerProcess& mock) const {
    return {INFERPERF_BIN,
            "profile",
            "-m",
            "acme/tiny-model",
            "-u",
            mock.url(),
            "--streaming",
            "--concurrency",
            "2",
            "--request-count",
            "4",
            "--isl",
            "32",
            "--osl",
            "8",
            "--extra-inputs",
            "ignore_eos:true",
            "--artifact-dir",
            dir_ + "/out"};
  }

  std::string dir_;
};

TEST_F(HubDownload, DownloadsIntoTheCacheThenWorksOffline) {
  MockServerProcess hub({"--tls-cert", dir_ + "/cert.pem", "--tls-key", dir_ + "/key.pem",
                         "--hub-dir", dir_ + "/hub", "--hub-token", "sekret"});
  MockServerProcess server({"--fast"});
  const std::string endpoint = "https://127.0.0.1:" + std::to_string(hub.port());
  {
    EnvGuard env;
    env.set("HF_ENDPOINT", endpoint);
    env.set("HF_HUB_CACHE", dir_ + "/cache");
    env.set("HF_TOKEN", "sekret");
    env.set("SSL_CERT_FILE", dir_ + "/cert.pem");
    auto r = run_process(args(server), std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << r.out;
    auto j = nlohmann::json::parse(read_file(dir_ + "/out/profile_export_aiperf.json"));
    EXPECT_EQ(j["token_source"], "tokenizer acme/tiny-model (downloaded from " + endpoint + ")");
    EXPECT_DOUBLE_EQ(j["input_sequence_length"]["avg"].get<double>(), 32.0);
  }
  const fs::path model = fs::path(dir_) / "cache/models--acme--tiny-model";
  ASSERT_TRUE(fs::exists(model / "refs/main"));
  const std::string commit = read_file((model / "refs/main").string());
  EXPECT_EQ(commit.size(), 32u);
  EXPECT_TRUE(fs::exists(model / "snapshots" / commit / "tokenizer.json"));
  EXPECT_TRUE(fs::exists(model / "snapshots" / commit / "tokenizer_config.json"));

  // Offline, with the hub gone: the cache answers.
  EnvGuard env;
  env.set("HF_HUB_CACHE", dir_ + "/cache");
  env.set("HF_HUB_OFFLINE", "1");
  auto r = run_process(args(server), std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(read_file(dir_ + "/out/profile_export_aiperf.json"));
  EXPECT_EQ(j["token_source"], "tokenizer acme/tiny-model (Hugging Face cache, " + commit + ")");
}

TEST_F(HubDownload, RefusedTokenAndUntrustedCertificateAreClearErrors) {
  MockServerProcess hub({"--tls-cert", dir_ + "/cert.pem", "--tls-key", dir_ + "/key.pem",
                         "--hub-dir", dir_ + "/hub", "--hub-token", "sekret"});
  MockServerProcess server({"--fast"});
  const std::string endpoint = "https://127.0.0.1:" + std::to_string(hub.port());
  {
    EnvGuard env;
    env.set("HF_ENDPOINT", endpoint);
    env.set("HF_HUB_CACHE", dir_ + "/cache-a");
    env.set("HF_TOKEN", "wrong");
    env.set("SSL_CERT_FILE", dir_ + "/cert.pem");
    auto r = run_process(args(server), std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("refused (HTTP 401)"), std::string::npos) << r.out;
  }
  {
    EnvGuard env;
    env.set("HF_ENDPOINT", endpoint);
    env.set("HF_HUB_CACHE", dir_ + "/cache-b");
    env.set("HF_TOKEN", "sekret");
    env.set("SSL_CERT_FILE", dir_ + "/nonexistent.pem");
    auto r = run_process(args(server), std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("certificate verify failed"), std::string::npos) << r.out;
  }
  EXPECT_EQ(server.metric("inferperf_mock_requests_total"), 0);
}

}  // namespace
}  // namespace inferperf::testing
