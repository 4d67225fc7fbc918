#include "app/profile/server_info.hpp"

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <string_view>

#include "core/clock.hpp"
#include "core/uuid.hpp"
#include "transport/http_exchange.hpp"

namespace inferperf::app {

namespace {

namespace asio = boost::asio;
using ojson = nlohmann::ordered_json;

// A route's answer is kept up to this size (a model list of thousands of entries is cut).
constexpr std::size_t kKeptBodyBytes = 64 * 1024;

std::string sinfo_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// One answer: status, the head's fields, the body's first kKeptBodyBytes.
class ServerInfoSink final : public transport::ResponseSink {
 public:
  void on_header_fields(std::string_view fields) override { fields_ = std::string(fields); }
  void on_headers(int status, std::string_view, std::string_view content_type,
                  core::MonoNs) override {
    status_ = status;
    content_type_ = std::string(content_type);
  }
  void on_body(std::string_view bytes, core::MonoNs, std::uint32_t) override {
    const std::size_t room = kKeptBodyBytes - std::min(kKeptBodyBytes, body_.size());
    truncated_ |= bytes.size() > room;
    body_.append(bytes.substr(0, room));
  }

  int status_ = 0;
  std::string fields_, content_type_, body_;
  bool truncated_ = false;
};

// The headers that can name a server: Server, X-Powered-By, Via and any *version* header.
ojson identifying_headers(std::string_view fields) {
  ojson out = ojson::object();
  while (!fields.empty()) {
    const std::size_t nl = fields.find('\n');
    std::string_view line = fields.substr(0, nl);
    fields.remove_prefix(nl == std::string_view::npos ? fields.size() : nl + 1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = sinfo_lower(line.substr(0, colon));
    if (name != "server" && name != "x-powered-by" && name != "via" &&
        name.find("version") == std::string::npos)
      continue;
    std::string_view v = line.substr(colon + 1);
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == '\r' || v.back() == ' ')) v.remove_suffix(1);
    out[name] = std::string(v.substr(0, 200));
  }
  return out;
}

ojson answer_json(const ServerInfoSink& s) {
  ojson a = {{"status", s.status_}};
  if (s.status_ < 200 || s.status_ >= 300) return a;  // a 404 page says nothing about the server
  if (!s.content_type_.empty()) a["content_type"] = s.content_type_;
  ojson body = ojson::parse(s.body_, nullptr, false);
  if (!s.truncated_ && !body.is_discarded()) {
    a["body"] = std::move(body);
  } else {
    a["body_text"] = s.body_.substr(0, 4096);
    if (s.truncated_) a["truncated"] = true;
  }
  return a;
}

// The route under the URL's own prefix: "http://h/proxy/v1" asks "/proxy/v1/models" and
// "/proxy/version".
std::string route_path(const transport::BaseUrl& url, std::string_view route) {
  std::string root = url.base_path;
  if (root.ends_with("/v1")) root.resize(root.size() - 3);
  return root + std::string(route);
}

// The ids of /v1/models' data entries.
ojson model_ids(const ojson& routes) {
  ojson ids = ojson::array();
  if (!routes.contains("/v1/models")) return ids;
  const ojson& a = routes.at("/v1/models");
  if (!a.contains("body") || !a["body"].is_object()) return ids;
  const ojson& data = a["body"].value("data", ojson::array());
  if (!data.is_array()) return ids;
  for (const auto& m : data) {
    if (m.is_object() && m.contains("id") && m["id"].is_string()) ids.push_back(m["id"]);
  }
  return ids;
}

}  // namespace

