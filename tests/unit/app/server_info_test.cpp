// server_info.json's reading of the answers: each engine told by the routes it serves and the
// fields it answers with, and the console line.
#include "app/profile/server_info.hpp"

#include <gtest/gtest.h>

namespace inferperf::app {
namespace {

using ojson = nlohmann::ordered_json;

ojson answered(ojson routes, ojson headers = ojson::object()) {
  ojson info = {{"headers", std::move(headers)}, {"routes", ojson::object()}};
  for (auto& [route, body] : routes.items())
    info["routes"][route] = {{"status", 200}, {"body", body}};
  return info;
}

TEST(ServerInfo, EachEngineIsToldByItsRoutes) {
  const auto id = [](const ojson& info) {
    const ServerIdentity s = identify_server(info);
    return s.engine + " " + s.version;
  };
  EXPECT_EQ(id(answered({{"/version", {{"version", "0.6.3"}}},
                         {"/v1/models", {{"data", {{{"id", "m"}, {"owned_by", "vllm"}}}}}}})),
            "vllm 0.6.3");
  EXPECT_EQ(
      id(answered({{"/version", {{"version", "0.4.1"}}}, {"/get_server_info", {{"tp_size", 1}}}})),
      "sglang 0.4.1");
  EXPECT_EQ(id(answered({{"/props", {{"build_info", "b4500-abc"}, {"total_slots", 4}}}})),
            "llama.cpp b4500-abc");
  EXPECT_EQ(id(answered({{"/info", {{"model_id", "m"}, {"version", "2.4.0"}}}})), "tgi 2.4.0");
  EXPECT_EQ(id(answered({{"/v2", {{"name", "triton"}, {"version", "2.50.0"}}}})), "triton 2.50.0");
  EXPECT_EQ(id(answered({{"/v1/version", {{"release", "1.8.0"}, {"api", "1.0.0"}}}})), "nim 1.8.0");
  EXPECT_EQ(id(answered({{"/api/version", {{"version", "0.5.7"}}}})), "ollama 0.5.7");
  EXPECT_EQ(id(answered({}, {{"server", "llama.cpp"}})), "llama.cpp ");
  // Nothing that names it: nothing is guessed.
  EXPECT_EQ(id(answered({{"/v1/models", {{"data", {{{"id", "m"}, {"owned_by", "org"}}}}}}})), " ");
}

TEST(ServerInfo, TheConsoleLineSaysWhatIsKnown) {
  ojson info = answered({{"/version", {{"version", "0.6.3"}}}}, {{"server", "uvicorn"}});
  info["models"] = {"a", "b", "c", "d"};
  EXPECT_EQ(server_info_summary(info),
            R"(vllm 0.6.3 serving "a", "b", "c", ... (Server: uvicorn))");
  EXPECT_EQ(server_info_summary(answered({})), "an unidentified server");
}

}  // namespace
}  // namespace inferperf::app
