#include "media/inspect.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
}

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace inferperf::media {
namespace {

// The bytes being read and the read position: FFmpeg pulls them through insp_read/insp_seek.
struct InspectSource {
  std::string_view bytes;
  std::size_t pos = 0;
};

int insp_read(void* opaque, std::uint8_t* buf, int size) {
  auto* s = static_cast<InspectSource*>(opaque);
  const std::size_t n =
      std::min<std::size_t>(static_cast<std::size_t>(size), s->bytes.size() - s->pos);
  if (n == 0) return AVERROR_EOF;
  std::memcpy(buf, s->bytes.data() + s->pos, n);
  s->pos += n;
  return static_cast<int>(n);
}

std::int64_t insp_seek(void* opaque, std::int64_t offset, int whence) {
  auto* s = static_cast<InspectSource*>(opaque);
  const auto size = static_cast<std::int64_t>(s->bytes.size());
  if (whence == AVSEEK_SIZE) return size;
  std::int64_t to = offset;
  switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET:
      break;
    case SEEK_CUR:
      to += static_cast<std::int64_t>(s->pos);
      break;
    case SEEK_END:
      to += size;
      break;
    default:
      return -1;
  }
  if (to < 0 || to > size) return -1;
  s->pos = static_cast<std::size_t>(to);
  return to;
}

struct InspIoDeleter {
  void operator()(AVIOContext* io) const {
    if (io != nullptr) av_freep(&io->buffer);
    avio_context_free(&io);
  }
};
struct InspFormatDeleter {
  void operator()(AVFormatContext* f) const { avformat_close_input(&f); }
};
struct InspCodecDeleter {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct InspPacketDeleter {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct InspFrameDeleter {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
using InspCodec = std::unique_ptr<AVCodecContext, InspCodecDeleter>;

core::Error inspect_error(std::string message) {
  return core::Error{core::ErrorKind::kInput, std::move(message), "", 0, ""};
}

std::string av_message(int err) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(err, text, sizeof text);
  return text;
}

// The demuxer's name as the file type a request declares: png, jpeg, wav, mp3, webm, mp4.
std::string container_name(const AVFormatContext& f, std::string_view bytes) {
  const std::string name = f.iformat->name;
  if (name == "png_pipe") return "png";
  if (name == "jpeg_pipe") return "jpeg";
  if (name.starts_with("matroska")) {
    // The EBML header's DocType tells WebM from other Matroska files.
    return bytes.substr(0, 64).find("webm") != std::string_view::npos ? "webm" : "matroska";
  }
  if (name.starts_with("mov,")) return "mp4";
  return name;
}

// One decoder per stream (null for streams that are neither audio nor video).
core::Result<std::vector<InspCodec>> open_decoders(const AVFormatContext& f) {
  std::vector<InspCodec> out(f.nb_streams);
  for (unsigned i = 0; i < f.nb_streams; ++i) {
    const AVCodecParameters* par = f.streams[i]->codecpar;
    if (par->codec_type != AVMEDIA_TYPE_VIDEO && par->codec_type != AVMEDIA_TYPE_AUDIO) continue;
    const AVCodec* dec = avcodec_find_decoder(par->codec_id);
    if (dec == nullptr)
      return inspect_error(std::string("no decoder for ") + avcodec_get_name(par->codec_id));
    InspCodec c(avcodec_alloc_context3(dec));
    if (!c || avcodec_parameters_to_context(c.get(), par) < 0)
      return inspect_error("cannot set up a decoder");
    c->thread_count = 1;
    if (int err = avcodec_open2(c.get(), dec, nullptr); err < 0)
      return inspect_error(std::string("cannot open the ") + dec->name +
                           " decoder: " + av_message(err));
    out[i] = std::move(c);
  }
  return out;
}

// Counts of what one stream decoded to.
struct InspTally {
  std::int64_t frames = 0;   // video frames
  std::int64_t samples = 0;  // audio samples per channel
};

// Sends `pkt` (null = flush) to the decoder and drains it; an error is a corrupt stream.
std::optional<std::string> insp_decode(AVCodecContext& c, const AVPacket* pkt, AVFrame& frame,
                                       InspTally& t) {
  if (int err = avcodec_send_packet(&c, pkt); err < 0 && err != AVERROR_EOF)
    return std::string(c.codec->name) + " stream does not decode: " + av_message(err);
  for (;;) {
    const int err = avcodec_receive_frame(&c, &frame);
    if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return std::nullopt;
    if (err < 0) return std::string(c.codec->name) + " stream does not decode: " + av_message(err);
    if (c.codec_type == AVMEDIA_TYPE_VIDEO)
      ++t.frames;
    else
      t.samples += frame.nb_samples;
    av_frame_unref(&frame);
  }
}

double frame_rate(const AVStream& s) {
  AVRational r = s.avg_frame_rate.num > 0 ? s.avg_frame_rate : s.r_frame_rate;
  return r.num > 0 && r.den > 0 ? av_q2d(r) : 0.0;
}

// The first video stream (or the audio stream of an audio file) describes the file; a video's
// audio track adds its codec, rate and channels.
void describe(const AVFormatContext& f, const std::vector<InspTally>& tallies, MediaInfo& info) {
  int video = -1, audio = -1;
  for (unsigned i = 0; i < f.nb_streams; ++i) {
    const auto type = f.streams[i]->codecpar->codec_type;
    if (type == AVMEDIA_TYPE_VIDEO && video < 0) video = static_cast<int>(i);
    if (type == AVMEDIA_TYPE_AUDIO && audio < 0) audio = static_cast<int>(i);
  }
  if (audio >= 0) {
    const AVCodecParameters* a = f.streams[audio]->codecpar;
    info.sample_rate = a->sample_rate;
    info.channels = a->ch_layout.nb_channels;
    if (video < 0) {
      info.codec = avcodec_get_name(a->codec_id);
      info.bits = av_get_exact_bits_per_sample(a->codec_id);
      info.duration_s =
          a->sample_rate > 0 ? static_cast<double>(tallies[audio].samples) / a->sample_rate : 0.0;
    } else {
      info.audio_codec = avcodec_get_name(a->codec_id);
    }
  }
  if (video >= 0) {
    const AVCodecParameters* v = f.streams[video]->codecpar;
    info.codec = avcodec_get_name(v->codec_id);
    info.width = v->width;
    info.height = v->height;
    info.frames = static_cast<int>(tallies[video].frames);
    const double fps = frame_rate(*f.streams[video]);
    info.duration_s = fps > 0 ? info.frames / fps : 0.0;
  }
}

}  // namespace

core::Result<MediaInfo> inspect_media(std::string_view bytes) {
  static const bool quiet = [] {
    av_log_set_level(AV_LOG_QUIET);  // a bad file is reported by the caller, not on stderr
    return true;
  }();
  (void)quiet;
  if (bytes.empty()) return inspect_error("empty media");
  InspectSource src{bytes};
  constexpr int kBuffer = 32 * 1024;
  auto* buf = static_cast<std::uint8_t*>(av_malloc(kBuffer));
  std::unique_ptr<AVIOContext, InspIoDeleter> io(
      avio_alloc_context(buf, kBuffer, 0, &src, insp_read, nullptr, insp_seek));
  if (!io) {
    av_free(buf);
    return inspect_error("out of memory");
  }
  AVFormatContext* raw = avformat_alloc_context();
  raw->pb = io.get();
  raw->flags |= AVFMT_FLAG_CUSTOM_IO;
  if (int err = avformat_open_input(&raw, nullptr, nullptr, nullptr); err < 0)
    return inspect_error("not a media file FFmpeg reads: " + av_message(err));  // frees `raw`
  std::unique_ptr<AVFormatContext, InspFormatDeleter> f(raw);
  if (int err = avformat_find_stream_info(f.get(), nullptr); err < 0)
    return inspect_error("unreadable streams: " + av_message(err));
  auto decoders = open_decoders(*f);
  if (!decoders) return decoders.error();
  std::vector<InspTally> tallies(f->nb_streams);
  std::unique_ptr<AVPacket, InspPacketDeleter> pkt(av_packet_alloc());
  std::unique_ptr<AVFrame, InspFrameDeleter> frame(av_frame_alloc());
  for (int err; (err = av_read_frame(f.get(), pkt.get())) != AVERROR_EOF;) {
    if (err < 0) return inspect_error("corrupt media: " + av_message(err));
    const auto i = static_cast<std::size_t>(pkt->stream_index);
    std::optional<std::string> bad;
    if (i < decoders->size() && (*decoders)[i])
      bad = insp_decode(*(*decoders)[i], pkt.get(), *frame, tallies[i]);
    av_packet_unref(pkt.get());
    if (bad) return inspect_error(*bad);
  }
  for (std::size_t i = 0; i < decoders->size(); ++i) {
    if (!(*decoders)[i]) continue;
    if (auto bad = insp_decode(*(*decoders)[i], nullptr, *frame, tallies[i]))
      return inspect_error(*bad);
  }
  MediaInfo info;
  info.container = container_name(*f, bytes);
  describe(*f, tallies, info);
  if (info.container == "png" || info.container == "jpeg") {
    if (info.frames != 1) return inspect_error(info.container + " image does not decode");
    info.duration_s = 0;  // a still picture has no length
  }
  return info;
}

}  // namespace inferperf::media
