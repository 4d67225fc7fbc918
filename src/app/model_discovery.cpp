#include "app/model_discovery.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "core/version.hpp"

namespace inferperf::app {

namespace beast = boost::beast;
namespace http = beast::http;

core::Result<std::string> discover_model(const transport::BaseUrl& url, int timeout_s) {
  auto fail = [&](const std::string& why) {
    return core::Error{core::ErrorKind::kConfig,
                       "no --model given and the model list could not be read from " +
                           url.to_string() + "/v1/models: " + why};
  };
  try {
    boost::asio::io_context io;
    boost::asio::ip::tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(timeout_s));
    stream.connect(resolver.resolve(url.host, std::to_string(url.port)));
    std::string target =
        url.base_path.ends_with("/v1") ? url.base_path + "/models" : url.base_path + "/v1/models";
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, url.host_header());
    req.set(http::field::user_agent, std::string("inferperf/") + kVersion);
    req.set(http::field::accept, "application/json");
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    if (res.result_int() != 200) return fail("HTTP " + std::to_string(res.result_int()));
    auto j = nlohmann::json::parse(res.body(), nullptr, false);
    if (j.is_discarded() || !j.contains("data") || !j["data"].is_array() || j["data"].empty() ||
        !j["data"][0].contains("id") || !j["data"][0]["id"].is_string()) {
      return fail("response has no data[0].id");
    }
    return j["data"][0]["id"].get<std::string>();
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace inferperf::app
