// Form bodies on the wire (RequestPlan::multipart) and where a finished video is downloaded from.
#include <gtest/gtest.h>

#include <string>

#include "worker/request_plan.hpp"
#include "worker/video_download.hpp"

namespace {

using inferperf::worker::RequestPlan;
using inferperf::worker::Target;

Target target(std::string path) {
  Target t;
  t.url.host = "h";
  t.url.port = 8000;
  t.path = std::move(path);
  return t;
}

TEST(MultipartRequest, FormBodyWithItsBoundaryAndLength) {
  RequestPlan plan;
  plan.multipart = true;
  const std::string r = inferperf::worker::serialize_request(
      plan, target("/v1/videos"), R"({"prompt":"p","skip":null})", "AB-12", "corr");
  const std::string form =
      "--inferperf-ab12\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\np\r\n"
      "--inferperf-ab12--\r\n";
  EXPECT_NE(r.find("\r\nContent-Type: multipart/form-data; boundary=inferperf-ab12\r\n"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("\r\nContent-Length: " + std::to_string(form.size()) + "\r\n\r\n" + form),
            std::string::npos)
      << r;
  EXPECT_TRUE(r.ends_with(form));
  EXPECT_THROW(inferperf::worker::serialize_request(plan, target("/x"),
                                                    R"({"image":{"b64_data":"%%"}})", "1", "c"),
               std::runtime_error);
  plan.multipart = false;
  const std::string json =
      inferperf::worker::serialize_request(plan, target("/x"), R"({"a":1})", "1", "c");
  EXPECT_NE(json.find("Content-Type: application/json\r\n"), std::string::npos);
  EXPECT_TRUE(json.ends_with("\r\n\r\n{\"a\":1}"));
}

TEST(VideoDownload, ContentPathFromTheJob) {
  using inferperf::worker::video_content_path;
  const Target t = target("/v1/videos?k=1");
  EXPECT_EQ(video_content_path(t, "/v1/videos/v1?k=1", ""), "/v1/videos/v1/content?k=1");
  EXPECT_EQ(video_content_path(t, "/v1/videos/v1", "/files/v1.mp4"), "/files/v1.mp4");
  EXPECT_EQ(video_content_path(t, "/v1/videos/v1", "http://h:8000/f/v.mp4?sig=x"),
            "/f/v.mp4?sig=x");
  EXPECT_EQ(video_content_path(t, "/v1/videos/v1", "http://other:8000/f/v.mp4"), std::nullopt);
  EXPECT_EQ(video_content_path(t, "/v1/videos/v1", "https://h:8000/f/v.mp4"), std::nullopt);
}

}  // namespace
