#include "app/profile/run_setup.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "app/exit_codes.hpp"
#include "app/http_policy.hpp"
#include "app/logging.hpp"
#include "app/profile/model_discovery.hpp"
#include "app/profile/model_readiness.hpp"
#include "app/profile/phase_plans.hpp"
#include "app/profile/preflight.hpp"
#include "app/profile/run_inputs.hpp"
#include "app/profile/server_info.hpp"
#include "app/tokenizer_setup.hpp"
#include "artifacts/artifact_folder.hpp"
#include "artifacts/inputs_json.hpp"
#include "artifacts/run_folder.hpp"
#include "core/byte_size.hpp"
#include "core/secrets.hpp"
#include "core/uuid.hpp"
#include "dataset/memory_estimate.hpp"
#include "report/exporters.hpp"
#include "report/format.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

StageStop stage_error(int exit_code, const core::Error& what) {
  return {exit_code, "error: " + core::redact_urls(what.describe()) + "\n"};
}

StageStop stage_stop(int exit_code, std::string message) {
  return {exit_code, std::move(message)};
}

int print_stage_stop(const StageStop& stop) {
  std::cerr << stop.message;
  return stop.exit_code;
}

namespace {

// The worker's connection sharing for --connection-reuse-strategy.
worker::ConnectionReuse worker_connection_reuse(config::ConnectionReuse r) {
  switch (r) {
    case config::ConnectionReuse::kNever:
      return worker::ConnectionReuse::kNever;
    case config::ConnectionReuse::kStickyUserSessions:
      return worker::ConnectionReuse::kStickyUserSessions;
    case config::ConnectionReuse::kPooled:
      break;
  }
  return worker::ConnectionReuse::kPooled;
}

// One target per --url: the request path, and what the run learns about that server.
std::vector<worker::Target> make_targets(const std::vector<transport::BaseUrl>& urls,
                                         const config::RunConfig& c,
                                         const endpoint::Endpoint& endpoint) {
  std::vector<worker::Target> out;
  for (const auto& u : urls) {
    worker::Target t{u, endpoint::join_path(u.base_path, c.endpoint.custom_endpoint,
                                            endpoint.path(c.endpoint.streaming))};
    if (!u.query.empty()) t.path += "?" + u.query;
    t.behaviour = std::make_shared<transport::ServerBehaviour>();
    t.behaviour->on_learned = [url = core::redact_urls(u.to_string())](const std::string& what) {
      // How the server behaves, handled: information, not a warning.
      spdlog::info("{}: {}", url, what);
    };
    out.push_back(std::move(t));
  }
  return out;
}

// Output names and folder: checked before anything is sent. Without --artifact-dir the leaf needs
// the model name, which may come from the server: its parent is checked now, the whole path once
// the model is known.
StageExit check_output_names(ProfileSetup& s) {
  std::string prefix_warning;
  if (const std::string e =
          artifacts::check_export_prefix(s.c.output.export_prefix, prefix_warning);
      !e.empty()) {
    return stage_stop(kExitBadConfig, "error: " + e + "\n");
  }
  if (!prefix_warning.empty()) spdlog::warn("{}", prefix_warning);
  s.names = artifacts::export_names(s.c.output.export_prefix);
  if (const std::string e = artifacts::check_artifact_folder(s.c.output.artifact_dir, s.names);
      !e.empty()) {
    return stage_stop(kExitBadConfig, "error: " + e + "\n");
  }
  return std::nullopt;
}

// The --url targets, and one client TLS context for every worker (and the model discovery) when
// any of them is https://.
StageExit open_targets(ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  for (const auto& u : c.endpoint.urls) {
    auto parsed = transport::parse_base_url(u);
    if (!parsed) {
      return stage_error(kExitBadConfig, parsed.error());
    }
    s.urls.push_back(std::move(*parsed));
  }
  s.http_policy = make_http_policy(c);
  s.plan.transport =
      transport::TransportOptions{c.endpoint.ssl_ca_file, s.http_policy.insecure,
                                  c.endpoint.unix_socket, c.endpoint.local_addresses};
  if (std::any_of(s.urls.begin(), s.urls.end(),
                  [](const auto& u) { return u.scheme == "https"; })) {
    if (s.http_policy.insecure)
      spdlog::warn("--insecure: TLS certificates and host names are not verified");
    auto made = transport::make_client_tls_context(s.plan.transport);
    if (!made) {
      return stage_error(kExitBadConfig, made.error());
    }
    s.plan.tls_context = std::move(*made);
  }
  return std::nullopt;
}

// The endpoint type's protocol, and the model: --model, else the first the server lists.
StageExit choose_endpoint_and_model(ProfileSetup& s) {
  config::RunConfig& c = s.c;
  auto created = endpoint::create_endpoint(c.endpoint.type, c.input.extra);
  if (!created) {
    return stage_error(kExitBadConfig, created.error());
  }
  s.endpoint = std::move(*created);
  const endpoint::EndpointInfo& info = s.info();
  // No default path: --endpoint gives it, or (as in AIPerf) the --url's own path.
  if (info.path[0] == '\0' && c.endpoint.custom_endpoint.empty() &&
      std::any_of(s.urls.begin(), s.urls.end(),
                  [](const auto& u) { return u.base_path.empty(); })) {
    return stage_stop(kExitBadConfig, "error: --endpoint-type " + std::string(info.name) +
                                          " has no default path; give the path with --endpoint "
                                          "or in --url\n");
  }
  if (c.endpoint.streaming && !info.streams) {
    spdlog::warn("--endpoint-type {} does not stream; --streaming is ignored", info.name);
    c.endpoint.streaming = false;
  }
  if (c.endpoint.model_names.empty()) {
    auto model =
        discover_model(s.urls.front(), static_cast<int>(s.http_policy.setup_timeout.count()),
                       s.plan.tls_context, c.endpoint.unix_socket, s.http_policy.credentials);
    if (!model) {
      return stage_error(kExitBadConfig, model.error());
    }
    spdlog::info("no --model given; using '{}' from {}/v1/models", *model,
                 s.urls.front().to_string());
    c.endpoint.model_names.push_back(*model);
  }
  return std::nullopt;
}

// Each request in flight holds a socket: a concurrency the descriptor limit cannot carry is
// refused up front rather than failing requests mid-run.
StageExit check_fd_limit(const ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  const std::int64_t needed_fds = static_cast<std::int64_t>(c.load.concurrency.value_or(0)) + 64;
  if (c.load.concurrency && s.fds.soft > 0 && needed_fds > static_cast<std::int64_t>(s.fds.soft)) {
    return stage_stop(
        kExitBadConfig,
        fmt::format(
            "error: concurrency {} needs about {} file descriptors but the limit is {} (hard limit "
            "{}); "
            "raise it with 'ulimit -n'\n",
            *c.load.concurrency, needed_fds, s.fds.soft, s.fds.hard));
  }
  return std::nullopt;
}

// Telemetry set-up can fail on bad input (a custom metrics CSV): before any artifact is written.
StageExit set_up_run_telemetry(ProfileSetup& s) {
  auto tel = setup_telemetry(s.c, s.urls, s.clock);
  if (!tel) {
    return stage_error(kExitBadConfig, tel.error());
  }
  s.tel = std::move(*tel);
  return std::nullopt;
}

// The tokenizer: resolved and loaded before anything is sent.
StageExit load_profile_tokenizer(ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  // With server token counts a tokenizer is still loaded when one is named: trace prompts are
  // then synthesized exactly for the served model's vocabulary.
  // Endpoints that neither produce tokens nor send text (image retrieval) need no tokenizer.
  const bool needs_tokenizer = s.info().produces_tokens || s.info().tokenizes_input;
  if (!needs_tokenizer || (c.endpoint.use_server_token_count && c.tokenizer.name.empty()))
    return std::nullopt;
  auto loaded = load_run_tokenizer(c);
  if (!loaded) {
    return stage_error(kExitBadConfig, loaded.error());
  }
  if (!loaded->notice.empty()) spdlog::info("{}", loaded->notice);
  s.tok = std::move(loaded->tokenizer);
  s.tokenizer_file = loaded->file;
  if (!c.endpoint.use_server_token_count) s.token_source = "tokenizer " + loaded->description;
  spdlog::info("tokenizer: {} ({} tokens)", loaded->description, s.tok->vocab_size());
  return std::nullopt;
}

// The benchmark id and the dataset: bad input exits 2 before any artifact exists.
StageExit prepare_profile_dataset(ProfileSetup& s) {
  config::RunConfig& c = s.c;
  auto id_rng = s.rngs.stream("run.benchmark_id");
  s.benchmark_id = c.input.random_seed ? core::uuid4(id_rng) : core::uuid4();
  auto prepared = prepare_dataset(c, s.rngs, s.tok.get());
  if (!prepared) {
    return stage_error(kExitBadConfig, prepared.error());
  }
  s.prepared = std::move(*prepared);
  if (s.prepared->promoted_fixed_schedule) {
    // The defaults validation added for a closed-loop run do not apply to a replay.
    c.load.fixed_schedule = true;
    if (!c.set_options.count("--concurrency")) c.load.concurrency.reset();
    if (!c.set_options.count("--request-count")) c.load.request_count.reset();
  }
  if (const std::string e = shard_problem(c); !e.empty()) {
    return stage_stop(kExitBadConfig, "error: " + e + "\n");
  }
  return std::nullopt;
}

// What every request is built from: targets, headers, body options and limits.
void build_request_plan(ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  endpoint::BodyOptions bo;
  bo.model = c.endpoint.model_names.front();
  bo.streaming = c.endpoint.streaming;
  // As AIPerf 0.11: every streaming run asks for usage, so the server's counts are recorded beside
  // the client's (--no-stream-usage for servers that reject stream_options).
  bo.include_usage = !c.endpoint.no_stream_usage;
  bo.use_legacy_max_tokens = c.endpoint.use_legacy_max_tokens;
  bo.extra = &c.input.extra;
  bo.system_message = s.ds().system_message;

  worker::RequestPlan& plan = s.plan;
  plan.targets = make_targets(s.urls, c, *s.endpoint);
  plan.headers = c.input.headers;
  plan.session_header = c.endpoint.session_header;
  for (auto& h : endpoint::protocol_headers(c.endpoint.type, c.endpoint.api_key, c.input.headers))
    plan.headers.push_back(std::move(h));
  plan.streaming = c.endpoint.streaming;
  plan.request_timeout_s = c.endpoint.request_timeout_s;
  plan.endpoint = s.endpoint.get();
  plan.dataset = &s.ds();
  plan.body_options = bo;
  plan.connection_reuse = worker_connection_reuse(c.endpoint.connection_reuse);
  plan.capture_raw = c.output.export_level == config::ExportLevel::kRaw;
  plan.max_response_bytes = c.limits.max_response_bytes;
  plan.max_sse_event_bytes = c.limits.max_sse_event_bytes;
  plan.multipart =
      config::effective_content_type(c.endpoint.type, c.endpoint.request_content_type) ==
      config::RequestContentType::kMultipartFormData;
  plan.download_video_content = c.endpoint.download_video_content;
  if (const char* poll = std::getenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL")) {
    const double s_poll = std::atof(poll);
    if (s_poll > 0) plan.video_poll_interval_s = s_poll;
  }
}

// The artifact folder's path, now that the model is known, then the preflight request: both pass
// before anything is written.
StageExit choose_folder_and_preflight(ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  s.artifact_dir = c.output.artifact_dir;
  if (!c.output.artifact_dir_explicit) {
    s.artifact_dir /= artifact_leaf(c);
    if (const std::string e = artifacts::check_artifact_folder(s.artifact_dir, s.names);
        !e.empty()) {
      return stage_stop(kExitBadConfig, "error: " + e + "\n");
    }
  }
  // Shards of one benchmark share the folder: each writes its own shard-<i> inside it.
  if (c.shard.sharded()) s.artifact_dir /= fmt::format("shard-{}", c.shard.index);

  if (c.endpoint.preflight && !s.ds().conversations.empty()) {
    const PreflightResult pf = run_preflight(s.plan, c.endpoint.wait_for_model_timeout_s);
    if (!pf.ok) {
      return stage_stop(kExitRunFailed,
                        "error: preflight failed: " + core::redact_urls(pf.message) +
                            "\n(the run was not started; --no-preflight skips this check)\n");
    }
    if (!pf.message.empty()) spdlog::warn("{}", pf.message);
  }
  return std::nullopt;
}

void log_inputs_written(const InputsJsonWriter& w, const artifacts::InputsJsonStats& st) {
  spdlog::info("inputs.json: {} payloads of {} conversations ({:.1f} MB{})", st.payloads,
               st.conversations, static_cast<double>(st.bytes) / 1e6,
               w.background() ? fmt::format(", written beside the run in {:.1f} s", w.seconds())
                              : std::string());
}

// inputs.json: the first-turn bodies the workers send are built now; the file, when the folder
// has room for it, is written beside the run (a large one on a background thread) and finished by
// finish_run_inputs.
StageExit start_run_inputs(ProfileSetup& s) {
  prebuild_first_bodies(s.ds(), s.plan);
  const fs::path path = s.artifact_dir / artifacts::kInputsFileName;
  const std::uint64_t estimate =
      inputs_json_size_estimate(s.ds(), dataset::bytes_per_token(s.tok.get()));
  if (const std::string problem =
          inputs_json_room_problem(path, estimate, artifacts::free_bytes_at(s.artifact_dir));
      !problem.empty()) {
    spdlog::warn("{}", problem);
    return std::nullopt;
  }
  // The space is taken now, before the records can take it.
  auto reserved = artifacts::reserve_inputs_json(path, estimate);
  if (!reserved && reserved.error().message.rfind(artifacts::kInputsNoRoom, 0) == 0) {
    spdlog::warn("{} is not written: {}", path.string(), reserved.error().message);
    return std::nullopt;
  }
  if (!reserved) return stage_error(kExitRunFailed, reserved.error());
  const bool background = estimate > inputs_json_background_bytes();
  s.inputs_writer = std::make_unique<InputsJsonWriter>(path, s.ds(), s.plan, *reserved, background);
  if (background) {
    spdlog::info("inputs.json: about {} of {} conversations, written beside the run",
                 core::format_byte_size(estimate), s.ds().conversations.size());
    return std::nullopt;
  }
  const auto& done = s.inputs_writer->finish();
  if (!done) return stage_error(kExitRunFailed, done.error());
  log_inputs_written(*s.inputs_writer, done.value());
  s.inputs_writer.reset();
  return std::nullopt;
}

// server_info.json: what answered, asked once before the run, at most kServerInfoBudgetS.
void record_server_info(const ProfileSetup& s) {
  constexpr double kServerInfoBudgetS = 3.0;
  if (s.urls.empty()) return;
  nlohmann::ordered_json info = {
      {"url", core::redact_urls(s.urls.front().to_string())},
      {"probed_at", report::local_iso8601(core::WallAnchor::capture().wall_ns)}};
  try {
    info.update(probe_server_info(s.plan, kServerInfoBudgetS));
  } catch (const std::exception& e) {  // a server's odd answer never stops the run
    info["error"] = std::string("the probe stopped: ") + e.what();
  }
  const auto written =
      report::write_atomically(s.artifact_dir / artifacts::kServerInfoFileName, info.dump(2));
  if (!written) spdlog::warn("{}", written.error().describe());
  spdlog::info("server: {} ({})", server_info_summary(info), artifacts::kServerInfoFileName);
}

// The artifact folder: only once the inputs are known to be good. It gets the log file,
// server_info.json and inputs.json.
StageExit create_artifact_folder(ProfileSetup& s, fs::path* artifact_dir_out) {
  std::error_code ec;
  fs::create_directories(s.artifact_dir / artifacts::kLogsFolderName, ec);
  if (ec) {
    std::ostringstream message;  // the folder quoted, as a path streams
    message << "error: cannot create artifact folder " << s.artifact_dir << ": " << ec.message()
            << "\n";
    return stage_stop(kExitBadConfig, message.str());
  }
  s.artifact_dir = fs::absolute(s.artifact_dir);
  if (artifact_dir_out) *artifact_dir_out = s.artifact_dir;
  add_log_file(s.artifact_dir / artifacts::kLogsFolderName / artifacts::kLogFileName);
  std::vector<std::string> url_names;
  for (const auto& u : s.urls) url_names.push_back(u.to_string());
  spdlog::info("{} -> {}", s.c.cli_command, fmt::join(url_names, ", "));
  record_server_info(s);
  return start_run_inputs(s);
}

}  // namespace

StageExit set_up_profile(ProfileSetup& s, fs::path* artifact_dir_out) {
  if (const StageExit e = check_output_names(s)) return e;
  if (const StageExit e = open_targets(s)) return e;
  if (const StageExit e = wait_for_model_readiness(s)) return e;
  if (const StageExit e = choose_endpoint_and_model(s)) return e;
  if (const StageExit e = check_fd_limit(s)) return e;
  if (const StageExit e = set_up_run_telemetry(s)) return e;
  if (const StageExit e = load_profile_tokenizer(s)) return e;
  if (const StageExit e = prepare_profile_dataset(s)) return e;
  build_request_plan(s);
  if (const StageExit e = choose_folder_and_preflight(s)) return e;
  return create_artifact_folder(s, artifact_dir_out);
}

bool finish_run_inputs(ProfileSetup& s) {
  if (!s.inputs_writer) return true;
  const auto& done = s.inputs_writer->finish();
  if (!done) {
    // Said as the write before the run said it; the run's own results stand.
    spdlog::error("{}", core::redact_urls(done.error().describe()));
    return false;
  }
  log_inputs_written(*s.inputs_writer, done.value());
  return true;
}

}  // namespace inferperf::app
