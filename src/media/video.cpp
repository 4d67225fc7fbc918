// Synthetic videos encoded entirely in memory with libavformat/libavcodec: frames from
// video_frames.cpp converted to yuv420p, an optional noise audio track, a std::string as the file.
#include "media/video.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "media/audio.hpp"

namespace inferperf::media {

namespace {

// ---- Owning handles: every FFmpeg object is freed on every path -------------------------------

struct VidDeleter {
  void operator()(AVFormatContext* p) const { avformat_free_context(p); }
  void operator()(AVCodecContext* p) const { avcodec_free_context(&p); }
  void operator()(AVFrame* p) const { av_frame_free(&p); }
  void operator()(AVPacket* p) const { av_packet_free(&p); }
  void operator()(SwsContext* p) const { sws_freeContext(p); }
  void operator()(SwrContext* p) const { swr_free(&p); }
  void operator()(AVAudioFifo* p) const { av_audio_fifo_free(p); }
  void operator()(AVDictionary* p) const { av_dict_free(&p); }
  void operator()(AVIOContext* p) const {
    if (p != nullptr) av_freep(&p->buffer);
    avio_context_free(&p);
  }
};
template <typename T>
using VidPtr = std::unique_ptr<T, VidDeleter>;

// FFmpeg logs to stderr by default; the terminal belongs to the benchmark's own output, and every
// failure that matters comes back as an error value.
void vid_quiet_logs() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_QUIET); });
}

std::string vid_av_error(int code) {
  std::array<char, AV_ERROR_MAX_STRING_SIZE> text{};
  av_strerror(code, text.data(), text.size());
  return text.data();
}

core::Error vid_error(core::ErrorKind kind, std::string message) {
  return core::Error{kind, "video encoding: " + std::move(message), ""};
}

core::Error vid_run_error(const std::string& what, int code) {
  return vid_error(core::ErrorKind::kRun, what + ": " + vid_av_error(code));
}

// ---- The in-memory file -----------------------------------------------------------------------
// Seekable, so the webm muxer can go back for its cues and sizes and the mp4 muxer can move its
// index to the front. Moving the index makes the mp4 muxer reopen "the file" for reading through
// AVFormatContext::io_open; the read cursor lives here as only one reader is ever open.

struct VidFile {
  std::string bytes;
  std::size_t write_pos = 0;
  std::size_t read_pos = 0;
};

constexpr int kVidIoBufferSize = 1 << 16;

// FFmpeg 6.1 made the write callback's buffer const.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
using VidWriteBuf = const std::uint8_t*;
#else
using VidWriteBuf = std::uint8_t*;
#endif

int vid_file_write(void* opaque, VidWriteBuf buf, int size) {
  auto* f = static_cast<VidFile*>(opaque);
  const auto n = static_cast<std::size_t>(size);
  if (f->write_pos + n > f->bytes.size()) f->bytes.resize(f->write_pos + n);
  std::memcpy(f->bytes.data() + f->write_pos, buf, n);
  f->write_pos += n;
  return size;
}

int vid_file_read(void* opaque, std::uint8_t* buf, int size) {
  auto* f = static_cast<VidFile*>(opaque);
  const std::size_t left = f->bytes.size() - std::min(f->read_pos, f->bytes.size());
  const std::size_t n = std::min(left, static_cast<std::size_t>(size));
  if (n == 0) return AVERROR_EOF;
  std::memcpy(buf, f->bytes.data() + f->read_pos, n);
  f->read_pos += n;
  return static_cast<int>(n);
}

std::int64_t vid_seek_cursor(const VidFile& f, std::size_t& cursor, std::int64_t offset,
                             int whence) {
  const auto size = static_cast<std::int64_t>(f.bytes.size());
  if ((whence & AVSEEK_SIZE) != 0) return size;
  std::int64_t to = offset;
  switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET:
      break;
    case SEEK_CUR:
      to += static_cast<std::int64_t>(cursor);
      break;
    case SEEK_END:
      to += size;
      break;
    default:
      return AVERROR(EINVAL);
  }
  if (to < 0) return AVERROR(EINVAL);
  cursor = static_cast<std::size_t>(to);
  return to;
}

std::int64_t vid_file_seek_write(void* opaque, std::int64_t offset, int whence) {
  auto* f = static_cast<VidFile*>(opaque);
  return vid_seek_cursor(*f, f->write_pos, offset, whence);
}

