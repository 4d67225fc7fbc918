// image_edit and raw: bodies, response decoding, the turn checks; the multipart/form-data encoder
// byte for byte.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/base64.hpp"
#include "endpoint/endpoint.hpp"
#include "endpoint/multipart.hpp"

namespace {

using inferperf::config::EndpointType;
using inferperf::dataset::MediaItem;
using inferperf::dataset::Turn;
using inferperf::endpoint::BodyOptions;
using inferperf::endpoint::create_endpoint;
using inferperf::endpoint::encode_multipart;
using inferperf::endpoint::endpoint_info;
using inferperf::endpoint::turn_input_problem;
using Kind = inferperf::endpoint::DecodedEvent::Kind;
using Extra = std::vector<std::pair<std::string, nlohmann::json>>;
using ojson = nlohmann::ordered_json;

// A 1x1 PNG.
constexpr const char* kPngB64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg"
    "==";

Turn image_turn(std::string text, std::string url) {
  Turn t;
  t.text = std::move(text);
  MediaItem m;
  m.url = std::move(url);
  t.media.push_back(m);
  return t;
}

BodyOptions options(const Extra* extra = nullptr) {
  BodyOptions o;
  o.model = "m";
  o.extra = extra;
  return o;
}

TEST(Multipart, FieldsFilesListsAndNullsByteForByte) {
  ojson body;
  body["prompt"] = "a \"red\" cat";
  body["n"] = 1;
  body["stream"] = false;
  body["skip"] = nullptr;
  body["tags[]"] = {"a", 2};
  body["meta"] = {{"k", 1}};
  body["image"] = inferperf::endpoint::file_field("aGk=", "image.png", "image/png");
  body["blob"] = {{"b64_data", "AAE="}};
  auto out = encode_multipart(body, "B");
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->content_type, "multipart/form-data; boundary=B");
  const std::string expected =
      "--B\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\na \"red\" cat\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n1\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"stream\"\r\n\r\nfalse\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\na\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\n2\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n{\"k\":1}\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"image\"; filename=\"image.png\"\r\n"
      "Content-Type: image/png\r\n\r\nhi\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"blob\"\r\n"
      "Content-Type: application/octet-stream\r\n\r\n" +
      std::string("\x00\x01", 2) +
      "\r\n"
      "--B--\r\n";
  EXPECT_EQ(out->bytes, expected);
}

TEST(Multipart, QuotesInNamesAndBadInput) {
  ojson body;
  body["a\"b\r\n"] = "v";
  auto out = encode_multipart(body, "B");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->bytes,
            "--B\r\nContent-Disposition: form-data; name=\"a%22b%0D%0A\"\r\n\r\nv\r\n--B--\r\n");
  ojson bad;
  bad["image"] = {{"b64_data", "not base64!"}};
  auto err = encode_multipart(bad, "B");
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().message, "field 'image': b64_data is not valid base64");
  EXPECT_FALSE(encode_multipart(ojson::array({1}), "B"));
  EXPECT_EQ(inferperf::endpoint::multipart_boundary("12AB-cd"), "inferperf-12abcd");
  EXPECT_EQ(inferperf::core::base64_decode_strict("aGVsbG8="), "hello");
  EXPECT_FALSE(inferperf::core::base64_decode_strict("aGVsbG8"));   // length
  EXPECT_FALSE(inferperf::core::base64_decode_strict("aGV=bG8="));  // '=' inside
}

TEST(ImageEdit, TableAndBody) {
  const auto& info = endpoint_info(EndpointType::kImageEdit);
  EXPECT_STREQ(info.path, "v1/images/edits");
  EXPECT_FALSE(info.streams);
  EXPECT_FALSE(info.produces_tokens);
  EXPECT_TRUE(info.tokenizes_input);
  EXPECT_STREQ(info.title, "Image Edit Metrics");
  const Extra extra = {{"size", "512x512"}};
  auto ep = create_endpoint(EndpointType::kImageEdit, extra);
  ASSERT_TRUE(ep);
  const auto data_url = std::string("data:image/png;base64,") + kPngB64;
  EXPECT_EQ((*ep)->build_body({image_turn("make it blue", data_url)}, options(&extra)).dump(),
            std::string(R"({"prompt":"make it blue","model":"m","response_format":"b64_json",)") +
                R"("n":1,"image":{"b64_data":")" + kPngB64 +
                R"(","filename":"image.png","content_type":"image/png"},"size":"512x512"})");
  // An http(s) image is sent as the url field; bare base64 is sniffed; image/jpg is JPEG.
  EXPECT_EQ((*ep)->build_body({image_turn("p", "https://h/x.png")}, options())["url"],
            "https://h/x.png");
  EXPECT_EQ((*ep)->build_body({image_turn("p", kPngB64)}, options())["image"]["filename"],
            "image.png");
  const auto jpg =
      (*ep)->build_body({image_turn("p", "data:image/jpg;base64,/9j/AA==")}, options());
  EXPECT_EQ(jpg["image"]["filename"], "image.jpg");
  EXPECT_EQ(jpg["image"]["content_type"], "image/jpeg");
  EXPECT_THROW((*ep)->build_body({image_turn("p", "data:text/plain;base64,aGk=")}, options()),
               std::runtime_error);
}

