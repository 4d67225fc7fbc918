// raw: each row's request body sent verbatim (raw_payload and inputs_json datasets), to the path
// of --endpoint or of the --url itself; nothing is formatted. Responses are read as template's
// are: --extra-inputs response_field:<path> selects the value, otherwise the shape is detected
// (embeddings, rankings, text, OpenAI choices, a plain-text body), streamed or whole.
#include "endpoint/factories.hpp"
#include "endpoint/template_render.hpp"

namespace inferperf::endpoint {

namespace {

class RawEndpoint final : public Endpoint {
 public:
  explicit RawEndpoint(std::vector<PathStep> response_field)
      : Endpoint(config::EndpointType::kRaw), response_field_(std::move(response_field)) {}

  // Rows with a payload never get here (build_request_body sends it); the dataset checks refuse
  // a raw run whose rows lack one, so this is a guard, not a path.
  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& /*history*/,
                                    const BodyOptions& /*o*/) const override {
    throw std::runtime_error(raw_needs_payload());
  }

  DecodedEvent decode(std::string_view payload) const override {
    return decode_detected(payload, response_field_);
  }

 private:
  std::vector<PathStep> response_field_;
};

}  // namespace

std::string raw_needs_payload() {
  return "--endpoint-type raw sends each row's body verbatim; this dataset has a turn without "
         "one (use --custom-dataset-type raw_payload or inputs_json)";
}

core::Result<std::unique_ptr<Endpoint>> make_raw_endpoint(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra) {
  std::string response_field;
  for (const auto& [k, v] : extra) {
    if (k == "response_field" && v.is_string()) response_field = v.get<std::string>();
  }
  auto field = response_field_path(response_field);
  if (!field) return field.error();
  return std::unique_ptr<Endpoint>(std::make_unique<RawEndpoint>(std::move(*field)));
}

}  // namespace inferperf::endpoint
