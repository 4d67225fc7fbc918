// Image generation (/v1/images/generations): a prompt in, base64 images out; when streaming,
// partial images arrive before the completed one.
#include <simdjson.h>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

class ImageGenerationEndpoint final : public Endpoint {
 public:
  ImageGenerationEndpoint() : Endpoint(config::EndpointType::kImageGeneration) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    body["prompt"] = history.back().text;
    body["model"] = model_of(history, o);
    body["response_format"] = "b64_json";
    body["n"] = 1;
    if (o.streaming) body["stream"] = true;
    merge_extra(body, o);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object obj;
    if (!parse_object(payload, parser, obj, out)) return out;
    std::string_view type = string_or_empty(obj, "type");
    if (!type.empty()) {
      // A stream event: partial images show progress, the completed one is the image.
      if (type.ends_with(".partial_image")) {
        out.kind = DecodedEvent::Kind::kData;
        out.progress = true;
      } else if (type.ends_with(".completed")) {
        out.kind = DecodedEvent::Kind::kData;
        out.outputs = 1;
        read_usage(obj, out);
      } else if (type == "error") {
        return error_event(error_message_of(obj).value_or("image generation error event"));
      }
      return out;
    }
    return decode_image_data(obj, "image generation");
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_image_generation_endpoint() {
  return std::make_unique<ImageGenerationEndpoint>();
}

}  // namespace inferperf::endpoint
