#include "transport/http_get.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <cstdio>
#include <optional>
#include <stdexcept>

#include "core/secrets.hpp"
#include "core/version.hpp"
#include "transport/connection.hpp"
#include "transport/http_policy.hpp"
#include "transport/url.hpp"

namespace inferperf::transport {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

std::string GetResponse::header(const std::string& lower_name) const {
  for (const auto& [k, v] : headers) {
    if (k == lower_name) return v;
  }
  return {};
}

// Named, not anonymous: a Target lives in exchange()'s coroutine frame, and a frame type with an
// internal-linkage field warns (-Wsubobject-linkage) once the unity builds include this file.
namespace http_get_detail {

struct Target {
  std::string scheme, host, port, path;
};

// One exchange as sent: a GET hop or a POST.
struct Call {
  boost::beast::http::verb verb = boost::beast::http::verb::get;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string content_type, body;
  std::chrono::milliseconds timeout{60000};
  bool verify_tls = true;
  std::string ssl_ca_file;
  std::uint64_t body_limit = 0;
};

}  // namespace http_get_detail
using http_get_detail::Call;
using http_get_detail::Target;

namespace {

core::Result<Target> split_url(const std::string& url) {
  Target t;
  auto p = url.find("://");
  if (p == std::string::npos)
    return core::Error{core::ErrorKind::kNetwork, "URL without scheme: " + url};
  t.scheme = url.substr(0, p);
  std::string rest = url.substr(p + 3);
  auto slash = rest.find('/');
  std::string authority = slash == std::string::npos ? rest : rest.substr(0, slash);
  t.path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    t.host = authority.substr(1, close - 1);
    t.port = close + 2 <= authority.size() ? authority.substr(close + 2) : "";
  } else if (auto colon = authority.rfind(':'); colon != std::string::npos) {
    t.host = authority.substr(0, colon);
    t.port = authority.substr(colon + 1);
  } else {
    t.host = authority;
  }
  if (t.scheme != "http" && t.scheme != "https")
    return core::Error{core::ErrorKind::kNetwork, "unsupported scheme in " + url};
  if (t.port.empty()) t.port = t.scheme == "https" ? "443" : "80";
  return t;
}

template <typename Stream>
asio::awaitable<GetResponse> exchange(Stream& stream, const Target& t, const Call& r) {
  http::request<http::string_body> req{r.verb, t.path, 11};
  const bool default_port =
      (t.scheme == "https" && t.port == "443") || (t.scheme == "http" && t.port == "80");
  req.set(http::field::host, default_port ? t.host : t.host + ":" + t.port);
  req.set(http::field::user_agent, std::string("inferperf/") + kVersion);
  for (const auto& [k, v] : r.headers) req.set(k, v);
  if (r.verb != http::verb::get) {
    if (!r.content_type.empty()) req.set(http::field::content_type, r.content_type);
    req.body() = r.body;
    req.prepare_payload();
  }
  co_await http::async_write(stream, req, asio::use_awaitable);
  beast::flat_buffer buf;
  http::response_parser<http::string_body> parser;
  parser.body_limit(r.body_limit);
  co_await http::async_read(stream, buf, parser, asio::use_awaitable);
  auto res = parser.release();
  GetResponse out;
  out.status = static_cast<int>(res.result_int());
  for (const auto& f : res) {
    std::string name(f.name_string().data(), f.name_string().size());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers.emplace_back(name, std::string(f.value().data(), f.value().size()));
  }
  out.body = std::move(res.body());
  co_return out;
}

// One request without redirects. Every step is asynchronous so the stream's deadline applies:
// Beast's synchronous calls ignore expires_after.
asio::awaitable<GetResponse> fetch_once(asio::io_context& io, Target t, const Call& r) {
  asio::ip::tcp::resolver resolver(io);
  const auto endpoints = co_await resolver.async_resolve(t.host, t.port, asio::use_awaitable);
  if (t.scheme == "https") {
    // The benchmark's own TLS set-up: one rule for every client (--ssl-ca-file, --insecure).
    auto ctx = make_client_tls_context(TransportOptions{r.ssl_ca_file, !r.verify_tls, {}, {}});
    if (!ctx) throw std::runtime_error(ctx.error().message);
    beast::ssl_stream<beast::tcp_stream> stream(io, **ctx);
    // SNI is for host names only (RFC 6066); an IP address is checked against the certificate.
    boost::system::error_code not_ip;
    asio::ip::make_address(t.host, not_ip);
    if (not_ip && !SSL_set_tlsext_host_name(stream.native_handle(), t.host.c_str()))
      throw std::runtime_error("cannot set TLS server name for " + t.host);
    if (r.verify_tls) stream.set_verify_callback(asio::ssl::host_name_verification(t.host));
    beast::get_lowest_layer(stream).expires_after(r.timeout);
    co_await beast::get_lowest_layer(stream).async_connect(endpoints, asio::use_awaitable);
    co_await stream.async_handshake(asio::ssl::stream_base::client, asio::use_awaitable);
    // No TLS shutdown: servers often close without close_notify, and the answer is complete.
    co_return co_await exchange(stream, t, r);
  }
  beast::tcp_stream stream(io);
  stream.expires_after(r.timeout);
  co_await stream.async_connect(endpoints, asio::use_awaitable);
  co_return co_await exchange(stream, t, r);
}

// Runs one call on its own io_context under the call's deadline (plus a second for the resolver,
// which has none of its own); `problem` says why when nothing came back.
std::optional<GetResponse> run_http_call(const Target& t, const Call& call, std::string& problem) {
  std::optional<GetResponse> got;
  asio::io_context io;
  asio::co_spawn(io, fetch_once(io, t, call), [&](std::exception_ptr e, GetResponse r) {
    if (!e) {
      got = std::move(r);
      return;
    }
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      problem = x.what();
    }
  });
  io.run_for(call.timeout + std::chrono::seconds(1));
  return got;
}

