// The readiness wait's decisions (judge_readiness per step and answer, model_listed), its canned
// request bodies, and one network-latency probe against a loopback listener.
#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string>

#include "app/profile/model_readiness.hpp"
#include "app/profile/network_prober.hpp"

namespace inferperf::app {
namespace {

ReadinessAnswer answer(int status, std::string body = "", std::string type = "application/json") {
  ReadinessAnswer a;
  a.head.status = status;
  a.head.content_type = std::move(type);
  a.head.body_start = body.substr(0, kAnswerBodyKept);
  a.head.body_bytes = body.size();
  a.body = std::move(body);
  if (status == 0) a.error = "connection refused";
  return a;
}

const std::string kList = R"({"object":"list","data":[{"id":"other"},{"id":"m1"}]})";

TEST(ModelReadiness, ModelsStepWantsTheModelListed) {
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(200, kList), "m1"),
            ReadinessVerdict::kReady);
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(200, kList), "m2"),
            ReadinessVerdict::kRetry);
  // Without -m any listed model will do; an empty list will not.
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(200, kList), ""),
            ReadinessVerdict::kReady);
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(200, R"({"data":[]})"), ""),
            ReadinessVerdict::kRetry);
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(503, kList), "m1"),
            ReadinessVerdict::kRetry);
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(0), "m1"), ReadinessVerdict::kRetry);
  EXPECT_EQ(judge_readiness(ReadinessStep::kModels, answer(404, "{}"), "m1"),
            ReadinessVerdict::kFallBack);
}

TEST(ModelReadiness, BaseUrlStepWantsA2xx) {
  EXPECT_EQ(judge_readiness(ReadinessStep::kBaseUrl, answer(200, "ok", "text/plain"), "m1"),
            ReadinessVerdict::kReady);
  EXPECT_EQ(judge_readiness(ReadinessStep::kBaseUrl, answer(204), "m1"), ReadinessVerdict::kReady);
  EXPECT_EQ(judge_readiness(ReadinessStep::kBaseUrl, answer(404), "m1"), ReadinessVerdict::kRetry);
  EXPECT_EQ(judge_readiness(ReadinessStep::kBaseUrl, answer(0), "m1"), ReadinessVerdict::kRetry);
}

TEST(ModelReadiness, InferenceStepIsReadyBelow500) {
  for (int status : {200, 201, 400, 401, 404, 422, 429, 499})
    EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(status, "{}"), "m1"),
              ReadinessVerdict::kReady)
        << status;
  for (int status : {500, 502, 503, 504})
    EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(status, "{}"), "m1"),
              ReadinessVerdict::kRetry)
        << status;
  EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(0), "m1"), ReadinessVerdict::kRetry);
  // A gateway's page while the server behind it starts is waited for.
  EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(502, "<html>", "text/html"), "m1"),
            ReadinessVerdict::kRetry);
}

TEST(ModelReadiness, AWebServerEndsTheWait) {
  EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(501, "", "text/html"), "m1"),
            ReadinessVerdict::kGiveUp);
  EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(405, "{}"), "m1"),
            ReadinessVerdict::kGiveUp);
  EXPECT_EQ(judge_readiness(ReadinessStep::kInference, answer(404, "<html>", "text/html"), "m1"),
            ReadinessVerdict::kGiveUp);
}

TEST(ModelReadiness, ModelListedReadsOnlyAModelList) {
  EXPECT_TRUE(model_listed(kList, "other"));
  EXPECT_FALSE(model_listed(kList, "m"));  // exact ids only
  EXPECT_FALSE(model_listed("not json", ""));
  EXPECT_FALSE(model_listed(R"({"data":{"id":"m1"}})", "m1"));
  EXPECT_FALSE(model_listed(R"({"data":[{"id":1},"m1"]})", "m1"));
  EXPECT_FALSE(model_listed(R"([{"id":"m1"}])", "m1"));
}

TEST(ModelReadiness, CannedBodies) {
  auto chat = endpoint::create_endpoint(config::EndpointType::kChat, {});
  ASSERT_TRUE(chat);
  EXPECT_EQ(readiness_body(**chat, "m1", false).dump(),
            R"({"messages":[{"role":"user","content":"Lo"}],"max_tokens":1,"model":"m1"})");
  auto completions = endpoint::create_endpoint(config::EndpointType::kCompletions, {});
  ASSERT_TRUE(completions);
  EXPECT_EQ(readiness_body(**completions, "m1", false).dump(),
            R"({"prompt":"Lo","max_tokens":1,"model":"m1"})");
  // Another type: its own module's body for a one-word turn.
  auto embeddings = endpoint::create_endpoint(config::EndpointType::kEmbeddings, {});
  ASSERT_TRUE(embeddings);
  const auto body = readiness_body(**embeddings, "m1", false);
  EXPECT_EQ(body.value("model", ""), "m1");
  EXPECT_NE(body.dump().find("Lo"), std::string::npos) << body.dump();
}

TEST(NetworkProbe, TimesAHandshakeAndReportsARefusal) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(
      io, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  const int port = acceptor.local_endpoint().port();
  auto url = transport::parse_base_url("http://127.0.0.1:" + std::to_string(port) + "/v1");
  ASSERT_TRUE(url);
  const report::NetworkProbe ok = probe_network_once(*url, "", 2.0);
  ASSERT_TRUE(ok.rtt_ns) << ok.error;
  EXPECT_GT(*ok.rtt_ns, 0);
  EXPECT_LT(*ok.rtt_ns, 2'000'000'000);
  EXPECT_EQ(ok.target_host, "127.0.0.1");
  EXPECT_EQ(ok.target_port, port);
  EXPECT_EQ(ok.probe_type, "tcp_connect");
  EXPECT_EQ(ok.target_url, "http://127.0.0.1:" + std::to_string(port) + "/v1");
  EXPECT_GT(ok.timestamp_ns, 1'600'000'000'000'000'000);
  acceptor.close();  // the port now refuses
  const report::NetworkProbe refused = probe_network_once(*url, "", 2.0);
  EXPECT_FALSE(refused.rtt_ns);
  EXPECT_FALSE(refused.error.empty());
}

}  // namespace
}  // namespace inferperf::app
