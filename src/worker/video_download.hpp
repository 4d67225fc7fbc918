// video_generation --download-video-content: once a job completes, its video is fetched within
// the same request, so the download counts in the request latency (AIPerf 0.11). The bytes are
// counted, not kept.
#pragma once
#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "records/request_record.hpp"
#include "worker/request_plan.hpp"

namespace inferperf::worker {

// The request path of a finished job's video: the job's `url` when it is a path or an http(s) URL
// on the target's own origin, else the poll path + "/content" (the target's query kept). nullopt
// when the url points at another server, which the run's connections do not reach.
std::optional<std::string> video_content_path(const Target& target, std::string_view poll_path,
                                              std::string_view job_url);

// GETs the video with `request` on `pool`. nullopt when a 2xx answer with a body came; otherwise
// the error the record carries: the exchange's own (timeout, cancellation, connection), or
// VideoDownloadError with the HTTP status (or 500) for an answer without a video.
boost::asio::awaitable<std::optional<records::ErrorInfo>> download_video(
    transport::ConnectionPool& pool, const std::string& request, const core::Clock& clock,
    transport::CancelHandle& cancel, std::uint64_t max_body_bytes, std::string_view job_id);

}  // namespace inferperf::worker