std::int64_t vid_file_seek_read(void* opaque, std::int64_t offset, int whence) {
  auto* f = static_cast<VidFile*>(opaque);
  return vid_seek_cursor(*f, f->read_pos, offset, whence);
}

VidPtr<AVIOContext> vid_file_io(VidFile& f, bool for_reading) {
  auto* buffer = static_cast<unsigned char*>(av_malloc(kVidIoBufferSize));
  if (buffer == nullptr) return nullptr;
  AVIOContext* io = for_reading ? avio_alloc_context(buffer, kVidIoBufferSize, 0, &f, vid_file_read,
                                                     nullptr, vid_file_seek_read)
                                : avio_alloc_context(buffer, kVidIoBufferSize, 1, &f, nullptr,
                                                     vid_file_write, vid_file_seek_write);
  if (io == nullptr) av_free(buffer);
  return VidPtr<AVIOContext>(io);
}

int vid_io_open(AVFormatContext* s, AVIOContext** pb, const char*, int flags, AVDictionary**) {
  if ((flags & AVIO_FLAG_WRITE) != 0) return AVERROR(ENOSYS);
  auto* f = static_cast<VidFile*>(s->opaque);
  f->read_pos = 0;
  *pb = vid_file_io(*f, true).release();
  return *pb != nullptr ? 0 : AVERROR(ENOMEM);
}

int vid_io_close(AVFormatContext*, AVIOContext* pb) {
  VidPtr<AVIOContext> owned(pb);
  return 0;
}

// ---- Encoders ---------------------------------------------------------------------------------

struct VidEncoder {
  VidPtr<AVCodecContext> ctx;
  AVStream* stream = nullptr;  // owned by the format context
  std::int64_t next_pts = 0;
  bool done = false;
};

std::string vid_audio_codec_name(const VideoSpec& spec) {
  if (!spec.audio_codec.empty()) return spec.audio_codec;
  return spec.format == "webm" ? "libvorbis" : "aac";
}

// Encoder options that matter for speed; generation is already parallel over clips, so each
// encoder gets one thread.
VidPtr<AVDictionary> vid_encoder_options(std::string_view codec) {
  AVDictionary* d = nullptr;
  av_dict_set(&d, "threads", "1", 0);
  if (codec == "libvpx-vp9" || codec == "libvpx") {
    av_dict_set(&d, "deadline", "realtime", 0);
    av_dict_set(&d, "cpu-used", "8", 0);
    av_dict_set(&d, "row-mt", "1", 0);
  } else if (codec == "libx264" || codec == "libx264rgb") {
    av_dict_set(&d, "preset", "ultrafast", 0);
  } else if (codec == "aac") {
    av_dict_set(&d, "aac_coder", "fast", 0);
  }
  return VidPtr<AVDictionary>(d);
}

// `settings` describes what was asked of the encoder, for the message when it refuses.
core::Result<VidEncoder> vid_open_encoder(AVFormatContext* oc, const AVCodec* codec,
                                          VidPtr<AVCodecContext> ctx, const char* option,
                                          const std::string& settings) {
  VidEncoder e;
  e.ctx = std::move(ctx);
  e.ctx->thread_count = 1;
  // No version strings or random ids in the bytes: one seed, one file.
  e.ctx->flags |= AV_CODEC_FLAG_BITEXACT;
  if ((oc->oformat->flags & AVFMT_GLOBALHEADER) != 0) e.ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  VidPtr<AVDictionary> opts = vid_encoder_options(codec->name);
  AVDictionary* raw = opts.release();
  const int ret = avcodec_open2(e.ctx.get(), codec, &raw);
  opts.reset(raw);
  if (ret < 0) {
    return vid_error(core::ErrorKind::kConfig, std::string(option) + " " + codec->name +
                                                   ": the encoder refused " + settings + " (" +
                                                   vid_av_error(ret) + ")");
  }
  e.stream = avformat_new_stream(oc, nullptr);
  if (e.stream == nullptr) return vid_run_error("adding a stream", AVERROR(ENOMEM));
  e.stream->time_base = e.ctx->time_base;
  const int copied = avcodec_parameters_from_context(e.stream->codecpar, e.ctx.get());
  if (copied < 0) return vid_run_error("describing the stream", copied);
  return e;
}

