// How requests are encoded: --request-content-type and --download-video-content.
#include "config/cli_areas.hpp"
#include "config/request_options.hpp"
#include "config/run_config.hpp"

namespace inferperf::config {

namespace {

// One --request-content-type word in any spelling AIPerf accepts; stores the MIME type.
CLI::Validator request_content_type_choice() {
  return CLI::Validator(
      [](std::string& value) {
        const auto t = request_content_type_from(value);
        if (!t) {
          return "'" + value +
                 "' is not a request content type (application/json, multipart/form-data)";
        }
        value = to_string(*t);
        return std::string{};
      },
      "{application/json,multipart/form-data}");
}

}  // namespace

void add_request_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option_function<std::string>(
          "--request-content-type",
          [&c](const std::string& v) {
            c.endpoint.request_content_type = request_content_type_from(v);
          },
          "application/json | multipart/form-data; unset: the endpoint type's own (multipart for "
          "image_edit and video_generation), which is the only one accepted")
      ->transform(request_content_type_choice())
      ->group("Endpoint");
  profile
      ->add_flag("--download-video-content", c.endpoint.download_video_content,
                 "video_generation: fetch each finished video (GET its url, else "
                 "/v1/videos/{id}/content) and count the download in the request latency")
      ->group("Endpoint");
}

void validate_request_options(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& e = c.endpoint;
  const std::string type = to_string(e.type);
  if (e.request_content_type) {
    const bool form = requires_form_data(e.type);
    if (*e.request_content_type == RequestContentType::kApplicationJson && form) {
      errors.push_back("--request-content-type application/json: --endpoint-type " + type +
                       " sends multipart/form-data (the only content type it accepts)");
    } else if (*e.request_content_type == RequestContentType::kMultipartFormData && !form) {
      errors.push_back(
          "--request-content-type multipart/form-data applies only to --endpoint-type "
          "image_edit and video_generation (got " +
          type + ")");
    }
  }
  if (e.download_video_content && e.type != EndpointType::kVideoGeneration) {
    errors.push_back(
        "--download-video-content applies only to --endpoint-type video_generation (got " + type +
        ")");
  }
}

}  // namespace inferperf::config
