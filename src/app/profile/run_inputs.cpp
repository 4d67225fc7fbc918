#include "app/profile/run_inputs.hpp"

#include <spdlog/spdlog.h>

#include <fmt/format.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "app/profile/input_config.hpp"
#include "core/byte_size.hpp"
#include "core/env_int.hpp"
#include "core/secrets.hpp"

namespace inferperf::app {

namespace {

// Whether conversation `conv`'s first body is built once, before the run (not assembled per
// request from hash-id blocks).
bool run_inputs_first_body_kept(const dataset::Conversation& conv) {
  return !conv.turns.empty() && !conv.turns[0].synthesized && conv.turns[0].segments.empty();
}

// Escapes and the indentation of nested values, over a text's own bytes.
constexpr double kRunInputsTextFactor = 1.1;
// Each body's fields beside its texts (model, role, max tokens, stream options, --extra-inputs)
// and the entry's session id and brackets, with their indentation.
constexpr double kRunInputsPerPayload = 1024.0;
// A JSON value's own line in the indented document: its indentation, quotes, key and comma.
constexpr double kRunInputsPerNode = 32.0;

double run_inputs_json_bytes(const nlohmann::ordered_json& j) {
  double n = kRunInputsPerNode;
  if (j.is_string()) return n + kRunInputsTextFactor * j.get_ref<const std::string&>().size();
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      n += static_cast<double>(it.key().size()) + run_inputs_json_bytes(it.value());
  } else if (j.is_array()) {
    for (const auto& v : j) n += run_inputs_json_bytes(v);
  }
  return n;
}

double run_inputs_json_bytes(const dataset::JsonPtr& p) {
  return p ? run_inputs_json_bytes(*p) : 0.0;
}

double run_inputs_turn_bytes(const dataset::Turn& t, double bytes_per_token) {
  double text = static_cast<double>(t.text.size());
  for (const auto& s : t.more_texts) text += static_cast<double>(s.size());
  for (const auto& s : t.passages) text += static_cast<double>(s.size());
  for (const auto& m : t.media) text += static_cast<double>(m.url.size() + m.audio_data.size());
  text += bytes_per_token * t.known_input_tokens();
  if (t.synthesized) text += static_cast<double>(t.synthesized->tail.size());
  for (const auto& s : t.segments) text += static_cast<double>(s.prompt.tail.size()) + 64.0;
  return kRunInputsTextFactor * text + run_inputs_json_bytes(t.messages) +
         run_inputs_json_bytes(t.tools) + run_inputs_json_bytes(t.payload) +
         run_inputs_json_bytes(t.extra);
}

}  // namespace

void prebuild_first_bodies(const dataset::Dataset& ds, worker::RequestPlan& plan) {
  plan.bodies.assign(ds.conversations.size(), std::string());
  for (std::size_t i = 0; i < ds.conversations.size(); ++i) {
    const auto& conv = ds.conversations[i];
    if (!run_inputs_first_body_kept(conv)) continue;
    const dataset::Turn turn = dataset::materialize(ds, conv.turns[0]);
    plan.bodies[i] = worker::build_body(plan, conv, {turn})
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

artifacts::InputsEntry run_inputs_entry(const dataset::Dataset& ds, const worker::RequestPlan& plan,
                                        std::size_t i) {
  const std::vector<std::string> secret_keys = plan.body_options.extra
                                                   ? secret_extra_keys(*plan.body_options.extra)
                                                   : std::vector<std::string>{};
  const auto& conv = ds.conversations[i];
  artifacts::InputsEntry entry;
  entry.session_id = conv.session_id;
  for (const auto& t : conv.turns) {
    const dataset::Turn turn = dataset::materialize(ds, t);
    auto body = worker::build_body(plan, conv, {turn});
    // A credential given with --extra-inputs is sent, never written to the artifact folder.
    for (const auto& key : secret_keys) {
      if (body.is_object() && body.contains(key)) body[key] = std::string(core::kRedacted);
    }
    entry.payloads.push_back(std::move(body));
  }
  return entry;
}

std::uint64_t inputs_json_size_estimate(const dataset::Dataset& ds, double bytes_per_token) {
  double n = 64;
  const double system = kRunInputsTextFactor * static_cast<double>(ds.system_message.size());
  for (const auto& conv : ds.conversations) {
    n += 64.0 + static_cast<double>(conv.session_id.size());
    const double context = kRunInputsTextFactor * static_cast<double>(conv.user_context.size());
    for (const auto& t : conv.turns)
      n += kRunInputsPerPayload + system + context + run_inputs_turn_bytes(t, bytes_per_token);
  }
  return static_cast<std::uint64_t>(n);
}

std::uint64_t inputs_json_background_bytes() {
  const core::EnvInt n = core::env_int("INFERPERF_TEST_INPUTS_JSON_BACKGROUND_BYTES", 0, INT64_MAX);
  return n.valid() ? static_cast<std::uint64_t>(n.value) : kInputsJsonBackgroundBytes;
}

std::string inputs_json_room_problem(const std::filesystem::path& path, std::uint64_t estimate,
                                     std::optional<std::uint64_t> free_bytes) {
  if (!free_bytes || estimate <= *free_bytes / 2) return {};
  return fmt::format(
      "{} is not written: it would take about {} and {} has {} free (it is written only when it "
      "takes at most half, so the records and exports keep room); `inferperf analyze` of this "
      "folder works unless the run is interrupted",
      path.string(), core::format_byte_size(estimate), path.parent_path().string(),
      core::format_byte_size(*free_bytes));
}

InputsJsonWriter::InputsJsonWriter(std::filesystem::path path, const dataset::Dataset& ds,
                                   const worker::RequestPlan& plan, bool reserved, bool background)
    : path_(std::move(path)), ds_(ds), plan_(plan), reserved_(reserved), background_(background) {
  if (!background) {
    write();
    return;
  }
  // The thread starts with SIGINT and SIGTERM blocked, as the run's signal watcher wants of every
  // thread but its own; the caller's mask is put back at once.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  thread_ = std::thread([this] {
    // The lowest CPU priority: the writer takes only what the run leaves (failure is harmless).
    setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 19);
    try {
      write();
    } catch (const std::exception& e) {  // on this thread it would end the process
      std::error_code ec;
      std::filesystem::remove(path_.string() + ".tmp", ec);  // never a partial file left
      result_.emplace(core::Error{core::ErrorKind::kIo, std::string("cannot be built: ") + e.what(),
                                  path_.string(), 0, ""});
    }
  });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

InputsJsonWriter::~InputsJsonWriter() {
  cancel_.store(true);
  if (thread_.joinable()) thread_.join();
}

void InputsJsonWriter::write() {
  const auto t0 = std::chrono::steady_clock::now();
  artifacts::InputsJsonWrite how;
  how.reserved = reserved_;
  how.cancel = &cancel_;
  result_.emplace(artifacts::write_inputs_json(
      path_, ds_.conversations.size(),
      [this](std::size_t i) { return run_inputs_entry(ds_, plan_, i); }, how));
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  written_.store(true);
}

const core::Result<artifacts::InputsJsonStats>& InputsJsonWriter::finish() {
  // The requests are done; a large file may still take a while at nice 19: say why the wait.
  if (thread_.joinable() && !written_.load())
    spdlog::info("the requests are done; waiting for {} to be written", path_.filename().string());
  if (thread_.joinable()) thread_.join();
  return *result_;
}

}  // namespace inferperf::app
