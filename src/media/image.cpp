#include "media/image.hpp"

#include <jpeglib.h>
#include <png.h>
#include <cerrno>
#include <csetjmp>
#include <cstdio>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>

namespace inferperf::media {

namespace {

// A user's folder may hold anything; a decoder asked for a 100000 × 100000 picture would try to
// allocate 30 GB before noticing it is useless for a benchmark prompt.
constexpr std::uint32_t kMaxImageSide = 16384;
constexpr std::uint64_t kMaxImagePixels = 100'000'000;

constexpr int kPngCompressionLevel = 6;
constexpr int kJpegQuality = 85;

// Empty when the size is acceptable, else what is wrong with it.
std::string img_size_problem(std::uint64_t width, std::uint64_t height) {
  const std::string size = std::to_string(width) + " x " + std::to_string(height);
  if (width == 0 || height == 0) return "the image is empty (" + size + ")";
  if (width > kMaxImageSide || height > kMaxImageSide) {
    return "the image is " + size + " pixels; at most " + std::to_string(kMaxImageSide) +
           " pixels on a side are accepted";
  }
  if (width * height > kMaxImagePixels) {
    return "the image is " + size + " pixels; at most " + std::to_string(kMaxImagePixels) +
           " pixels in all are accepted";
  }
  return {};
}

// ---- Resampling -------------------------------------------------------------------------------

// The source pixels one output coordinate blends, and their weights (summing to 1).
struct ImgTaps {
  int first = 0;
  std::vector<float> weights;
};

// A triangle (bilinear) filter over pixel centres. When shrinking, the triangle widens with the
// scale so that every source pixel contributes and a shrunk picture does not alias; when growing
// this is exactly the textbook bilinear interpolation with edge pixels repeated.
std::vector<ImgTaps> img_bilinear_taps(int src_size, int dst_size) {
  const double scale = static_cast<double>(src_size) / dst_size;
  const double support = std::max(1.0, scale);
  std::vector<ImgTaps> taps(static_cast<std::size_t>(dst_size));
  for (int i = 0; i < dst_size; ++i) {
    const double centre = (i + 0.5) * scale;
    const int lo = std::max(0, static_cast<int>(std::floor(centre - support)));
    const int hi = std::min(src_size - 1, static_cast<int>(std::ceil(centre + support)));
    ImgTaps& t = taps[static_cast<std::size_t>(i)];
    t.first = lo;
    double total = 0;
    std::vector<double> w;
    for (int s = lo; s <= hi; ++s) {
      const double d = std::abs((s + 0.5 - centre) / support);
      w.push_back(d < 1.0 ? 1.0 - d : 0.0);
      total += w.back();
    }
    for (double x : w) t.weights.push_back(static_cast<float>(total > 0 ? x / total : 0.0));
  }
  return taps;
}

std::uint8_t img_to_byte(float v) {
  return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

}  // namespace

std::string_view image_mime_type(ImageFormat f) {
  return f == ImageFormat::kPng ? "image/png" : "image/jpeg";
}

std::string_view image_format_name(ImageFormat f) {
  return f == ImageFormat::kPng ? "png" : "jpeg";
}

RgbImage noise_image(int width, int height, std::mt19937_64& rng) {
  RgbImage img{width, height, {}};
  img.rgb.resize(static_cast<std::size_t>(std::max(0, width)) *
                 static_cast<std::size_t>(std::max(0, height)) * 3);
  // Eight bytes from each 64-bit draw, lowest first: the engine's output is fully specified by
  // the standard, so one seed gives the same picture everywhere.
  for (std::size_t i = 0; i < img.rgb.size(); i += 8) {
    std::uint64_t bits = rng();
    for (std::size_t k = i; k < std::min(i + 8, img.rgb.size()); ++k, bits >>= 8) {
      img.rgb[k] = static_cast<std::uint8_t>(bits & 0xFF);
    }
  }
  return img;
}

RgbImage resize_image(const RgbImage& src, int width, int height) {
  RgbImage dst{width, height, {}};
  dst.rgb.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3, 0);
  if (src.width <= 0 || src.height <= 0 || width <= 0 || height <= 0) return dst;
  const auto xs = img_bilinear_taps(src.width, width);
  const auto ys = img_bilinear_taps(src.height, height);
  // Horizontal pass into floats, then vertical: the filter is separable.
  const auto sw = static_cast<std::size_t>(src.width);
  const auto dw = static_cast<std::size_t>(width);
  std::vector<float> rows(static_cast<std::size_t>(src.height) * dw * 3);
  for (std::size_t y = 0; y < static_cast<std::size_t>(src.height); ++y) {
    const std::uint8_t* in = src.rgb.data() + y * sw * 3;
    float* out = rows.data() + y * dw * 3;
    for (std::size_t x = 0; x < dw; ++x) {
      const ImgTaps& t = xs[x];
      for (std::size_t k = 0; k < t.weights.size(); ++k) {
        const std::uint8_t* p = in + (static_cast<std::size_t>(t.first) + k) * 3;
        for (int c = 0; c < 3; ++c) out[x * 3 + c] += t.weights[k] * p[c];
      }
    }
  }
  for (std::size_t y = 0; y < static_cast<std::size_t>(height); ++y) {
    const ImgTaps& t = ys[y];
    for (std::size_t x = 0; x < dw * 3; ++x) {
      float v = 0;
      for (std::size_t k = 0; k < t.weights.size(); ++k) {
        v += t.weights[k] * rows[(static_cast<std::size_t>(t.first) + k) * dw * 3 + x];
      }
      dst.rgb[y * dw * 3 + x] = img_to_byte(v);
    }
  }
  return dst;
}

namespace {

// ---- libpng -----------------------------------------------------------------------------------
// libpng reports errors by calling the error function, which must not return: it jumps back to
// the setjmp in the function that drives libpng. Those functions keep every object whose state
// matters in a struct created before the jump target, so nothing needs unwinding.

struct ImgPngState {
  png_structp png = nullptr;
  png_infop info = nullptr;
  std::array<char, 200> message{};
};

[[noreturn]] void img_png_error(png_structp png, png_const_charp msg) {
  auto* state = static_cast<ImgPngState*>(png_get_error_ptr(png));
  std::snprintf(state->message.data(), state->message.size(), "%s", msg);
  png_longjmp(png, 1);
}

// Warnings (odd colour profiles and the like) do not stop a picture from being useful.
void img_png_warning(png_structp, png_const_charp) {}

void img_png_write(png_structp png, png_bytep data, png_size_t len) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(png));
  bool grown = true;
  try {
    out->append(reinterpret_cast<const char*>(data), len);
  } catch (const std::bad_alloc&) {
    grown = false;
  }
  if (!grown) png_error(png, "out of memory");
}

