#include "app/profile/model_readiness.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "app/exit_codes.hpp"
#include "core/secrets.hpp"
#include "core/uuid.hpp"
#include "core/version.hpp"
#include "transport/http_exchange.hpp"
#include "worker/request_plan.hpp"

namespace inferperf::app {

namespace {

namespace asio = boost::asio;
using ReadinessClock = std::chrono::steady_clock;

constexpr std::size_t kReadinessBodyLimit = 4u << 20;  // a model list is a few KB

// Keeps the head (for the web-server rule) and the body (for the model list).
class ReadinessSink final : public transport::ResponseSink {
 public:
  explicit ReadinessSink(ReadinessAnswer& a) : a_(a) {}
  void on_header_fields(std::string_view fields) override {
    const std::string lower = [&] {
      std::string s(fields);
      for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return s;
    }();
    const std::size_t at = lower.find("server:");
    if (at != std::string::npos && (at == 0 || lower[at - 1] == '\n')) {
      std::string_view v = fields.substr(at + 7);
      v = v.substr(0, v.find('\n'));
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == '\r' || v.back() == ' ')) v.remove_suffix(1);
      a_.head.server = std::string(v);
    }
  }
  void on_headers(int status, std::string_view reason, std::string_view content_type,
                  core::MonoNs) override {
    a_.head.status = status;
    a_.head.reason = std::string(reason);
    a_.head.content_type = std::string(content_type);
  }
  void on_body(std::string_view bytes, core::MonoNs, std::uint32_t) override {
    a_.head.body_bytes += bytes.size();
    if (a_.head.body_start.size() < kAnswerBodyKept)
      a_.head.body_start.append(bytes.substr(0, kAnswerBodyKept - a_.head.body_start.size()));
    if (a_.body.size() < kReadinessBodyLimit)
      a_.body.append(bytes.substr(0, kReadinessBodyLimit - a_.body.size()));
  }

 private:
  ReadinessAnswer& a_;
};

// One request on a fresh connection, with the run's TLS context, socket and source addresses.
ReadinessAnswer readiness_exchange(const ProfileSetup& s, const transport::BaseUrl& url,
                                   const std::string& request, double timeout_s) {
  ReadinessAnswer a;
  asio::io_context io;
  core::SteadyClock clock;
  transport::ConnectionPool pool(io.get_executor(), url, s.plan.tls_context,
                                 s.plan.transport.unix_socket);
  pool.set_reuse(false);
  pool.set_local_addresses(s.plan.transport.local_addresses);
  ReadinessSink sink(a);
  transport::CancelHandle cancel;
  asio::steady_timer timer(io);
  timer.expires_after(std::chrono::milliseconds(static_cast<std::int64_t>(timeout_s * 1000)));
  timer.async_wait([&](const boost::system::error_code& ec) {
    if (!ec)
      cancel.cancel(core::RequestErrorKind::kTimeout,
                    fmt::format("no answer within {:.1f} s", timeout_s), {});
  });
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        transport::ExchangeTimings t;
        transport::ExchangeRequest exchange{request};
        const auto e = co_await transport::http_exchange(pool, exchange, sink, clock, t, cancel);
        timer.cancel();
        if (e && a.head.status == 0) a.error = std::string(e->type.name()) + ": " + e->message;
        pool.close_all();
      },
      asio::detached);
  io.run();
  return a;
}

std::string readiness_get(const transport::BaseUrl& url, const std::string& path,
                          const transport::HeaderList& headers) {
  std::string r = "GET " + path + " HTTP/1.1\r\nHost: " + url.host_header() +
                  "\r\nUser-Agent: inferperf/" + kVersion +
                  "\r\nAccept: application/json\r\nConnection: close\r\n";
  for (const auto& [name, value] : headers) r += name + ": " + value + "\r\n";
  return r + "\r\n";
}

std::string readiness_models_path(const transport::BaseUrl& url) {
  return url.base_path.ends_with("/v1") ? url.base_path + "/models" : url.base_path + "/v1/models";
}

// What an answer was, for the log and the timeout message.
std::string readiness_describe(const ReadinessAnswer& a, const std::string& where) {
  if (a.head.status == 0) return "cannot reach " + where + ": " + a.error;
  return where + " answered " + describe_answer(a.head);
}

