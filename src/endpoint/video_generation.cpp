// Video generation (/v1/videos): the POST creates a job; the worker polls GET /v1/videos/{id}
// until it completes or fails. Every answer decodes to the job's state.
#include <simdjson.h>

#include <cctype>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

std::optional<double> number(const simdjson::dom::object& o, std::string_view key) {
  double v = 0;
  if (o[key].get_double().get(v) == simdjson::SUCCESS) return v;
  std::int64_t i = 0;
  if (o[key].get_int64().get(i) == simdjson::SUCCESS) return static_cast<double>(i);
  return std::nullopt;
}

class VideoGenerationEndpoint final : public Endpoint {
 public:
  VideoGenerationEndpoint() : Endpoint(config::EndpointType::kVideoGeneration) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    nlohmann::ordered_json body;
    body["prompt"] = history.back().text;
    body["model"] = model_of(history, o);
    merge_extra(body, o);
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object obj;
    if (!parse_object(payload, parser, obj, out)) return out;
    VideoJob job;
    job.id = std::string(string_or_empty(obj, "id"));
    job.status = std::string(string_or_empty(obj, "status"));
    if (job.id.empty() || job.status.empty()) {
      if (auto e = error_message_of(obj)) return error_event(*e);
      return error_event("video job response without 'id' and 'status'");
    }
    // The id goes into the poll's request line: only path-safe characters.
    for (char ch : job.id) {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.') {
        return error_event("video job id '" + job.id.substr(0, 100) +
                           "' has characters a URL path cannot carry");
      }
    }
    job.url = std::string(string_or_empty(obj, "url"));
    job.progress = number(obj, "progress");
    job.inference_time_s = number(obj, "inference_time_s");
    job.peak_memory_mb = number(obj, "peak_memory_mb");
    if (job.status == "failed") {
      job.error = error_message_of(obj).value_or("video job failed");
      return error_event("video job " + job.id + " failed: " + job.error);
    }
    if (job.status != "queued" && job.status != "in_progress" && job.status != "completed") {
      // cancelled, expired, or anything unknown: the job will not complete.
      return error_event("video job " + job.id + " ended with status '" + job.status + "'");
    }
    out.kind = DecodedEvent::Kind::kData;
    if (job.status == "completed") out.outputs = 1;
    out.job = std::move(job);
    return out;
  }
};

}  // namespace

std::unique_ptr<Endpoint> make_video_generation_endpoint() {
  return std::make_unique<VideoGenerationEndpoint>();
}

}  // namespace inferperf::endpoint