void img_png_flush(png_structp) {}

struct ImgPngWrite {
  ImgPngState state;
  const RgbImage* image = nullptr;
  std::vector<png_bytep> rows;
  std::string out;
};

bool img_png_write_steps(ImgPngWrite& w) {
  if (setjmp(png_jmpbuf(w.state.png))) return false;
  png_set_write_fn(w.state.png, &w.out, img_png_write, img_png_flush);
  png_set_IHDR(w.state.png, w.state.info, static_cast<png_uint_32>(w.image->width),
               static_cast<png_uint_32>(w.image->height), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // No per-row filter search: PIL's PNG writer without `optimize` does the same.
  png_set_filter(w.state.png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_set_compression_level(w.state.png, kPngCompressionLevel);
  png_write_info(w.state.png, w.state.info);
  png_write_image(w.state.png, w.rows.data());
  png_write_end(w.state.png, nullptr);
  return true;
}

std::string img_encode_png(const RgbImage& image) {
  ImgPngWrite w;
  w.image = &image;
  const auto stride = static_cast<std::size_t>(image.width) * 3;
  for (int y = 0; y < image.height; ++y) {
    // libpng's row type is non-const although writing only reads the rows.
    w.rows.push_back(
        const_cast<png_bytep>(image.rgb.data() + static_cast<std::size_t>(y) * stride));
  }
  w.state.png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &w.state, img_png_error, img_png_warning);
  if (w.state.png == nullptr) return {};
  w.state.info = png_create_info_struct(w.state.png);
  const bool ok = w.state.info != nullptr && img_png_write_steps(w);
  png_destroy_write_struct(&w.state.png, &w.state.info);
  return ok ? std::move(w.out) : std::string();
}

struct ImgMemReader {
  const unsigned char* data = nullptr;
  std::size_t size = 0;
  std::size_t pos = 0;
};

void img_png_read(png_structp png, png_bytep out, png_size_t len) {
  auto* r = static_cast<ImgMemReader*>(png_get_io_ptr(png));
  if (len > r->size - r->pos) png_error(png, "the file ends early");
  std::memcpy(out, r->data + r->pos, len);
  r->pos += len;
}

struct ImgPngRead {
  ImgPngState state;
  ImgMemReader src;
  std::string problem;  // a refusal of ours, as opposed to libpng's message
  RgbImage image;
  std::vector<png_bytep> rows;
};

bool img_png_read_steps(ImgPngRead& r) {
  if (setjmp(png_jmpbuf(r.state.png))) return false;
  png_structp png = r.state.png;
  png_set_read_fn(png, &r.src, img_png_read);
  png_read_info(png, r.state.info);
  const png_uint_32 width = png_get_image_width(png, r.state.info);
  const png_uint_32 height = png_get_image_height(png, r.state.info);
  r.problem = img_size_problem(width, height);
  if (!r.problem.empty()) return false;
  // Whatever the file holds (palette, grey, 16 bits, alpha), come out as 8-bit RGB.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_strip_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, r.state.info);
  if (png_get_rowbytes(png, r.state.info) != static_cast<std::size_t>(width) * 3) {
    r.problem = "unsupported PNG pixel layout";
    return false;
  }
  r.image.width = static_cast<int>(width);
  r.image.height = static_cast<int>(height);
  r.image.rgb.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t y = 0; y < height; ++y) r.rows.push_back(r.image.rgb.data() + y * width * 3);
  png_read_image(png, r.rows.data());
  png_read_end(png, nullptr);
  return true;
}