core::Result<VidEncoder> vid_open_video(AVFormatContext* oc, const VideoSpec& spec) {
  const AVCodec* codec = avcodec_find_encoder_by_name(spec.codec.c_str());
  if (codec == nullptr) return vid_error(core::ErrorKind::kConfig, "no encoder " + spec.codec);
  // H.264/H.265 code 4:2:0 in whole 2 × 2 blocks. Asked anyway, libx264 refuses and (FFmpeg 5.1,
  // x264 164) leaks its parsed options, so the size is checked here first.
  const bool even_only = codec->id == AV_CODEC_ID_H264 || codec->id == AV_CODEC_ID_HEVC;
  if (even_only && (spec.width % 2 != 0 || spec.height % 2 != 0)) {
    return vid_error(core::ErrorKind::kConfig,
                     "--video-codec " + spec.codec + ": " + avcodec_get_name(codec->id) +
                         " in yuv420p needs an even width and height, not " +
                         std::to_string(spec.width) + "x" + std::to_string(spec.height));
  }
  VidPtr<AVCodecContext> ctx(avcodec_alloc_context3(codec));
  if (!ctx) return vid_run_error("allocating the video encoder", AVERROR(ENOMEM));
  ctx->width = spec.width;
  ctx->height = spec.height;
  ctx->pix_fmt = AV_PIX_FMT_YUV420P;
  ctx->time_base = AVRational{1, spec.fps};
  ctx->framerate = AVRational{spec.fps, 1};
  const std::string settings = std::to_string(spec.width) + "x" + std::to_string(spec.height) +
                               " yuv420p at " + std::to_string(spec.fps) + " fps";
  auto e = vid_open_encoder(oc, codec, std::move(ctx), "--video-codec", settings);
  if (e.ok()) e->stream->avg_frame_rate = AVRational{spec.fps, 1};
  return e;
}

// The encoder's rate nearest the requested one (Opus, for one, runs only at 8/12/16/24/48 kHz).
int vid_nearest_rate(const AVCodec* codec, int wanted) {
  if (codec->supported_samplerates == nullptr) return wanted;
  int best = codec->supported_samplerates[0];
  for (const int* r = codec->supported_samplerates; *r != 0; ++r) {
    if (std::abs(*r - wanted) < std::abs(best - wanted)) best = *r;
  }
  return best;
}

AVSampleFormat vid_sample_format(const AVCodec* codec) {
  if (codec->sample_fmts == nullptr) return AV_SAMPLE_FMT_FLTP;
  for (const AVSampleFormat* f = codec->sample_fmts; *f != AV_SAMPLE_FMT_NONE; ++f) {
    if (*f == AV_SAMPLE_FMT_FLTP) return *f;
  }
  return codec->sample_fmts[0];
}

core::Result<VidEncoder> vid_open_audio(AVFormatContext* oc, const VideoSpec& spec) {
  const std::string name = vid_audio_codec_name(spec);
  const AVCodec* codec = avcodec_find_encoder_by_name(name.c_str());
  if (codec == nullptr) return vid_error(core::ErrorKind::kConfig, "no encoder " + name);
  VidPtr<AVCodecContext> ctx(avcodec_alloc_context3(codec));
  if (!ctx) return vid_run_error("allocating the audio encoder", AVERROR(ENOMEM));
  ctx->sample_fmt = vid_sample_format(codec);
  ctx->sample_rate = vid_nearest_rate(codec, spec.audio_sample_rate);
  av_channel_layout_default(&ctx->ch_layout, spec.audio_channels);
  ctx->time_base = AVRational{1, ctx->sample_rate};
  const std::string settings = std::to_string(spec.audio_channels) + " channels at " +
                               std::to_string(ctx->sample_rate) + " Hz";
  return vid_open_encoder(oc, codec, std::move(ctx), "--video-audio-codec", settings);
}

// ---- The audio track's samples ----------------------------------------------------------------