ojson probe_server_info(const worker::RequestPlan& plan, double budget_s) {
  ojson routes = ojson::object();
  ojson headers = ojson::object();
  if (plan.targets.empty()) return {{"routes", routes}};
  const worker::Target& target = plan.targets.front();
  asio::io_context io;
  core::SteadyClock clock;
  transport::ConnectionPool pool(io.get_executor(), target.url, plan.tls_context,
                                 plan.transport.unix_socket);
  pool.set_local_addresses(plan.transport.local_addresses);
  worker::RequestPlan marked;  // the run's headers (credentials), marked as not measured
  marked.headers = plan.headers;
  marked.session_header = plan.session_header;
  marked.headers.emplace_back("X-Inferperf-Preflight", "1");
  const auto started = std::chrono::steady_clock::now();
  // One cancel handle and "answered" mark per route, alive until io.run() returns: a timer whose
  // wait completed in the same turn as its exchange still runs its handler after the route is
  // done, and must then find its own handle, marked done, not a freed or a later one.
  constexpr std::size_t kRoutes = std::size(kServerInfoRoutes);
  std::array<transport::CancelHandle, kRoutes> cancels;
  std::array<bool, kRoutes> answered{};
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (std::size_t i = 0; i < kRoutes; ++i) {
          const char* route = kServerInfoRoutes[i];
          const double left =
              budget_s -
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
          if (left <= 0) {
            routes[route] = {{"error", "not asked: the probe's time was spent"}};
            continue;
          }
          ServerInfoSink sink;
          asio::steady_timer timer(io);
          timer.expires_after(std::chrono::milliseconds(static_cast<std::int64_t>(left * 1000)));
          timer.async_wait([&cancels, &answered, i](const boost::system::error_code& ec) {
            if (!ec && !answered[i])
              cancels[i].cancel(core::RequestErrorKind::kTimeout, "no answer in time", {});
          });
          const std::string request = worker::serialize_get(
              marked, target, route_path(target.url, route), core::uuid4(), core::uuid4());
          transport::ExchangeTimings t;
          transport::ExchangeRequest exchange{request};
          auto err = co_await transport::http_exchange(pool, exchange, sink, clock, t, cancels[i]);
          answered[i] = true;
          timer.cancel();
          if (err) {
            routes[route] = {{"error", err->message}};
            continue;
          }
          routes[route] = answer_json(sink);
          if (headers.empty() && sink.status_ > 0) headers = identifying_headers(sink.fields_);
        }
        pool.close_all();
      },
      asio::detached);
  io.run();
  ojson out;
  out["probe_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out["headers"] = std::move(headers);
  out["routes"] = std::move(routes);
  out["models"] = model_ids(out["routes"]);
  const ServerIdentity id = identify_server(out);
  ojson head = {{"engine", id.engine.empty() ? ojson(nullptr) : ojson(id.engine)},
                {"engine_version", id.version.empty() ? ojson(nullptr) : ojson(id.version)}};
  head.update(out);
  return head;
}

namespace {

// body[key] when the route answered 2xx with a JSON object holding a string or number there.
std::string sinfo_field(const ojson& info, const char* route, const char* key) {
  const auto& routes = info.value("routes", ojson::object());
  if (!routes.contains(route)) return {};
  const ojson& a = routes.at(route);
  if (!a.contains("body") || !a["body"].is_object() || !a["body"].contains(key)) return {};
  const ojson& v = a["body"][key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.dump();
  return {};
}

bool sinfo_answered(const ojson& info, const char* route) {
  const auto& routes = info.value("routes", ojson::object());
  if (!routes.contains(route)) return false;
  const int status = routes.at(route).value("status", 0);
  return status >= 200 && status < 300 && routes.at(route).contains("body");
}

std::string first_owner(const ojson& info) {
  const auto& routes = info.value("routes", ojson::object());
  if (!routes.contains("/v1/models")) return {};
  const ojson& a = routes.at("/v1/models");
  if (!a.contains("body") || !a["body"].is_object()) return {};
  const ojson& data = a["body"].value("data", ojson::array());
  if (!data.is_array() || data.empty() || !data[0].is_object()) return {};
  const auto owner = data[0].find("owned_by");
  return owner != data[0].end() && owner->is_string() ? sinfo_lower(owner->get<std::string>()) : "";
}

}  // namespace

ServerIdentity identify_server(const ojson& info) {
  const std::string owner = first_owner(info);
  const std::string server =
      sinfo_lower(info.value("headers", ojson::object()).value("server", ""));
  const std::string version = sinfo_field(info, "/version", "version");
  if (sinfo_answered(info, "/get_server_info") || owner == "sglang")
    return {"sglang", version.empty() ? sinfo_field(info, "/get_server_info", "version") : version};
  if (sinfo_answered(info, "/props") || owner == "llamacpp" || server.find("llama.cpp") == 0)
    return {"llama.cpp", sinfo_field(info, "/props", "build_info")};
  if (sinfo_field(info, "/v2", "name") == "triton")
    return {"triton", sinfo_field(info, "/v2", "version")};
  if (sinfo_answered(info, "/info") && !sinfo_field(info, "/info", "model_id").empty())
    return {"tgi", sinfo_field(info, "/info", "version")};
  if (sinfo_answered(info, "/v1/version")) {
    const std::string release = sinfo_field(info, "/v1/version", "release");
    return {"nim", release.empty() ? sinfo_field(info, "/v1/version", "version") : release};
  }
  if (sinfo_answered(info, "/api/version"))
    return {"ollama", sinfo_field(info, "/api/version", "version")};
  if (owner == "inferperf-mock") return {"inferperf-mock-server", version};
  if (owner == "vllm" || !version.empty()) return {"vllm", version};
  return {};
}

std::string server_info_summary(const ojson& info) {
  const ServerIdentity id = identify_server(info);
  std::string out = id.engine.empty() ? "an unidentified server" : id.engine;
  if (!id.version.empty()) out += " " + id.version;
  const ojson models = info.value("models", ojson::array());
  if (!models.empty()) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < models.size() && i < 3; ++i) names.push_back(models[i].dump());
    out += fmt::format(" serving {}{}", fmt::join(names, ", "), models.size() > 3 ? ", ..." : "");
  }
  const std::string server = info.value("headers", ojson::object()).value("server", "");
  if (!server.empty()) out += " (Server: " + server + ")";
  return out;
}

}  // namespace inferperf::app
