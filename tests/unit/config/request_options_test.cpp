// --request-content-type (both spellings, AIPerf 0.11's rules against --endpoint-type) and
// --download-video-content (video_generation only).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli.hpp"

namespace {

using inferperf::config::CliOutcome;
using inferperf::config::EndpointType;
using inferperf::config::parse_command_line;
using inferperf::config::RequestContentType;

CliOutcome parse_request(std::vector<std::string> extra) {
  std::vector<std::string> args = {"profile", "-m", "x"};
  args.insert(args.end(), extra.begin(), extra.end());
  return parse_command_line(args);
}

TEST(RequestContentType, EverySpellingOfBothValues) {
  for (const char* word : {"multipart/form-data", "multipart-form-data", "MULTIPART_FORM_DATA",
                           "Multipart/Form-Data"}) {
    const CliOutcome o =
        parse_request({"--endpoint-type", "image_edit", "--request-content-type", word});
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << word << ": " << o.message;
    EXPECT_EQ(o.config.endpoint.request_content_type, RequestContentType::kMultipartFormData);
    EXPECT_EQ(o.config.endpoint.type, EndpointType::kImageEdit);
  }
  for (const char* word : {"application/json", "application-json", "APPLICATION_JSON"}) {
    const CliOutcome o = parse_request({"--request-content-type", word});
    ASSERT_EQ(o.action, CliOutcome::Action::kProfile) << word << ": " << o.message;
    EXPECT_EQ(o.config.endpoint.request_content_type, RequestContentType::kApplicationJson);
  }
  const CliOutcome bad = parse_request({"--request-content-type", "text/plain"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.message.find("'text/plain' is not a request content type"), std::string::npos)
      << bad.message;
}

TEST(RequestContentType, OnlyRestatesTheEndpointsOwn) {
  const CliOutcome json_for_form = parse_request(
      {"--endpoint-type", "video_generation", "--request-content-type", "application/json"});
  EXPECT_EQ(json_for_form.exit_code, 2);
  EXPECT_NE(json_for_form.message.find("video_generation sends multipart/form-data"),
            std::string::npos)
      << json_for_form.message;
  const CliOutcome form_for_chat = parse_request({"--request-content-type", "multipart/form-data"});
  EXPECT_EQ(form_for_chat.exit_code, 2);
  EXPECT_NE(form_for_chat.message.find("applies only to --endpoint-type image_edit and "
                                       "video_generation (got chat)"),
            std::string::npos)
      << form_for_chat.message;
  EXPECT_EQ(parse_request({"--endpoint-type", "raw", "--endpoint", "/x"}).config.endpoint.type,
            EndpointType::kRaw);
  EXPECT_EQ(inferperf::config::effective_content_type(EndpointType::kImageEdit, std::nullopt),
            RequestContentType::kMultipartFormData);
  EXPECT_EQ(inferperf::config::effective_content_type(EndpointType::kRaw, std::nullopt),
            RequestContentType::kApplicationJson);
}

TEST(DownloadVideoContent, VideoGenerationOnly) {
  const CliOutcome ok =
      parse_request({"--endpoint-type", "video_generation", "--download-video-content"});
  ASSERT_EQ(ok.action, CliOutcome::Action::kProfile) << ok.message;
  EXPECT_TRUE(ok.config.endpoint.download_video_content);
  const CliOutcome chat = parse_request({"--download-video-content"});
  EXPECT_EQ(chat.exit_code, 2);
  EXPECT_NE(chat.message.find("--download-video-content applies only to --endpoint-type "
                              "video_generation (got chat)"),
            std::string::npos)
      << chat.message;
}

}  // namespace
