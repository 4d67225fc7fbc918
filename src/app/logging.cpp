#include "app/logging.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <mutex>

#include "app/log_file_sink.hpp"
#include "core/secrets.hpp"

namespace inferperf::app {

namespace {

// %L-style level name, upper case and spelled out, as AIPerf's log lines have it.
class UpperLevelFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    auto sv = spdlog::level::to_string_view(msg.level);
    for (char c : sv)
      dest.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<UpperLevelFlag>();
  }
};

// The message with every URL's credentials removed (core::redact_urls): whatever a log call
// prints, "https://user:pass@host" or "?api_key=..." never reaches the console or the log file.
class RedactedMessageFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    const std::string_view text(msg.payload.data(), msg.payload.size());
    if (text.find("://") == std::string_view::npos) {
      dest.append(text.data(), text.data() + text.size());
      return;
    }
    const std::string redacted = core::redact_urls(text);
    dest.append(redacted.data(), redacted.data() + redacted.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<RedactedMessageFlag>();
  }
};

std::unique_ptr<spdlog::formatter> make_formatter() {
  auto f = std::make_unique<spdlog::pattern_formatter>();
  f->add_flag<UpperLevelFlag>('*').add_flag<RedactedMessageFlag>('q').set_pattern(
      "%Y-%m-%d %H:%M:%S.%e - %n - %* - %q");
  return f;
}

spdlog::level::level_enum parse_level(const std::string& l) {
  if (l == "TRACE") return spdlog::level::trace;
  if (l == "DEBUG") return spdlog::level::debug;
  if (l == "WARNING") return spdlog::level::warn;
  if (l == "ERROR") return spdlog::level::err;
  if (l == "CRITICAL") return spdlog::level::critical;
  return spdlog::level::info;  // INFO, NOTICE, SUCCESS
}

// The console sink: stderr, or a pane while a dashboard covers the terminal. The logger's sink
// list is never changed while other threads log (spdlog does not guard it); the switch happens
// inside this sink, under its own lock.
class ConsoleRouter final : public spdlog::sinks::sink {
 public:
  ConsoleRouter() : console_(std::make_shared<spdlog::sinks::stderr_color_sink_mt>()) {}
  void log(const spdlog::details::log_msg& msg) override {
    std::lock_guard lock(mu_);
    (pane_ ? *pane_ : *console_).log(msg);
  }
  void flush() override {
    std::lock_guard lock(mu_);
    (pane_ ? *pane_ : *console_).flush();
  }
  void set_pattern(const std::string& pattern) override { console_->set_pattern(pattern); }
  void set_formatter(std::unique_ptr<spdlog::formatter> f) override {
    console_->set_formatter(std::move(f));
  }
  void route(std::shared_ptr<spdlog::sinks::sink> pane) {
    if (pane) {
      pane->set_formatter(make_formatter());
      pane->set_level(spdlog::level::trace);  // this sink's own level filters first
    }
    std::lock_guard lock(mu_);
    pane_ = std::move(pane);
  }

 private:
  std::mutex mu_;
  std::shared_ptr<spdlog::sinks::sink> console_;
  std::shared_ptr<spdlog::sinks::sink> pane_;
};

std::shared_ptr<ConsoleRouter>& console_router() {
  static std::shared_ptr<ConsoleRouter> router;
  return router;
}

}  // namespace

void route_console_logging(std::shared_ptr<spdlog::sinks::sink> pane) {
  if (auto& router = console_router()) router->route(std::move(pane));
}

void init_console_logging(const std::string& level) {
  auto console = std::make_shared<ConsoleRouter>();
  console_router() = console;
  console->set_level(parse_level(level));
  auto logger = std::make_shared<spdlog::logger>("inferperf", console);
  logger->set_formatter(make_formatter());
  logger->set_level(spdlog::level::trace);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

void add_log_file(const std::filesystem::path& file) {
  // Unbuffered, with space set aside: a buffered file sink lost every line of a run that filled
  // its disk (its buffer was first written, and failed, once the disk was full).
  auto sink = std::make_shared<LogFileSink>(file);
  sink->set_level(spdlog::level::debug);
  sink->set_formatter(make_formatter());
  spdlog::default_logger()->sinks().push_back(sink);
}

}  // namespace inferperf::app
