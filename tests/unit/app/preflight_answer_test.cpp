// Telling a web server from an LLM API by the preflight's answer (is_html_answer,
// answered_like_web_server, describe_answer).
#include <gtest/gtest.h>

#include <string>

#include "app/profile/preflight.hpp"

namespace inferperf::app {
namespace {

AnswerHead head(int status, std::string type, std::string body, std::string server = "") {
  AnswerHead h;
  h.status = status;
  h.content_type = std::move(type);
  h.body_bytes = body.size();
  h.body_start = body.substr(0, kAnswerBodyKept);
  h.server = std::move(server);
  return h;
}

TEST(PreflightAnswer, HtmlByContentTypeOrBody) {
  EXPECT_TRUE(is_html_answer(head(404, "text/html; charset=utf-8", "")));
  EXPECT_TRUE(is_html_answer(head(404, "TEXT/HTML", "")));
  EXPECT_TRUE(is_html_answer(head(404, "application/xhtml+xml", "")));
  EXPECT_TRUE(is_html_answer(head(404, "", "\n  <!DOCTYPE html><html></html>")));
  EXPECT_TRUE(is_html_answer(head(404, "text/plain", "<HTML><body>x</body></HTML>")));
  EXPECT_FALSE(is_html_answer(head(404, "application/json", R"({"error":"no model"})")));
  EXPECT_FALSE(is_html_answer(head(404, "text/plain", "404 page not found")));
  EXPECT_FALSE(is_html_answer(head(404, "", "")));
}

TEST(PreflightAnswer, WebServerAnswersFailAtOnce) {
  EXPECT_TRUE(answered_like_web_server(head(501, "text/html", "<!DOCTYPE HTML>")));
  EXPECT_TRUE(answered_like_web_server(head(501, "", "")));  // no POST, whatever the body
  EXPECT_TRUE(answered_like_web_server(head(405, "application/json", "{}")));
  EXPECT_TRUE(answered_like_web_server(head(404, "text/html", "<html>")));
  EXPECT_TRUE(answered_like_web_server(head(200, "text/html", "<html>")));  // a catch-all page
  EXPECT_TRUE(answered_like_web_server(head(500, "", "<!doctype html>")));
}

TEST(PreflightAnswer, ApiAnswersAndGatewaysKeepTheirRules) {
  // An LLM server's own 404 (unknown model) and a loading server's 503 are for the usual rules.
  EXPECT_FALSE(answered_like_web_server(head(404, "application/json", R"({"error":"x"})")));
  EXPECT_FALSE(answered_like_web_server(head(503, "application/json", "{}")));
  // A gateway's page while the server behind it starts: --wait-for-model-timeout waits it out.
  EXPECT_FALSE(answered_like_web_server(head(503, "text/html", "<html>")));
  EXPECT_FALSE(answered_like_web_server(head(502, "text/html", "<html>")));
  EXPECT_FALSE(answered_like_web_server(head(504, "text/html", "<html>")));
  EXPECT_FALSE(answered_like_web_server(head(200, "text/event-stream", "data: {}")));
  EXPECT_FALSE(answered_like_web_server(AnswerHead{}));  // nothing answered
}

TEST(PreflightAnswer, DescriptionNamesStatusServerTypeAndAShortExcerpt) {
  AnswerHead h =
      head(501, "text/html;charset=utf-8", "<!DOCTYPE HTML>\n<html>" + std::string(100'000, 'x'),
           "SimpleHTTP/0.6 Python/3.12.3");
  h.reason = "Unsupported method ('POST')";
  const std::string d = describe_answer(h);
  EXPECT_EQ(d.rfind("HTTP 501 Unsupported method ('POST'), Server: SimpleHTTP/0.6 Python/3.12.3, "
                    "Content-Type: text/html;charset=utf-8, body: <!DOCTYPE HTML>?<html>xxx",
                    0),
            0u)
      << d;
  // The whole body's size, not the part kept; at most 200 bytes of it quoted.
  EXPECT_NE(d.find("... (100022 bytes)"), std::string::npos) << d;
  EXPECT_LT(d.size(), 400u) << d;
}

TEST(PreflightAnswer, DescriptionOfAnEmptyAnswer) {
  EXPECT_EQ(describe_answer(head(405, "", "")), "HTTP 405");
  EXPECT_EQ(describe_answer(head(404, "text/html", "  <p>gone</p>")),
            "HTTP 404, Content-Type: text/html, body: <p>gone</p>");
}

}  // namespace
}  // namespace inferperf::app
