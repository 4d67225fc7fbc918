// The checks of `inferperf probe` and what they found (probe_command.cpp prints it).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/probe/probe_command.hpp"
#include "app/probe/probe_session.hpp"

namespace inferperf::app {

struct EndpointFinding {
  bool tested = false;
  bool ok = false;
  int status = 0;                  // 0: no HTTP answer
  std::string problem;             // why not ok
  bool legacy_max_tokens = false;  // max_completion_tokens was refused, max_tokens worked
  std::optional<std::int64_t> prompt_tokens;  // the server's usage.prompt_tokens
  std::string prompt;                         // what was sent, to count with the client tokenizer
  std::optional<std::int64_t> offset;         // prompt_tokens - client count
};

struct StreamFinding {
  bool tested = false;
  bool ok = false;
  int status = 0;
  std::string problem;
  bool stream_options_rejected = false;  // refused with stream_options, answered without
  bool usage = false;                    // the stream carried usage
  std::int64_t content_events = 0;
  std::optional<std::int64_t> completion_tokens;
  std::optional<double> tokens_per_event;
  bool timings = false;  // llama.cpp-style `timings` were decoded
};

struct LengthFinding {
  std::optional<bool> honoured;  // nullopt: not measured (no usage, not sent)
  std::optional<std::int64_t> completion_tokens;
  std::string problem;  // the request failed (the field may have been refused)
};

struct ProbeFindings {
  std::string url;
  std::vector<std::string> models;
  std::string models_problem;
  std::string model;
  std::optional<config::EndpointType> served;  // the endpoint the later checks use
  EndpointFinding chat;
  EndpointFinding completions;
  StreamFinding streaming;
  std::optional<bool> closes_after_stream;
  std::optional<bool> closes_after_response;
  std::int64_t connection_retries = 0;
  LengthFinding ignore_eos;  // max 12 + ignore_eos: exactly 12?
  LengthFinding min_tokens;  // max 12 + min_tokens 12: exactly 12?
  LengthFinding max_tokens;  // max 5: at most 5?
  // The ~300-token prompt sent twice: offsets and cached tokens of each send.
  std::string cache_prompt;
  std::optional<std::int64_t> cache_prompt_tokens;
  std::optional<std::int64_t> cache_offset;
  std::optional<std::int64_t> cached_first;
  std::optional<std::int64_t> cached_repeat;
  std::string cache_source;  // "usage.prompt_tokens_details" or "timings.cache_n"
  std::string cache_problem;
  std::optional<bool> offset_constant;  // the same offset for a short and a long prompt
  std::string tokenizer;                // the client tokenizer's description, or why none
  bool tokenizer_loaded = false;
  int requests = 0;
  double seconds = 0;
  std::vector<std::string> suggested_flags;
};

// Sends the probe's requests (at most kProbeMaxRequests) and fills everything but the offsets and
// the suggestions. nullopt with `unreachable` set when the first request got no HTTP answer.
std::optional<ProbeFindings> run_probe_requests(const ProbeOptions& o,
                                                const transport::BaseUrl& url,
                                                ProbeSession& session, std::string& unreachable);

// Counts the prompts sent with the run's tokenizer and sets the offsets (the server's
// prompt_tokens minus the client's count); leaves them unset when no tokenizer loads.
void measure_prompt_offsets(const ProbeOptions& o, ProbeFindings& f);

// The inferperf flags the findings call for.
std::vector<std::string> suggest_flags(const ProbeOptions& o, const ProbeFindings& f);

}  // namespace inferperf::app
