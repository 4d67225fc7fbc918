// The kind of a failed request. Code compares kinds; every export names an error by AIPerf's
// exception class name ("ServerDisconnectedError", ...), so the names are written only where
// records and error summaries are exported, and parsed back where records are read from a file.
// In core, not records: the transport (below records) produces most of them.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace inferperf::core {

enum class RequestErrorKind {
  kServerDisconnected,      // the connection closed before a response head
  kConnectionRefused,       // connect() refused
  kConnectionReset,         // the peer reset the connection
  kClientConnection,        // any other socket failure
  kClientPayload,           // a body cut short, or a response that is not HTTP
  kTimeout,                 // --request-timeout-seconds (or a probe's deadline)
  kSslCertVerification,     // the server's certificate did not verify
  kSsl,                     // any other TLS handshake failure
  kResponseTooLarge,        // over --max-response-bytes
  kRequestCancellation,     // --request-cancellation-rate, or the run stopping
  kSseEventTooLarge,        // one SSE event over --max-sse-event-bytes
  kSseResponse,             // the server sent an SSE error event
  kResponseParse,           // the endpoint could not decode the response
  kInvalidInferenceResult,  // a complete response without content
  kRequestBuild,            // the request body could not be built
  kHttp,                    // a non-200 answer; named by its reason phrase when it has one
  kUnexpected,              // an exception outside the exchange (probe, model discovery)
  kOther,                   // a name read back from a file that no kind above has
};

namespace detail {
inline constexpr std::array<std::pair<RequestErrorKind, std::string_view>, 17> kRequestErrorNames{{
    {RequestErrorKind::kServerDisconnected, "ServerDisconnectedError"},
    {RequestErrorKind::kConnectionRefused, "ConnectionRefusedError"},
    {RequestErrorKind::kConnectionReset, "ConnectionResetError"},
    {RequestErrorKind::kClientConnection, "ClientConnectionError"},
    {RequestErrorKind::kClientPayload, "ClientPayloadError"},
    {RequestErrorKind::kTimeout, "TimeoutError"},
    {RequestErrorKind::kSslCertVerification, "SSLCertVerificationError"},
    {RequestErrorKind::kSsl, "SSLError"},
    {RequestErrorKind::kResponseTooLarge, "ResponseTooLargeError"},
    {RequestErrorKind::kRequestCancellation, "RequestCancellationError"},
    {RequestErrorKind::kSseEventTooLarge, "SSEEventTooLargeError"},
    {RequestErrorKind::kSseResponse, "SSEResponseError"},
    {RequestErrorKind::kResponseParse, "ResponseParseError"},
    {RequestErrorKind::kInvalidInferenceResult, "InvalidInferenceResultError"},
    {RequestErrorKind::kRequestBuild, "RequestBuildError"},
    {RequestErrorKind::kHttp, "HTTPError"},
    {RequestErrorKind::kUnexpected, "Error"},
}};
}  // namespace detail

// AIPerf's class name for `kind`; "" for kOther, which has none of its own.
constexpr std::string_view aiperf_name(RequestErrorKind kind) {
  for (const auto& [k, name] : detail::kRequestErrorNames)
    if (k == kind) return name;
  return {};
}

// The kind AIPerf's class name `name` stands for; nullopt when no kind has it.
constexpr std::optional<RequestErrorKind> request_error_kind_from_name(std::string_view name) {
  for (const auto& [k, n] : detail::kRequestErrorNames)
    if (n == name) return k;
  return std::nullopt;
}

// A failed request's kind and the name its exports give it: the kind's own name, or a name kept
// as received, which no kind can spell: an HTTP reason phrase ("Not Found"), or (kOther) an
// unknown name read back from a file. Default-constructed: kOther, named "".
class RequestErrorType {
 public:
  RequestErrorType() = default;
  RequestErrorType(RequestErrorKind kind) : kind_(kind) {}  // NOLINT(google-explicit-constructor)

  // A non-200 answer: named by its reason phrase, or "HTTPError" without one.
  static RequestErrorType http(std::string reason) {
    RequestErrorType t(RequestErrorKind::kHttp);
    t.name_ = std::move(reason);
    return t;
  }
  // A name read back from a file: its kind, or kOther keeping the name.
  static RequestErrorType from_name(std::string_view name) {
    if (auto kind = request_error_kind_from_name(name)) return {*kind};
    RequestErrorType t;
    t.name_ = std::string(name);
    return t;
  }

  RequestErrorKind kind() const { return kind_; }
  bool is(RequestErrorKind kind) const { return kind_ == kind; }
  // The exported name, the only place the kind becomes a string.
  std::string_view name() const { return name_.empty() ? aiperf_name(kind_) : name_; }

 private:
  RequestErrorKind kind_ = RequestErrorKind::kOther;
  std::string name_;  // empty: the kind's own name
};

}  // namespace inferperf::core
