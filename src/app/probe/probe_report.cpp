#include "app/probe/probe_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <ostream>

#include "endpoint/endpoint.hpp"

namespace inferperf::app {

namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json opt(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json text_or_null(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

Json endpoint_json(const EndpointFinding& e) {
  if (!e.tested) return nullptr;
  return {{"ok", e.ok},
          {"status", e.status},
          {"error", text_or_null(e.problem)},
          {"legacy_max_tokens", e.legacy_max_tokens},
          {"prompt_tokens", opt(e.prompt_tokens)}};
}

Json streaming_json(const StreamFinding& s) {
  if (!s.tested) return nullptr;
  return {{"ok", s.ok},
          {"status", s.status},
          {"error", text_or_null(s.problem)},
          {"usage", s.usage},
          {"stream_options_rejected", s.stream_options_rejected},
          {"content_events", s.content_events},
          {"completion_tokens", opt(s.completion_tokens)},
          {"tokens_per_event", opt(s.tokens_per_event)},
          {"timings", s.timings}};
}

// One finding: a label column, then the text.
void line(std::ostream& out, const std::string& label, const std::string& text) {
  out << fmt::format("{:<16}{}\n", label, text);
}

std::string endpoint_text(const EndpointFinding& e) {
  if (!e.tested) return "not probed (--endpoint-type)";
  if (!e.ok) return "not served: " + e.problem;
  return fmt::format("ok (HTTP {})", e.status) +
         (e.legacy_max_tokens ? "; refuses max_completion_tokens, accepts max_tokens" : "");
}

std::string streaming_text(const ProbeFindings& f) {
  const StreamFinding& s = f.streaming;
  if (!s.ok) return "failed: " + s.problem;
  std::string t = fmt::format("ok on {}", endpoint::endpoint_info(*f.served).name);
  if (s.stream_options_rejected)
    t += "; refused stream_options (answered without it): use --no-stream-usage";
  else
    t += s.usage ? "; usage in the stream" : "; no usage in the stream";
  if (s.tokens_per_event) {
    t += fmt::format("; {} content events for {} tokens = {:.1f} tokens per event",
                     s.content_events, *s.completion_tokens, *s.tokens_per_event);
    if (*s.tokens_per_event > 1.05)
      t += " (more than 1: speculative decoding, or the server batches tokens into events)";
  } else {
    t += fmt::format("; {} content events", s.content_events);
  }
  t += s.timings ? "; llama.cpp timings stamped" : "; no llama.cpp timings";
  return t;
}

void connection_lines(std::ostream& out, const ProbeFindings& f) {
  const bool both =
      f.closes_after_stream.value_or(false) && f.closes_after_response.value_or(false);
  if (f.closes_after_stream) {
    line(out, "connection",
         *f.closes_after_stream
             ? std::string(both ? "closes the connection after every response"
                                : "closes the connection after streamed responses (llama.cpp's "
                                  "server does)") +
                   "; inferperf handles it: a request that meets the closed connection is sent "
                   "again on a new one and counted, no flag needed"
             : "keeps the connection after streamed responses");
  }
  if (f.closes_after_response && !both)
    line(out, f.closes_after_stream ? "" : "connection",
         *f.closes_after_response ? "closes the connection after non-streamed responses"
                                  : "keeps the connection after non-streamed responses");
}

std::string length_text(const char* what, const LengthFinding& l, int n, bool at_most) {
  if (!l.honoured)
    return fmt::format("{} unknown ({})", what, l.problem.empty() ? "no usage" : l.problem);
  if (!l.completion_tokens) return fmt::format("{} refused ({})", what, l.problem);
  return fmt::format("{} {} ({} tokens for {}{})", what, *l.honoured ? "honoured" : "NOT honoured",
                     *l.completion_tokens, at_most ? "at most " : "", n);
}

void length_lines(std::ostream& out, const ProbeFindings& f) {
  line(out, "output length", length_text("ignore_eos", f.ignore_eos, 12, false));
  line(out, "", length_text("min_tokens", f.min_tokens, 12, false));
  line(out, "", length_text("max tokens", f.max_tokens, 5, true));
  if (!f.ignore_eos.honoured.value_or(false) && !f.min_tokens.honoured.value_or(false))
    line(out, "", "neither ignore_eos nor min_tokens is honoured: output lengths will vary");
}

std::string offset_of(const std::optional<std::int64_t>& n) {
  return n ? fmt::format("{:+d}", *n) : std::string("?");
}

std::string offset_text(const ProbeFindings& f) {
  if (!f.tokenizer_loaded)
    return f.tokenizer.empty() ? "unknown (no usage.prompt_tokens)"
                               : "unknown: " + f.tokenizer + " (pass --tokenizer)";
  std::vector<std::string> parts;
  if (f.chat.offset) parts.push_back(offset_of(f.chat.offset) + " prompt tokens for chat");
  if (f.completions.offset) parts.push_back(offset_of(f.completions.offset) + " for completions");
  if (parts.empty()) parts.push_back(offset_of(f.cache_offset) + " prompt tokens");
  std::string t = fmt::format(
      "the server counts {} (BOS / chat template; client tokenizer {}); inferperf's token-count "
      "check learns this offset",
      fmt::join(parts, ", "), f.tokenizer);
  if (f.offset_constant == false)
    t += fmt::format(
        "; a ~300-token prompt gave {} instead: the tokenizers differ, pass "
        "--tokenizer with the model's own",
        offset_of(f.cache_offset));
  return t;
}

std::string cache_text(const ProbeFindings& f) {
  if (!f.cache_problem.empty() && !f.cached_repeat) return "unknown: " + f.cache_problem;
  if (!f.cached_repeat) return "unknown";
  if (*f.cached_repeat > 0)
    return fmt::format(
        "the repeated prompt had {} of {} prompt tokens cached ({})", *f.cached_repeat,
        f.cache_prompt_tokens ? std::to_string(*f.cache_prompt_tokens) : "?", f.cache_source);
  return fmt::format("the repeated prompt had no cached tokens ({})", f.cache_source);
}

}  // namespace

Json probe_json(const ProbeFindings& f) {
  Json j;
  j["url"] = f.url;
  j["models"] = f.models;
  j["models_error"] = text_or_null(f.models_problem);
  j["model"] = text_or_null(f.model);
  j["endpoint_type"] = f.served ? Json(endpoint::endpoint_info(*f.served).name) : Json(nullptr);
  j["endpoints"] = {{"chat", endpoint_json(f.chat)}, {"completions", endpoint_json(f.completions)}};
  j["streaming"] = streaming_json(f.streaming);
  j["connection"] = {{"closes_after_stream", opt(f.closes_after_stream)},
                     {"closes_after_response", opt(f.closes_after_response)},
                     {"connection_retries", f.connection_retries}};
  j["output_length"] = {{"ignore_eos", opt(f.ignore_eos.honoured)},
                        {"min_tokens", opt(f.min_tokens.honoured)},
                        {"max_tokens", opt(f.max_tokens.honoured)},
                        {"completion_tokens",
                         {{"ignore_eos", opt(f.ignore_eos.completion_tokens)},
                          {"min_tokens", opt(f.min_tokens.completion_tokens)},
                          {"max_tokens", opt(f.max_tokens.completion_tokens)}}}};
  j["prompt_offset"] = {{"chat", opt(f.chat.offset)},
                        {"completions", opt(f.completions.offset)},
                        {"long_prompt", opt(f.cache_offset)},
                        {"constant", opt(f.offset_constant)},
                        {"tokenizer", text_or_null(f.tokenizer)}};
  j["prefix_cache"] = {{"cached_tokens", opt(f.cached_repeat)},
                       {"first_cached_tokens", opt(f.cached_first)},
                       {"prompt_tokens", opt(f.cache_prompt_tokens)},
                       {"source", text_or_null(f.cache_source)},
                       {"error", text_or_null(f.cache_problem)}};
  j["requests"] = f.requests;
  j["seconds"] = std::round(f.seconds * 1000) / 1000;
  j["suggested_flags"] = f.suggested_flags;
  return j;
}

void print_probe_report(std::ostream& out, const ProbeFindings& f) {
  out << fmt::format("inferperf probe {}: {} requests in {:.2f} s\n", f.url, f.requests, f.seconds);
  std::string models =
      f.models.empty() ? "none listed" : fmt::format("{}", fmt::join(f.models, ", "));
  if (!f.models_problem.empty()) models += " (" + f.models_problem + ")";
  models += f.model.empty() ? "; no model: pass -m" : "; probing with " + f.model;
  line(out, "models", models);
  line(out, "chat", endpoint_text(f.chat));
  line(out, "completions", endpoint_text(f.completions));
  if (!f.served) {
    line(out, "", "no endpoint answered: the other checks were skipped");
  } else {
    line(out, "streaming", streaming_text(f));
    connection_lines(out, f);
    length_lines(out, f);
    line(out, "prompt tokens", offset_text(f));
    line(out, "prefix cache", cache_text(f));
  }
  line(out, "suggested flags",
       f.suggested_flags.empty() ? "none" : fmt::format("{}", fmt::join(f.suggested_flags, " ")));
}

}  // namespace inferperf::app