core::Result<RgbImage> img_decode_png(const std::string& bytes, const std::string& file) {
  ImgPngRead r;
  r.src = {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), 0};
  r.state.png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &r.state, img_png_error, img_png_warning);
  if (r.state.png == nullptr) return core::Error{core::ErrorKind::kRun, "libpng failed", file};
  r.state.info = png_create_info_struct(r.state.png);
  bool ok = false;
  try {
    ok = r.state.info != nullptr && img_png_read_steps(r);
  } catch (const std::bad_alloc&) {  // the pixels' allocation: libpng's objects still go
    r.problem = "out of memory for its pixels";
  }
  png_destroy_read_struct(&r.state.png, &r.state.info, nullptr);
  if (ok) return std::move(r.image);
  const std::string why = !r.problem.empty() ? r.problem : std::string(r.state.message.data());
  return core::Error{core::ErrorKind::kInput, "cannot read the PNG image: " + why, file};
}

// ---- libjpeg ----------------------------------------------------------------------------------

struct ImgJpegErrors {
  jpeg_error_mgr mgr{};  // first, so libjpeg's pointer to it is a pointer to the whole
  std::jmp_buf jump{};
  std::array<char, JMSG_LENGTH_MAX> message{};
};

[[noreturn]] void img_jpeg_error_exit(j_common_ptr cinfo) {
  auto* errors = reinterpret_cast<ImgJpegErrors*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, errors->message.data());
  std::longjmp(errors->jump, 1);
}

// libjpeg prints warnings (e.g. a truncated scan, whose missing part decodes grey) to stderr.
void img_jpeg_quiet(j_common_ptr) {}

void img_jpeg_errors_init(ImgJpegErrors& e) {
  jpeg_std_error(&e.mgr);
  e.mgr.error_exit = img_jpeg_error_exit;
  e.mgr.output_message = img_jpeg_quiet;
}

// Encoded bytes go straight into a std::string through a fixed buffer, so no malloc'd block
// changes hands with libjpeg (jpeg_mem_dest's buffer would leak if compression failed midway).
struct ImgJpegSink {
  jpeg_destination_mgr mgr{};  // first, see ImgJpegErrors
  std::string* out = nullptr;
  std::array<JOCTET, 16384> buffer{};
};