// One (URL, model) pair's probes under the shared deadline.
struct ReadinessPair {
  const transport::BaseUrl* url = nullptr;
  std::string model;  // "" without -m
  std::string inference_request, inference_where;
};

struct ReadinessRun {
  const ProfileSetup& s;
  config::ReadinessMode mode;
  transport::HeaderList headers;
  ReadinessClock::time_point deadline;
  double timeout_s = 0;
};

double readiness_left_s(const ReadinessRun& run) {
  return std::chrono::duration<double>(run.deadline - ReadinessClock::now()).count();
}

// Probes one pair until ready; the stop when it never is.
StageExit readiness_wait_pair(const ReadinessRun& run, const ReadinessPair& p) {
  const transport::BaseUrl& url = *p.url;
  const std::string base = core::redact_urls(url.to_string());
  const bool models_first = run.mode != config::ReadinessMode::kInference || p.model.empty();
  ReadinessStep step = models_first ? ReadinessStep::kModels : ReadinessStep::kInference;
  const std::string shown = p.model.empty() ? std::string("(any)") : "'" + p.model + "'";
  std::string last;
  for (int attempt = 1;; ++attempt) {
    const double per_try =
        std::min(run.s.c.endpoint.request_timeout_s, std::max(1.0, readiness_left_s(run)));
    std::string where;
    ReadinessAnswer a;
    if (step == ReadinessStep::kInference) {
      where = p.inference_where;
      a = readiness_exchange(run.s, url, p.inference_request, per_try);
    } else {
      const std::string path = step == ReadinessStep::kModels
                                   ? readiness_models_path(url)
                                   : (url.base_path.empty() ? "/" : url.base_path);
      where = base + (step == ReadinessStep::kModels ? path.substr(url.base_path.size()) : "");
      a = readiness_exchange(run.s, url, readiness_get(url, path, run.headers), per_try);
    }
    const ReadinessVerdict v = judge_readiness(step, a, p.model);
    last = readiness_describe(a, where);
    spdlog::info("waiting for model {} at {} (--wait-for-model-mode {}): attempt {}: {}", shown,
                 base, config::to_string(run.mode), attempt, last);
    if (v == ReadinessVerdict::kGiveUp) {
      return stage_stop(kExitRunFailed,
                        fmt::format("error: preflight failed: {} answered like a web server, not "
                                    "an LLM API: {} (check --url and --endpoint; is the LLM "
                                    "server running on this port?)\n(the run was not started)\n",
                                    where, describe_answer(a.head)));
    }
    if (v == ReadinessVerdict::kFallBack) {
      step = ReadinessStep::kBaseUrl;
      --attempt;  // the fallback belongs to the same attempt
      continue;
    }
    if (v == ReadinessVerdict::kReady) {
      const bool then_inference = step != ReadinessStep::kInference &&
                                  run.mode == config::ReadinessMode::kBoth && !p.model.empty();
      if (!then_inference) break;
      step = ReadinessStep::kInference;
      continue;
    }
    if (step == ReadinessStep::kBaseUrl) step = ReadinessStep::kModels;
    const double left = readiness_left_s(run);
    if (left <= 0) {
      return stage_stop(
          kExitRunFailed,
          fmt::format("error: timed out waiting for model {} at {}: not ready within {} s "
                      "(--wait-for-model-timeout, --wait-for-model-mode {}); {} attempt(s), the "
                      "last: {}\n(the run was not started)\n",
                      shown, base, run.timeout_s, config::to_string(run.mode), attempt,
                      core::redact_urls(last)));
    }
    const double pause = std::min(run.s.c.readiness.interval_s, left);
    std::this_thread::sleep_for(std::chrono::duration<double>(pause));
  }
  spdlog::info("model {} at {} is ready", shown, base);
  return std::nullopt;
}

}  // namespace

bool model_listed(const std::string& body, const std::string& model) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object()) return false;
  const auto data = j.find("data");
  if (data == j.end() || !data->is_array()) return false;
  for (const auto& m : *data) {
    if (!m.is_object()) continue;
    const auto id = m.find("id");
    if (id == m.end() || !id->is_string()) continue;
    if (model.empty() || id->get<std::string>() == model) return true;
  }
  return false;
}

