// The mock's multipart/form-data parser, POST /v1/images/edits and form-encoded video jobs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "multipart_form.hpp"
#include "routes.hpp"

namespace {

using inferperf::mock::FormPart;
using inferperf::mock::ImageEditRequest;
using inferperf::mock::parse_image_edit_request;
using inferperf::mock::parse_multipart_form;

const std::string kType = "multipart/form-data; boundary=XyZ";
const std::string kPng("\x89PNG\r\n\x1a\nrest", 12);

std::string field(const std::string& name, const std::string& value) {
  return "--XyZ\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
}

std::string file(const std::string& name, const std::string& bytes) {
  return "--XyZ\r\nContent-Disposition: form-data; name=\"" + name +
         "\"; filename=\"i.png\"\r\nContent-Type: image/png\r\n\r\n" + bytes + "\r\n";
}

TEST(MultipartForm, PartsWithNamesFilesAndBytes) {
  std::vector<FormPart> parts;
  const std::string body =
      "preamble\r\n" + field("prompt", "two\r\nlines") + file("image", kPng) + "--XyZ--\r\n";
  ASSERT_EQ(parse_multipart_form("Multipart/Form-Data; boundary=\"XyZ\"", body, parts),
            std::nullopt);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].name, "prompt");
  EXPECT_EQ(parts[0].data, "two\r\nlines");
  EXPECT_FALSE(parts[0].filename);
  EXPECT_EQ(parts[1].filename, "i.png");
  EXPECT_EQ(parts[1].content_type, "image/png");
  EXPECT_EQ(parts[1].data, kPng);
  std::vector<FormPart> none;
  EXPECT_EQ(parse_multipart_form("application/json", body, none),
            "the body is not multipart/form-data");
  EXPECT_EQ(parse_multipart_form("multipart/form-data", body, none),
            "multipart/form-data without a boundary");
  EXPECT_EQ(parse_multipart_form(kType, field("a", "b"), none), "no closing multipart boundary");
}

TEST(ImageEdits, FormFieldsAndImagesCounted) {
  ImageEditRequest r;
  const std::string body = field("prompt", "make it blue") + field("model", "m") + field("n", "1") +
                           field("response_format", "b64_json") + file("image", kPng) +
                           file("image[]", kPng) + "--XyZ--\r\n";
  ASSERT_EQ(parse_image_edit_request(kType, body, r), std::nullopt);
  EXPECT_EQ(r.image.prompt, "make it blue");
  EXPECT_EQ(r.image.model, "m");
  EXPECT_EQ(r.image.n, 1);
  EXPECT_EQ(r.images, 2);
  ImageEditRequest u;
  ASSERT_EQ(parse_image_edit_request(
                kType, field("prompt", "p") + field("url", "https://h/i.png") + "--XyZ--\r\n", u),
            std::nullopt);
  EXPECT_TRUE(u.url);
  EXPECT_EQ(u.images, 0);
}

TEST(ImageEdits, RefusedForms) {
  auto status = [](const std::string& type, const std::string& body) {
    ImageEditRequest r;
    auto e = parse_image_edit_request(type, body, r);
    return e ? e->status : 200;
  };
  EXPECT_EQ(status("application/json", R"({"prompt":"p"})"), 400);
  EXPECT_EQ(status(kType, field("prompt", "p") + "--XyZ--\r\n"), 422);  // no image
  EXPECT_EQ(status(kType, file("image", kPng) + "--XyZ--\r\n"), 422);   // no prompt
  EXPECT_EQ(status(kType, field("prompt", "p") + file("image", "GIF") + "--XyZ--\r\n"), 400);
  EXPECT_EQ(status(kType, field("prompt", "p") + field("image", "text") + "--XyZ--\r\n"), 422);
  EXPECT_EQ(
      status(kType, field("prompt", "p") + field("n", "x") + file("image", kPng) + "--XyZ--\r\n"),
      422);
}

TEST(VideoJobs, FormEncodedRequests) {
  inferperf::mock::VideoRequest v;
  ASSERT_EQ(inferperf::mock::parse_video_request(field("prompt", "a cat") + field("model", "wan") +
                                                     field("seconds", "8") + "--XyZ--\r\n",
                                                 v, kType),
            std::nullopt);
  EXPECT_EQ(v.prompt, "a cat");
  EXPECT_EQ(v.model, "wan");
  EXPECT_EQ(v.seconds, "8");
  inferperf::mock::VideoRequest j;
  ASSERT_EQ(inferperf::mock::parse_video_request(R"({"prompt":"json still works"})", j),
            std::nullopt);
  EXPECT_EQ(j.prompt, "json still works");
}

}  // namespace