std::string http_no_answer_text(std::chrono::milliseconds timeout) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g", static_cast<double>(timeout.count()) / 1000.0);
  return std::string("no answer within ") + seconds + " s";
}

// What a GET and a POST share: headers, the deadline, TLS and the body limit.
template <typename Request>
Call call_settings(const Request& request) {
  Call call;
  call.headers = request.headers;
  call.timeout = request.timeout;
  call.verify_tls = request.verify_tls;
  call.ssl_ca_file = request.ssl_ca_file;
  call.body_limit = request.body_limit;
  return call;
}

// Why a call got no response, with a set proxy variable named (none is ever used).
std::string failure_text(std::string problem, std::chrono::milliseconds timeout) {
  if (problem.empty()) problem = http_no_answer_text(timeout);
  if (const std::string note = proxy_note(); !note.empty()) problem += " (" + note + ")";
  return problem;
}

}  // namespace

core::Result<GetResponse> http_post(const PostRequest& request) {
  auto t = split_url(request.url);
  if (!t) return t.error();
  Call call = call_settings(request);
  call.verb = request.method == "PUT" ? http::verb::put : http::verb::post;
  call.content_type = request.content_type;
  call.body = request.body;
  std::string problem;
  std::optional<GetResponse> got = run_http_call(*t, call, problem);
  if (!got) {
    return core::Error{core::ErrorKind::kNetwork, request.method + " " + request.url + ": " +
                                                      failure_text(problem, request.timeout)};
  }
  got->final_url = request.url;
  return std::move(*got);
}

core::Result<GetResponse> http_get(const GetRequest& original) {
  GetRequest request = original;
  std::string url = request.url;
  std::optional<Target> first;
  for (int hop = 0; hop <= request.max_redirects; ++hop) {
    auto t = split_url(url);
    if (!t) return t.error();
    if (!first) {
      first = *t;
    } else {
      if (first->scheme == "https" && t->scheme == "http") {
        return core::Error{core::ErrorKind::kNetwork,
                           "GET " + original.url + ": refusing a redirect from https to " + url};
      }
      // Credentials are for the origin they were given for (as curl and huggingface_hub do):
      // a redirect to another host, port or scheme goes without them.
      if (t->scheme != first->scheme || t->host != first->host || t->port != first->port) {
        // Every credential, not only Authorization: x-api-key and the like are keys too.
        std::erase_if(request.headers, [](const auto& h) { return core::is_secret_name(h.first); });
      }
    }
    const Call call = call_settings(request);
    std::string problem;
    std::optional<GetResponse> got = run_http_call(*t, call, problem);
    if (!got) {
      return core::Error{core::ErrorKind::kNetwork,
                         "GET " + url + ": " + failure_text(problem, request.timeout)};
    }
    GetResponse res = std::move(*got);
    res.final_url = url;
    if (res.status >= 300 && res.status < 400 && !res.header("location").empty()) {
      std::string loc = res.header("location");
      if (loc.rfind("http://", 0) != 0 && loc.rfind("https://", 0) != 0) {
        // Relative redirect: keep scheme and authority.
        const auto base_end = url.find('/', url.find("://") + 3);
        loc = (base_end == std::string::npos ? url : url.substr(0, base_end)) +
              (loc[0] == '/' ? "" : "/") + loc;
      }
      url = loc;
      continue;
    }
    return res;
  }
  return core::Error{core::ErrorKind::kNetwork, "too many redirects starting at " + request.url};
}

}  // namespace inferperf::transport
