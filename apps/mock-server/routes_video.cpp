// Video generation jobs (OpenAI /v1/videos): create, poll, download.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "multipart_form.hpp"
#include "routes.hpp"

namespace inferperf::mock {

std::optional<RouteError> parse_video_request(std::string_view body, VideoRequest& out,
                                              std::string_view content_type) {
  nlohmann::json j;
  if (is_multipart_form(content_type)) {
    // A form: every field is text; a file part (an input reference) is not read.
    std::vector<FormPart> parts;
    if (auto e = parse_multipart_form(content_type, body, parts))
      return route_error(400, "malformed multipart body: " + *e);
    j = nlohmann::json::object();
    for (const auto& p : parts) {
      if (!p.filename) j[p.name] = p.data;
    }
  } else {
    j = nlohmann::json::parse(body, nullptr, false);
  }
  if (j.is_discarded() || !j.is_object())
    return route_error(400, "request body is not a JSON object");
  const auto p = j.find("prompt");
  if (p == j.end() || !p->is_string()) return route_error(422, "'prompt' must be a string");
  out.prompt = p->get<std::string>();
  for (auto [key, field] : {std::pair{"model", &out.model}, std::pair{"size", &out.size},
                            std::pair{"quality", &out.quality}}) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_string()) return route_error(422, fmt::format("'{}' must be a string", key));
    *field = it->get<std::string>();
  }
  if (auto s = j.find("seconds"); s != j.end() && !s->is_null()) {
    if (s->is_string()) {
      out.seconds = s->get<std::string>();
    } else if (s->is_number_integer() && s->get<std::int64_t>() > 0) {
      out.seconds = std::to_string(s->get<std::int64_t>());
    } else {
      return route_error(422, "'seconds' must be a string or a positive integer");
    }
  }
  if (out.model.empty()) out.model = "sora-2";
  return std::nullopt;
}

std::string video_mp4_bytes() {
  // An ISO BMFF 'ftyp' box (isom, mp41) followed by an empty 'mdat' box.
  static const std::string kBytes(
      "\x00\x00\x00\x18"
      "ftypisom\x00\x00\x02\x00isommp41"
      "\x00\x00\x00\x08mdat",
      32);
  return kBytes;
}

std::string VideoJobs::create(const VideoRequest& r, Clock::time_point now, std::int64_t now_unix,
                              Clock::duration queue, Clock::duration run, bool fail) {
  std::lock_guard lock(mu_);
  Job j;
  j.id = fmt::format("video_{:016x}{:08x}", fnv1a(r.prompt, 0xcbf29ce484222325ULL ^ next_),
                     static_cast<std::uint32_t>(next_));
  ++next_;
  j.req = r;
  j.created = now;
  j.created_unix = now_unix;
  j.queue = queue;
  j.run = run;
  j.fail = fail;
  // The answer to POST is the job as queued, whatever its timing.
  std::string out = to_json(j, now - Clock::duration(1));
  order_.push_back(j.id);
  jobs_.emplace(j.id, std::move(j));
  if (order_.size() > 100000) {
    jobs_.erase(order_.front());
    order_.pop_front();
  }
  return out;
}

std::string VideoJobs::to_json(const Job& j, Clock::time_point now) {
  const auto elapsed = now - j.created;
  std::string status = "queued";
  int progress = 0;
  if (elapsed >= j.queue + j.run) {
    status = j.fail ? "failed" : "completed";
    progress = j.fail ? 0 : 100;
  } else if (elapsed >= j.queue) {
    status = "in_progress";
    const double f = j.run.count() > 0 ? std::chrono::duration<double>(elapsed - j.queue) /
                                             std::chrono::duration<double>(j.run)
                                       : 1.0;
    progress = std::clamp(static_cast<int>(f * 100.0), 0, 99);
  }
  const bool done = status == "completed" || status == "failed";
  const std::int64_t completed_at =
      j.created_unix +
      static_cast<std::int64_t>(std::ceil(std::chrono::duration<double>(j.queue + j.run).count()));
  const std::string completed = done ? std::to_string(completed_at) : "null";
  const std::string expires = status == "completed" ? std::to_string(completed_at + 3600) : "null";
  const std::string error =
      status == "failed"
          ? R"({"code":"video_generation_failed","message":"mock fault video-fail: the video job failed"})"
          : "null";
  return fmt::format(
      R"({{"id":"{}","object":"video","model":"{}","status":"{}","progress":{},"created_at":{},"completed_at":{},"expires_at":{},"seconds":"{}","size":"{}","quality":"{}","prompt":"{}","remixed_from_video_id":null,"error":{}}})",
      j.id, json_escape(j.req.model), status, progress, j.created_unix, completed, expires,
      json_escape(j.req.seconds), json_escape(j.req.size), json_escape(j.req.quality),
      json_escape(j.req.prompt), error);
}

std::optional<std::string> VideoJobs::get(std::string_view id, Clock::time_point now) const {
  std::lock_guard lock(mu_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  return to_json(it->second, now);
}

VideoJobs::ContentState VideoJobs::content(std::string_view id, Clock::time_point now) const {
  std::lock_guard lock(mu_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return ContentState::kUnknown;
  const Job& j = it->second;
  return !j.fail && now - j.created >= j.queue + j.run ? ContentState::kReady
                                                       : ContentState::kNotReady;
}

}  // namespace inferperf::mock