void img_jpeg_sink_init(j_compress_ptr cinfo) {
  auto* sink = reinterpret_cast<ImgJpegSink*>(cinfo->dest);
  sink->mgr.next_output_byte = sink->buffer.data();
  sink->mgr.free_in_buffer = sink->buffer.size();
}

boolean img_jpeg_sink_empty(j_compress_ptr cinfo) {
  auto* sink = reinterpret_cast<ImgJpegSink*>(cinfo->dest);
  sink->out->append(reinterpret_cast<const char*>(sink->buffer.data()), sink->buffer.size());
  img_jpeg_sink_init(cinfo);
  return TRUE;
}

void img_jpeg_sink_term(j_compress_ptr cinfo) {
  auto* sink = reinterpret_cast<ImgJpegSink*>(cinfo->dest);
  sink->out->append(reinterpret_cast<const char*>(sink->buffer.data()),
                    sink->buffer.size() - sink->mgr.free_in_buffer);
}

struct ImgJpegWrite {
  jpeg_compress_struct cinfo{};
  ImgJpegErrors errors;
  ImgJpegSink sink;
  const RgbImage* image = nullptr;
  std::string out;
};

bool img_jpeg_write_steps(ImgJpegWrite& w) {
  if (setjmp(w.errors.jump)) return false;
  jpeg_create_compress(&w.cinfo);
  w.cinfo.dest = &w.sink.mgr;
  w.cinfo.image_width = static_cast<JDIMENSION>(w.image->width);
  w.cinfo.image_height = static_cast<JDIMENSION>(w.image->height);
  w.cinfo.input_components = 3;
  w.cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&w.cinfo);
  jpeg_set_quality(&w.cinfo, kJpegQuality, TRUE);
  // Full-resolution chroma (4:4:4) rather than libjpeg's default 4:2:0.
  for (int c = 0; c < w.cinfo.num_components; ++c) {
    w.cinfo.comp_info[c].h_samp_factor = 1;
    w.cinfo.comp_info[c].v_samp_factor = 1;
  }
  jpeg_start_compress(&w.cinfo, TRUE);
  const auto stride = static_cast<std::size_t>(w.image->width) * 3;
  while (w.cinfo.next_scanline < w.cinfo.image_height) {
    // libjpeg's row type is non-const although compressing only reads the rows.
    JSAMPROW row = const_cast<JSAMPROW>(w.image->rgb.data() + w.cinfo.next_scanline * stride);
    jpeg_write_scanlines(&w.cinfo, &row, 1);
  }
  jpeg_finish_compress(&w.cinfo);
  return true;
}

std::string img_encode_jpeg(const RgbImage& image) {
  ImgJpegWrite w;
  w.image = &image;
  img_jpeg_errors_init(w.errors);
  w.cinfo.err = &w.errors.mgr;
  w.sink.out = &w.out;
  w.sink.mgr.init_destination = img_jpeg_sink_init;
  w.sink.mgr.empty_output_buffer = img_jpeg_sink_empty;
  w.sink.mgr.term_destination = img_jpeg_sink_term;
  const bool ok = img_jpeg_write_steps(w);
  jpeg_destroy_compress(&w.cinfo);
  return ok ? std::move(w.out) : std::string();
}

struct ImgJpegRead {
  jpeg_decompress_struct cinfo{};
  ImgJpegErrors errors;
  const std::string* bytes = nullptr;
  std::string problem;  // a refusal of ours, as opposed to libjpeg's message
  RgbImage image;
};

