#include "worker/video_download.hpp"

#include "transport/url.hpp"

namespace inferperf::worker {

// Not in an anonymous namespace: a coroutine's frame holds one, and GCC warns when a frame's
// field has internal linkage (-Wsubobject-linkage).
namespace video_detail {

// Keeps the status and counts the body; the video itself is not needed.
class VideoByteCounter final : public transport::ResponseSink {
 public:
  void on_headers(int status, std::string_view /*reason*/, std::string_view /*content_type*/,
                  core::MonoNs /*ts*/) override {
    status_ = status;
  }
  void on_body(std::string_view bytes, core::MonoNs /*ts*/, std::uint32_t /*read*/) override {
    bytes_ += bytes.size();
  }
  int status() const { return status_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  int status_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace video_detail

std::optional<std::string> video_content_path(const Target& target, std::string_view poll_path,
                                              std::string_view job_url) {
  if (job_url.starts_with("/")) return std::string(job_url);
  if (job_url.empty()) {
    const std::size_t q = poll_path.find('?');
    std::string path = std::string(poll_path.substr(0, q)) + "/content";
    if (q != std::string_view::npos) path += poll_path.substr(q);
    return path;
  }
  auto url = transport::parse_base_url(std::string(job_url));
  if (!url || url->scheme != target.url.scheme || url->host != target.url.host ||
      url->port != target.url.port) {
    return std::nullopt;
  }
  std::string path = url->base_path.empty() ? "/" : url->base_path;
  if (!url->query.empty()) path += "?" + url->query;
  return path;
}

boost::asio::awaitable<std::optional<records::ErrorInfo>> download_video(
    transport::ConnectionPool& pool, const std::string& request, const core::Clock& clock,
    transport::CancelHandle& cancel, std::uint64_t max_body_bytes, std::string_view job_id) {
  video_detail::VideoByteCounter counter;
  transport::ExchangeTimings t;
  transport::ExchangeRequest exchange{request};
  exchange.max_body_bytes = max_body_bytes;
  auto err = co_await transport::http_exchange(pool, exchange, counter, clock, t, cancel);
  if (err) co_return records::ErrorInfo{err->code, err->type, err->message};
  const int status = counter.status();
  if (status >= 200 && status < 300 && counter.bytes() > 0) co_return std::nullopt;
  const bool ok_status = status >= 200 && status < 300;
  co_return records::ErrorInfo{ok_status ? 500 : status,
                               core::RequestErrorType::from_name("VideoDownloadError"),
                               "Failed to download video " + std::string(job_id) + ": " +
                                   (ok_status ? std::string("no content returned")
                                              : "HTTP status " + std::to_string(status))};
}

}  // namespace inferperf::worker