// Noise PCM at the requested depth and rate, as the integer samples a WAV file would hold,
// converted to the encoder's format and rate. (`ac` is not const only because FFmpeg 5.1's
// swr_alloc_set_opts2 takes its layouts by non-const pointer.)
core::Result<VidPtr<AVAudioFifo>> vid_audio_samples(const VideoSpec& spec, AVCodecContext& ac,
                                                    std::mt19937_64& rng) {
  static_assert(std::endian::native == std::endian::little, "WAV samples are little-endian");
  const PcmClip clip = noise_clip(spec.duration_s, spec.audio_sample_rate, spec.audio_bits,
                                  spec.audio_channels, rng);
  const std::string wav = encode_wav(clip);
  constexpr std::size_t kWavHeader = 44;  // encode_wav's fixed header
  const std::size_t count = clip.samples.size();
  AVSampleFormat in_fmt = spec.audio_bits == 8 ? AV_SAMPLE_FMT_U8 : AV_SAMPLE_FMT_S16;
  std::vector<std::int32_t> wide;  // 24-bit samples, widened to swresample's 32-bit format
  const auto* pcm = reinterpret_cast<const std::uint8_t*>(wav.data() + kWavHeader);
  if (spec.audio_bits == 32) in_fmt = AV_SAMPLE_FMT_S32;
  if (spec.audio_bits == 24) {
    in_fmt = AV_SAMPLE_FMT_S32;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint8_t* s = pcm + i * 3;
      const std::uint32_t v =
          (std::uint32_t{s[0]} << 8) | (std::uint32_t{s[1]} << 16) | (std::uint32_t{s[2]} << 24);
      wide.push_back(static_cast<std::int32_t>(v));
    }
    pcm = reinterpret_cast<const std::uint8_t*>(wide.data());
  }
  AVChannelLayout in_layout{};
  av_channel_layout_default(&in_layout, spec.audio_channels);
  SwrContext* raw = nullptr;
  int ret = swr_alloc_set_opts2(&raw, &ac.ch_layout, ac.sample_fmt, ac.sample_rate, &in_layout,
                                in_fmt, spec.audio_sample_rate, 0, nullptr);
  VidPtr<SwrContext> swr(raw);
  av_channel_layout_uninit(&in_layout);
  if (ret >= 0) ret = swr_init(swr.get());
  if (ret < 0) return vid_run_error("setting up the audio resampler", ret);

  const int in_frames = static_cast<int>(clip.frames());
  const int out_cap = swr_get_out_samples(swr.get(), in_frames) + 64;
  VidPtr<AVFrame> buf(av_frame_alloc());
  VidPtr<AVAudioFifo> fifo(av_audio_fifo_alloc(ac.sample_fmt, ac.ch_layout.nb_channels, out_cap));
  if (!buf || !fifo) return vid_run_error("allocating audio buffers", AVERROR(ENOMEM));
  buf->format = ac.sample_fmt;
  buf->nb_samples = out_cap;
  ret = av_channel_layout_copy(&buf->ch_layout, &ac.ch_layout);
  if (ret >= 0) ret = av_frame_get_buffer(buf.get(), 0);
  if (ret < 0) return vid_run_error("allocating audio buffers", ret);
  const std::uint8_t* in[] = {pcm};
  // The second pass drains what the resampler's filter still holds once the input has ended.
  for (const bool drain : {false, true}) {
    const int n = swr_convert(swr.get(), buf->extended_data, out_cap, drain ? nullptr : in,
                              drain ? 0 : in_frames);
    if (n < 0) return vid_run_error("resampling the audio", n);
    ret = av_audio_fifo_write(fifo.get(), reinterpret_cast<void**>(buf->extended_data), n);
    if (ret < 0) return vid_run_error("buffering the audio", ret);
  }
  return fifo;
}

// ---- Encoding and muxing ----------------------------------------------------------------------

// Sends one frame (nullptr: end of stream) and muxes every packet the encoder has ready.
int vid_encode(AVFormatContext* oc, VidEncoder& e, const AVFrame* frame, AVPacket* pkt) {
  int ret = avcodec_send_frame(e.ctx.get(), frame);
  while (ret >= 0) {
    ret = avcodec_receive_packet(e.ctx.get(), pkt);
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return 0;
    if (ret < 0) break;
    av_packet_rescale_ts(pkt, e.ctx->time_base, e.stream->time_base);
    pkt->stream_index = e.stream->index;
    ret = av_interleaved_write_frame(oc, pkt);
  }
  return ret;
}