bool img_jpeg_read_steps(ImgJpegRead& r) {
  if (setjmp(r.errors.jump)) return false;
  jpeg_create_decompress(&r.cinfo);
  jpeg_mem_src(&r.cinfo, reinterpret_cast<const unsigned char*>(r.bytes->data()),
               static_cast<unsigned long>(r.bytes->size()));
  jpeg_read_header(&r.cinfo, TRUE);
  r.problem = img_size_problem(r.cinfo.image_width, r.cinfo.image_height);
  if (!r.problem.empty()) return false;
  r.cinfo.out_color_space = JCS_RGB;  // grey and YCbCr files alike
  jpeg_start_decompress(&r.cinfo);
  if (r.cinfo.output_components != 3) {
    r.problem = "unsupported JPEG colour space";
    return false;
  }
  const auto width = static_cast<std::size_t>(r.cinfo.output_width);
  r.image.width = static_cast<int>(r.cinfo.output_width);
  r.image.height = static_cast<int>(r.cinfo.output_height);
  r.image.rgb.resize(width * r.cinfo.output_height * 3);
  while (r.cinfo.output_scanline < r.cinfo.output_height) {
    JSAMPROW row = r.image.rgb.data() + r.cinfo.output_scanline * width * 3;
    jpeg_read_scanlines(&r.cinfo, &row, 1);
  }
  jpeg_finish_decompress(&r.cinfo);
  return true;
}

core::Result<RgbImage> img_decode_jpeg(const std::string& bytes, const std::string& file) {
  ImgJpegRead r;
  r.bytes = &bytes;
  img_jpeg_errors_init(r.errors);
  r.cinfo.err = &r.errors.mgr;
  bool ok = false;
  try {
    ok = img_jpeg_read_steps(r);
  } catch (const std::bad_alloc&) {  // the pixels' allocation: libjpeg's objects still go
    r.problem = "out of memory for its pixels";
  }
  jpeg_destroy_decompress(&r.cinfo);
  if (ok) return std::move(r.image);
  const std::string why = !r.problem.empty() ? r.problem : std::string(r.errors.message.data());
  return core::Error{core::ErrorKind::kInput, "cannot read the JPEG image: " + why, file};
}

// No PNG or JPEG of at most kMaxImagePixels needs more than this many bytes (raw RGB plus
// format overhead); a larger file is refused before it is read.
constexpr std::uintmax_t kMaxImageFileBytes = kMaxImagePixels * 4 + (1u << 20);

core::Result<std::string> img_read_bytes(const std::filesystem::path& p) {
  const std::string file = p.string();
  std::error_code size_ec;
  if (const auto size = std::filesystem::file_size(p, size_ec);
      !size_ec && size > kMaxImageFileBytes) {
    return core::Error{core::ErrorKind::kInput,
                       "the image file is " + std::to_string(size) + " bytes; at most " +
                           std::to_string(kMaxImageFileBytes) + " are read",
                       file};
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "rb"), std::fclose);
  if (!f) {
    return core::Error{core::ErrorKind::kInput,
                       std::string("cannot open the image file: ") + std::strerror(errno), file};
  }
  std::string bytes;
  std::array<char, 65536> chunk{};
  std::size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), f.get())) > 0)
    bytes.append(chunk.data(), n);
  if (std::ferror(f.get()) != 0) {
    return core::Error{core::ErrorKind::kInput, "cannot read the image file", file};
  }
  return bytes;
}

}  // namespace

std::string encode_image(const RgbImage& image, ImageFormat format) {
  return format == ImageFormat::kPng ? img_encode_png(image) : img_encode_jpeg(image);
}

core::Result<RgbImage> read_image_file(const std::filesystem::path& p) {
  auto bytes = img_read_bytes(p);
  if (!bytes) return bytes.error();
  const std::string& b = *bytes;
  // The content decides, not the extension: a .jpg that is really a PNG still reads.
  static constexpr std::array<unsigned char, 8> kPngMagic = {0x89, 'P',  'N',  'G',
                                                             '\r', '\n', 0x1A, '\n'};
  if (b.size() >= kPngMagic.size() && std::memcmp(b.data(), kPngMagic.data(), 8) == 0) {
    return img_decode_png(b, p.string());
  }
  if (b.size() >= 3 && static_cast<unsigned char>(b[0]) == 0xFF &&
      static_cast<unsigned char>(b[1]) == 0xD8 && static_cast<unsigned char>(b[2]) == 0xFF) {
    return img_decode_jpeg(b, p.string());
  }
  return core::Error{core::ErrorKind::kInput,
                     b.empty() ? "the image file is empty" : "not a PNG or JPEG file", p.string()};
}

}  // namespace inferperf::media