TEST(ImageEdit, ReservedExtraInputsDecodeAndTurnChecks) {
  for (const char* key : {"prompt", "image", "url", "mask"}) {
    auto ep = create_endpoint(EndpointType::kImageEdit, {{key, "x"}});
    ASSERT_FALSE(ep) << key;
    EXPECT_NE(ep.error().message.find(std::string("--extra-inputs ") + key), std::string::npos);
  }
  auto ep = create_endpoint(EndpointType::kImageEdit, {});
  ASSERT_TRUE(ep);
  const auto d = (*ep)->decode(
      R"({"created":1,"data":[{"b64_json":"aGk="},{"url":"https://h/i.png"},{"x":1}],)"
      R"("usage":{"input_tokens":5,"output_tokens":7,"total_tokens":12}})");
  EXPECT_EQ(d.kind, Kind::kData);
  EXPECT_EQ(d.outputs, 2);
  ASSERT_TRUE(d.usage);
  EXPECT_EQ(d.usage->prompt_tokens, 5);
  EXPECT_EQ((*ep)->decode(R"({"error":{"message":"bad image"}})").error_message, "bad image");
  EXPECT_EQ((*ep)->decode(R"({"created":1})").kind, Kind::kError);

  Turn plain;
  plain.text = "no image";
  EXPECT_NE(turn_input_problem(EndpointType::kImageEdit, plain).find("needs one"),
            std::string::npos);
  EXPECT_EQ(turn_input_problem(EndpointType::kImageEdit, image_turn("p", kPngB64)), "");
  EXPECT_EQ(turn_input_problem(EndpointType::kImageEdit, image_turn("p", "HTTPS://h/i.png")), "");
  EXPECT_NE(turn_input_problem(EndpointType::kImageEdit, image_turn("p", "data:x,abc"))
                .find("not a PNG, JPEG"),
            std::string::npos);
  Turn extra = image_turn("p", kPngB64);
  extra.extra = std::make_shared<const ojson>(ojson{{"mask", "m"}});
  EXPECT_NE(turn_input_problem(EndpointType::kImageEdit, extra).find("'mask'"), std::string::npos);
  EXPECT_EQ(turn_input_problem(EndpointType::kChat, plain), "");
}

TEST(Raw, PayloadVerbatimAndNoPathOfItsOwn) {
  const auto& info = endpoint_info(EndpointType::kRaw);
  EXPECT_STREQ(info.path, "");
  EXPECT_TRUE(info.streams);
  EXPECT_TRUE(info.produces_tokens);
  EXPECT_STREQ(info.title, "LLM Metrics");
  auto ep = create_endpoint(EndpointType::kRaw, {});
  ASSERT_TRUE(ep);
  Turn t;
  t.payload = std::make_shared<const ojson>(
      ojson::parse(R"({"model":"x","messages":[{"role":"user","content":"hi"}],"stream":true})"));
  const Extra extra = {{"ignored", 1}};
  EXPECT_EQ(inferperf::endpoint::build_request_body(**ep, {t}, options(&extra)).dump(),
            R"({"model":"x","messages":[{"role":"user","content":"hi"}],"stream":true})");
  Turn none;
  none.text = "no payload";
  EXPECT_THROW((*ep)->build_body({none}, options()), std::runtime_error);
  EXPECT_NE(turn_input_problem(EndpointType::kRaw, none).find("raw_payload or inputs_json"),
            std::string::npos);
  EXPECT_EQ(turn_input_problem(EndpointType::kRaw, t), "");
  // The URL's own path is the request path when there is no other.
  EXPECT_EQ(inferperf::endpoint::join_path("/v1/chat/completions", "", ""), "/v1/chat/completions");
  EXPECT_EQ(inferperf::endpoint::join_path("", "", ""), "/");
  EXPECT_EQ(inferperf::endpoint::join_path("/v1", "/v1/x", ""), "/v1/x");
}

TEST(Raw, ResponsesDetectedOrSelected) {
  auto ep = create_endpoint(EndpointType::kRaw, {});
  ASSERT_TRUE(ep);
  EXPECT_EQ((*ep)->decode(R"({"choices":[{"delta":{"content":"tok"}}]})").content, "tok");
  EXPECT_EQ((*ep)->decode(R"({"choices":[{"message":{"content":"whole"}}]})").content, "whole");
  EXPECT_EQ((*ep)->decode(R"({"data":[{"object":"embedding","embedding":[1]}]})").outputs, 1);
  EXPECT_EQ((*ep)->decode("plain text").content, "plain text");
  const auto usage = (*ep)->decode(R"({"choices":[],"usage":{"prompt_tokens":3}})");
  ASSERT_TRUE(usage.usage);
  EXPECT_EQ(usage.usage->prompt_tokens, 3);
  EXPECT_EQ((*ep)->decode(R"({"error":{"message":"boom"}})").kind, Kind::kError);
  auto field = create_endpoint(EndpointType::kRaw, {{"response_field", "out.text"}});
  ASSERT_TRUE(field);
  EXPECT_EQ((*field)->decode(R"({"out":{"text":"picked"},"text":"not this"})").content, "picked");
  // A path that selects nothing falls back to the detection, as AIPerf's response_field.
  EXPECT_EQ((*field)->decode(R"({"text":"detected"})").content, "detected");
  EXPECT_FALSE(create_endpoint(EndpointType::kRaw, {{"response_field", "a[*]"}}));
}

}  // namespace