struct VidJob {
  const VideoSpec* spec = nullptr;
  std::mt19937_64* rng = nullptr;
  AVFormatContext* oc = nullptr;
  VidEncoder video;
  VidEncoder audio;
  VidPtr<SwsContext> sws;
  VidPtr<AVFrame> picture;  // yuv420p, reused frame after frame
  VidPtr<AVAudioFifo> samples;
  std::int64_t audio_samples_max = 0;  // the video's length in audio samples
  VidPtr<AVPacket> pkt;
};

int vid_next_video(VidJob& j) {
  const int index = static_cast<int>(j.video.next_pts);
  if (index >= j.spec->frame_count()) {
    j.video.done = true;
    return vid_encode(j.oc, j.video, nullptr, j.pkt.get());
  }
  const RgbImage rgb = video_frame(*j.spec, index, *j.rng);
  // The encoder may still hold a reference to the previous picture.
  int ret = av_frame_make_writable(j.picture.get());
  if (ret < 0) return ret;
  const std::uint8_t* src[] = {rgb.rgb.data()};
  const int stride[] = {rgb.width * 3};
  sws_scale(j.sws.get(), src, stride, 0, rgb.height, j.picture->data, j.picture->linesize);
  j.picture->pts = j.video.next_pts++;
  return vid_encode(j.oc, j.video, j.picture.get(), j.pkt.get());
}

int vid_next_audio(VidJob& j) {
  const AVCodecContext& ac = *j.audio.ctx;
  const int frame_size = ac.frame_size > 0 ? ac.frame_size : 1024;
  // The shortest-stream rule: no sound past the last picture.
  const std::int64_t left = std::min<std::int64_t>(av_audio_fifo_size(j.samples.get()),
                                                   j.audio_samples_max - j.audio.next_pts);
  const int n = static_cast<int>(std::min<std::int64_t>(frame_size, left));
  if (n <= 0) {
    j.audio.done = true;
    return vid_encode(j.oc, j.audio, nullptr, j.pkt.get());
  }
  VidPtr<AVFrame> frame(av_frame_alloc());
  if (!frame) return AVERROR(ENOMEM);
  frame->format = ac.sample_fmt;
  frame->sample_rate = ac.sample_rate;
  frame->nb_samples = n;
  int ret = av_channel_layout_copy(&frame->ch_layout, &ac.ch_layout);
  if (ret >= 0) ret = av_frame_get_buffer(frame.get(), 0);
  if (ret < 0) return ret;
  ret = av_audio_fifo_read(j.samples.get(), reinterpret_cast<void**>(frame->extended_data), n);
  if (ret < 0) return ret;
  frame->pts = j.audio.next_pts;
  j.audio.next_pts += n;
  return vid_encode(j.oc, j.audio, frame.get(), j.pkt.get());
}

// Whichever stream is behind in time goes next, so the muxer's interleaving queue stays short.
int vid_encode_all(VidJob& j) {
  const bool with_audio = j.audio.ctx != nullptr;
  if (!with_audio) j.audio.done = true;
  while (!j.video.done || !j.audio.done) {
    const bool video_first =
        j.audio.done ||
        (!j.video.done && av_compare_ts(j.video.next_pts, j.video.ctx->time_base, j.audio.next_pts,
                                        j.audio.ctx->time_base) <= 0);
    const int ret = video_first ? vid_next_video(j) : vid_next_audio(j);
    if (ret < 0) return ret;
  }
  return 0;
}

core::Result<bool> vid_prepare_picture(VidJob& j) {
  const VideoSpec& s = *j.spec;
  j.sws.reset(sws_getContext(s.width, s.height, AV_PIX_FMT_RGB24, s.width, s.height,
                             AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr));
  j.picture.reset(av_frame_alloc());
  j.pkt.reset(av_packet_alloc());
  if (!j.sws || !j.picture || !j.pkt) {
    return vid_run_error("allocating the frame converter", AVERROR(ENOMEM));
  }
  j.picture->format = AV_PIX_FMT_YUV420P;
  j.picture->width = s.width;
  j.picture->height = s.height;
  const int ret = av_frame_get_buffer(j.picture.get(), 0);
  if (ret < 0) return vid_run_error("allocating a frame", ret);
  return true;
}

core::Error vid_spec_error(const VideoSpec& spec) {
  return vid_error(core::ErrorKind::kConfig,
                   "invalid video size, rate or audio depth (" + std::to_string(spec.width) + "x" +
                       std::to_string(spec.height) + ", " + std::to_string(spec.fps) + " fps, " +
                       std::to_string(spec.audio_bits) + "-bit audio)");
}

