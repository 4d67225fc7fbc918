// Turns the timestamped body bytes of one exchange into the record's events: SSE framing, endpoint
// decoding, HTTP errors. Runs on the worker thread after each read has been stamped.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "endpoint/chunk_scan.hpp"
#include "endpoint/endpoint.hpp"
#include "records/request_record.hpp"
#include "sse/sse_parser.hpp"
#include "transport/http_exchange.hpp"

namespace inferperf::worker {

class ResponseCollector final : public transport::ResponseSink {
 public:
  // When record.raw is set (--export-level raw) the exchange is also kept there as received.
  ResponseCollector(const endpoint::Endpoint& endpoint, records::RequestRecord& record)
      : endpoint_(endpoint), record_(record) {
    if (record_.raw) sse_.keep_fields(true);
  }

  // Whether the reply is kept for a session's next turn (tool_calls() and
  // text_without_tool_arguments()); on unless turned off. The worker turns it off for a request
  // no later turn reads (a single turn, a session's last, a dataset that sends its own replies):
  // that is every request of most runs, and keeping it cost a copy of each event's text and a
  // merge of its tool-call fragments.
  void keep_reply(bool keep) { keep_reply_ = keep; }
  // --max-sse-event-bytes: an SSE event larger than this ends the exchange as an error record
  // (SSEEventTooLargeError) and its connection is closed; 0 = no cap.
  void max_sse_event_bytes(std::size_t n) {
    max_sse_event_bytes_ = n;
    sse_.max_event_bytes(n);
  }

  void on_header_fields(std::string_view fields) override;
  // The response's header lines are kept only in a raw record (--export-level raw).
  bool wants_header_fields() const override { return record_.raw != nullptr; }
  void on_headers(int status, std::string_view reason, std::string_view content_type,
                  core::MonoNs ts) override;
  void on_body(std::string_view bytes, core::MonoNs ts, std::uint32_t read_index) override;
  bool wants_more() const override { return !failed_; }
  // Called on the first content (or reasoning) event: the request's prefill is over.
  std::function<void()> on_first_content;
  // The response's non-reasoning text so far (a multi-turn session's assistant reply).
  std::string content_text() const;
  // The tool calls the response made (endpoint/tool_calls.hpp), and its text without their
  // arguments: what a session's history carries of the reply.
  const std::vector<endpoint::ToolCallDelta>& tool_calls() const { return tool_calls_; }
  const std::string& text_without_tool_arguments() const { return plain_text_; }
  // video_generation: the job state of the latest response, if any.
  const std::optional<endpoint::VideoJob>& job() const { return job_; }
  // Starts a new exchange of the same request (a video job poll): the HTTP state is reset, what
  // was recorded stays.
  void restart();
  // Called once the exchange ended without a transport error.
  void finish(core::MonoNs end_ns);
  // With record.raw: adds a non-streaming body (whole, any status) to the raw responses. Called
  // once at the end of the exchange, after finish() and also after a transport error.
  void finish_raw(core::MonoNs end_ns);

 private:
  void keep_raw(sse::SseEvent& e, core::MonoNs ts);
  void handle_event(const sse::SseEvent& e, core::MonoNs ts, std::uint32_t read_index);
  void handle_payload(std::string_view payload, core::MonoNs ts, std::uint32_t read_index);
  void fail(std::optional<int> code, core::RequestErrorType type, std::string message);

  const endpoint::Endpoint& endpoint_;
  records::RequestRecord& record_;
  sse::SseParser sse_;
  endpoint::ChunkMemo chunk_memo_;  // the stream's chunk frame (endpoint/chunk_scan.hpp)
  std::size_t max_sse_event_bytes_ = 0;
  std::vector<sse::SseEvent> events_;
  bool sse_mode_ = false;
  bool failed_ = false;
  bool keep_reply_ = true;
  std::string reason_;
  std::string body_;  // non-SSE body (success or error text)
  // --export-level raw only: the non-SSE body and its content type, kept whole.
  std::string raw_text_;
  std::string raw_content_type_;
  core::MonoNs headers_ts_ = 0;
  core::MonoNs last_ts_ = 0;
  std::uint32_t last_read_ = 0;
  // Tool calls by index, as they accumulate over deltas, and the content without their
  // arguments.
  std::vector<endpoint::ToolCallDelta> tool_calls_;
  std::string plain_text_;
  std::optional<endpoint::VideoJob> job_;
};

}  // namespace inferperf::worker