ReadinessVerdict judge_readiness(ReadinessStep step, const ReadinessAnswer& a,
                                 const std::string& model) {
  const int status = a.head.status;
  switch (step) {
    case ReadinessStep::kModels:
      if (status == 404) return ReadinessVerdict::kFallBack;
      return transport::is_success_status(status) && model_listed(a.body, model)
                 ? ReadinessVerdict::kReady
                 : ReadinessVerdict::kRetry;
    case ReadinessStep::kBaseUrl:
      return transport::is_success_status(status) ? ReadinessVerdict::kReady
                                                  : ReadinessVerdict::kRetry;
    case ReadinessStep::kInference:
      break;
  }
  if (status == 0) return ReadinessVerdict::kRetry;
  if (answered_like_web_server(a.head)) return ReadinessVerdict::kGiveUp;
  return status < 500 ? ReadinessVerdict::kReady : ReadinessVerdict::kRetry;
}

nlohmann::ordered_json readiness_body(const endpoint::Endpoint& endpoint, const std::string& model,
                                      bool legacy_max_tokens) {
  const config::EndpointType type = endpoint.info().type;
  if (type == config::EndpointType::kChat) {
    return {
        {"messages", {{{"role", "user"}, {"content", "Lo"}}}}, {"max_tokens", 1}, {"model", model}};
  }
  if (type == config::EndpointType::kCompletions)
    return {{"prompt", "Lo"}, {"max_tokens", 1}, {"model", model}};
  dataset::Turn turn;
  turn.text = "Lo";
  turn.passages = {"Lo"};  // rankings endpoints need one passage; the others ignore it
  endpoint::BodyOptions options;
  options.model = model;
  options.use_legacy_max_tokens = legacy_max_tokens;
  nlohmann::ordered_json body = endpoint::build_request_body(endpoint, {turn}, options);
  if (body.is_object()) endpoint::set_output_limit(body, type, legacy_max_tokens, 1, true);
  return body;
}

StageExit wait_for_model_readiness(const ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  if (!(c.endpoint.wait_for_model_timeout_s > 0)) return std::nullopt;
  auto created = endpoint::create_endpoint(c.endpoint.type, c.input.extra);
  // A bad endpoint type or a missing path is refused by the next stage, with its own message.
  if (!created) return std::nullopt;
  const endpoint::Endpoint& ep = **created;
  const std::string ep_path = ep.path(c.endpoint.streaming);
  if (ep_path.empty() && c.endpoint.custom_endpoint.empty()) return std::nullopt;

  ReadinessRun run{s, c.readiness.mode, c.input.headers, {}, c.endpoint.wait_for_model_timeout_s};
  for (auto& h : endpoint::protocol_headers(c.endpoint.type, c.endpoint.api_key, c.input.headers))
    run.headers.push_back(std::move(h));
  run.deadline =
      ReadinessClock::now() +
      std::chrono::milliseconds(static_cast<std::int64_t>(std::min(run.timeout_s, 1e7) * 1000));
  std::vector<std::string> models = c.endpoint.model_names;
  if (models.empty()) models.emplace_back();
  worker::RequestPlan marked;  // the run's headers; marked as the preflight is
  marked.headers = run.headers;
  marked.headers.emplace_back("X-Inferperf-Preflight", "1");
  marked.session_header = c.endpoint.session_header;
  for (const auto& url : s.urls) {
    worker::Target target{url,
                          endpoint::join_path(url.base_path, c.endpoint.custom_endpoint, ep_path)};
    if (!url.query.empty()) target.path += "?" + url.query;
    for (const auto& model : models) {
      ReadinessPair p{
          &url, model, "",
          core::redact_urls(url.to_string()) + target.path.substr(0, target.path.find('?'))};
      if (!model.empty()) {
        const std::string body =
            readiness_body(ep, model, c.endpoint.use_legacy_max_tokens)
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        p.inference_request =
            worker::serialize_request(marked, target, body, core::uuid4(), core::uuid4());
      }
      if (StageExit e = readiness_wait_pair(run, p)) return e;
    }
  }
  return std::nullopt;
}

}  // namespace inferperf::app