bool vid_spec_valid(const VideoSpec& spec) {
  const bool audio_ok =
      spec.audio_channels == 0 ||
      (spec.audio_sample_rate > 0 && (spec.audio_bits == 8 || spec.audio_bits == 16 ||
                                      spec.audio_bits == 24 || spec.audio_bits == 32));
  return spec.width > 0 && spec.height > 0 && spec.fps > 0 && spec.audio_channels >= 0 && audio_ok;
}

}  // namespace

std::string_view video_mime_type(std::string_view format) {
  return format == "mp4" ? "video/mp4" : "video/webm";
}

std::optional<std::string> missing_video_support(const VideoSpec& spec) {
  const AVOutputFormat* container = av_guess_format(spec.format.c_str(), nullptr, nullptr);
  if (container == nullptr) {
    return "--video-format " + spec.format + ": this FFmpeg build has no such container";
  }
  const auto check = [&](const std::string& option,
                         const std::string& name) -> std::optional<std::string> {
    const AVCodec* codec = avcodec_find_encoder_by_name(name.c_str());
    if (codec == nullptr) return option + " " + name + ": this FFmpeg build has no such encoder";
    // 0 is a definite no; a negative answer means the muxer cannot tell.
    if (avformat_query_codec(container, codec->id, FF_COMPLIANCE_NORMAL) == 0) {
      return option + " " + name + ": the " + spec.format + " container cannot carry " +
             avcodec_get_name(codec->id);
    }
    return std::nullopt;
  };
  if (auto problem = check("--video-codec", spec.codec)) return problem;
  if (spec.audio_channels > 0) return check("--video-audio-codec", vid_audio_codec_name(spec));
  return std::nullopt;
}

core::Result<std::string> encode_video(const VideoSpec& spec, std::mt19937_64& rng) {
  vid_quiet_logs();
  if (!vid_spec_valid(spec)) return vid_spec_error(spec);
  if (auto problem = missing_video_support(spec))
    return vid_error(core::ErrorKind::kConfig, *problem);
  VidFile file;
  VidPtr<AVIOContext> io = vid_file_io(file, false);
  AVFormatContext* raw = nullptr;
  int ret = avformat_alloc_output_context2(&raw, nullptr, spec.format.c_str(), nullptr);
  VidPtr<AVFormatContext> oc(raw);  // declared after io: freed before it
  if (!io) return vid_run_error("allocating the output buffer", AVERROR(ENOMEM));
  if (ret < 0) return vid_run_error("creating the " + spec.format + " container", ret);
  oc->pb = io.get();
  oc->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT;
  oc->opaque = &file;
  oc->io_open = vid_io_open;
  oc->io_close2 = vid_io_close;

  VidJob job;
  job.spec = &spec;
  job.rng = &rng;
  job.oc = oc.get();
  auto video = vid_open_video(oc.get(), spec);
  if (!video) return video.error();
  job.video = std::move(*video);
  if (spec.audio_channels > 0) {
    auto audio = vid_open_audio(oc.get(), spec);
    if (!audio) return audio.error();
    job.audio = std::move(*audio);
    auto samples = vid_audio_samples(spec, *job.audio.ctx, rng);
    if (!samples) return samples.error();
    job.samples = std::move(*samples);
    job.audio_samples_max = av_rescale(spec.frame_count(), job.audio.ctx->sample_rate, spec.fps);
  }
  if (auto ready = vid_prepare_picture(job); !ready) return ready.error();

  VidPtr<AVDictionary> mux_opts;
  AVDictionary* opts = nullptr;
  if (spec.format == "mp4") av_dict_set(&opts, "movflags", "+faststart", 0);
  ret = avformat_write_header(oc.get(), &opts);
  mux_opts.reset(opts);
  if (ret < 0) return vid_run_error("writing the " + spec.format + " header", ret);
  ret = vid_encode_all(job);
  if (ret < 0) return vid_run_error("encoding with " + spec.codec, ret);
  ret = av_write_trailer(oc.get());
  if (ret < 0) return vid_run_error("finishing the " + spec.format + " file", ret);
  avio_flush(io.get());
  return std::move(file.bytes);
}

}  // namespace inferperf::media
