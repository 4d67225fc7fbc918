// Shared pieces of the routes: the error shape and the request gates (API key, strict model).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "routes.hpp"

namespace inferperf::mock {

namespace {
std::string_view error_type(int status) {
  switch (status) {
    case 400:
      return "BadRequestError";
    case 401:
      return "AuthenticationError";
    case 404:
      return "NotFoundError";
    case 409:
      return "ConflictError";
    case 422:
      return "UnprocessableEntityError";
    case 503:
      return "ServiceUnavailableError";
    default:
      return "InternalServerError";
  }
}
}  // namespace

RouteError route_error(int status, std::string_view message) {
  return {status, fmt::format(R"({{"error":{{"message":"{}","type":"{}","code":{}}}}})",
                              json_escape(message), error_type(status), status)};
}

std::uint64_t fnv1a(std::string_view s, std::uint64_t h) {
  for (const unsigned char ch : s) h = (h ^ ch) * 1099511628211ULL;
  return h;
}

std::optional<RouteError> check_api_key(const MockOptions& o,
                                        std::optional<std::string_view> value) {
  if (o.api_key.empty()) return std::nullopt;
  const bool bearer =
      o.auth_header_name.size() == 13 &&
      std::equal(o.auth_header_name.begin(), o.auth_header_name.end(), "authorization",
                 [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  const std::string expected = bearer ? "Bearer " + o.api_key : o.api_key;
  if (value && *value == expected) return std::nullopt;
  return route_error(401,
                     value ? "Invalid API key" : "Missing API key in header " + o.auth_header_name);
}

std::optional<RouteError> check_model(const MockOptions& o, std::string_view body) {
  if (!o.strict_model) return std::nullopt;
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  const auto it = j.find("model");
  if (it == j.end() || !it->is_string()) return std::nullopt;
  const auto& model = it->get_ref<const std::string&>();
  if (model == o.model_name) return std::nullopt;
  return route_error(404, fmt::format("The model `{}` does not exist.", model));
}

}  // namespace inferperf::mock
