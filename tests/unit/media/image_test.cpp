#include <gtest/gtest.h>
#include <png.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "media/image.hpp"

namespace inferperf::media {
namespace {

std::uint32_t it_be32(const std::string& b, std::size_t at) {
  return (std::uint32_t{static_cast<unsigned char>(b[at])} << 24) |
         (std::uint32_t{static_cast<unsigned char>(b[at + 1])} << 16) |
         (std::uint32_t{static_cast<unsigned char>(b[at + 2])} << 8) |
         std::uint32_t{static_cast<unsigned char>(b[at + 3])};
}

unsigned it_byte_at(const std::string& b, std::size_t at) {
  return static_cast<unsigned char>(b[at]);
}

void it_put_be32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

// A chunk as the PNG format lays it out: length, type, data, CRC over type and data.
void it_put_png_chunk(std::string& out, const std::string& type, const std::string& data) {
  it_put_be32(out, static_cast<std::uint32_t>(data.size()));
  const std::string typed = type + data;
  out += typed;
  it_put_be32(out, static_cast<std::uint32_t>(
                       crc32(0, reinterpret_cast<const Bytef*>(typed.data()), typed.size())));
}

struct ItPngChunks {
  std::string ihdr;
  std::string idat;  // every IDAT chunk's data, joined
};

ItPngChunks it_png_chunks(const std::string& png) {
  ItPngChunks c;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t len = it_be32(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") c.ihdr = png.substr(at + 8, len);
    if (type == "IDAT") c.idat += png.substr(at + 8, len);
    at += 12 + len;
  }
  return c;
}

// A JPEG marker segment's payload (after the 2-byte length), or "" when absent.
std::string it_jpeg_segment(const std::string& jpg, unsigned marker) {
  for (std::size_t at = 2; at + 4 <= jpg.size();) {
    if (it_byte_at(jpg, at) != 0xFF) return {};
    const unsigned m = it_byte_at(jpg, at + 1);
    const std::size_t len = (it_byte_at(jpg, at + 2) << 8) | it_byte_at(jpg, at + 3);
    if (m == marker) return jpg.substr(at + 4, len - 2);
    if (m == 0xDA) return {};  // start of scan: the headers are over
    at += 2 + len;
  }
  return {};
}

RgbImage it_grey_2x2(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d) {
  return RgbImage{2, 2, {a, a, a, b, b, b, c, c, c, d, d, d}};
}

void it_write_file(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

TEST(MediaImage, MimeTypesAndNames) {
  EXPECT_EQ(image_mime_type(ImageFormat::kPng), "image/png");
  EXPECT_EQ(image_mime_type(ImageFormat::kJpeg), "image/jpeg");
  EXPECT_EQ(image_format_name(ImageFormat::kPng), "png");
  EXPECT_EQ(image_format_name(ImageFormat::kJpeg), "jpeg");
}

TEST(MediaImage, NoiseIsEightBytesOfEachDrawAndSeeded) {
  std::mt19937_64 a(7), b(7), c(8), reference(7);
  const RgbImage img = noise_image(5, 3, a);
  ASSERT_EQ(img.width, 5);
  ASSERT_EQ(img.height, 3);
  ASSERT_EQ(img.rgb.size(), 45u);
  // The bytes are the engine's raw output, lowest byte first: reproducible everywhere.
  const std::uint64_t first = reference();
  for (int k = 0; k < 8; ++k) EXPECT_EQ(img.rgb[k], (first >> (8 * k)) & 0xFF) << k;
  const std::uint64_t second = reference();
  EXPECT_EQ(img.rgb[8], second & 0xFF);
  EXPECT_EQ(noise_image(5, 3, b).rgb, img.rgb);
  EXPECT_NE(noise_image(5, 3, c).rgb, img.rgb);
}

TEST(MediaImage, NoiseBytesAreUniform) {
  std::mt19937_64 rng(1);
  const RgbImage img = noise_image(128, 128, rng);
  double sum = 0;
  std::set<int> seen;
  for (std::uint8_t v : img.rgb) {
    sum += v;
    seen.insert(v);
  }
  EXPECT_NEAR(sum / static_cast<double>(img.rgb.size()), 127.5, 1.5);
  EXPECT_EQ(seen.size(), 256u);
}

TEST(MediaImage, BilinearUpscaleOf2x2) {
  const RgbImage out = resize_image(it_grey_2x2(0, 160, 240, 32), 4, 4);
  ASSERT_EQ(out.width, 4);
  ASSERT_EQ(out.height, 4);
  ASSERT_EQ(out.rgb.size(), 48u);
  // Output pixel centres fall at source x = -0.25, 0.25, 0.75, 1.25 (edges clamp), so the four
  // columns blend the two source columns 1:0, 3:1, 1:3 and 0:1; the same down the rows.
  const std::vector<std::vector<int>> expected = {
      {0, 40, 120, 160},
      {60, 77, 111, 128},
      {180, 151, 93, 64},
      {240, 188, 84, 32},
  };
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(out.rgb[static_cast<std::size_t>((y * 4 + x) * 3 + c)], expected[y][x])
            << x << "," << y;
      }
    }
  }
}

TEST(MediaImage, ResizeKeepsSameSizeAndFlatImages) {
  std::mt19937_64 rng(3);
  const RgbImage noise = noise_image(9, 7, rng);
  EXPECT_EQ(resize_image(noise, 9, 7).rgb, noise.rgb);
  const RgbImage flat{6, 6, std::vector<std::uint8_t>(108, 77)};
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 5}, {17, 3}}) {
    const RgbImage r = resize_image(flat, w, h);
    ASSERT_EQ(r.rgb.size(), static_cast<std::size_t>(w * h * 3));
    for (std::uint8_t v : r.rgb) EXPECT_EQ(v, 77);
  }
  // Shrinking averages rather than picking: a 2-pixel black/white stripe pattern turns grey.
  RgbImage stripes{8, 8, {}};
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) stripes.rgb.insert(stripes.rgb.end(), 3, x % 2 ? 255 : 0);
  }
  const RgbImage small = resize_image(stripes, 2, 2);
  for (std::uint8_t v : small.rgb) EXPECT_NEAR(v, 127, 20);
}

TEST(MediaImage, PngIsEightBitRgbLevelSixWithoutFilters) {
  const RgbImage& src = bundled_images().at(2);
  const std::string png = encode_image(src, ImageFormat::kPng);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const ItPngChunks chunks = it_png_chunks(png);
  ASSERT_EQ(chunks.ihdr.size(), 13u);
  EXPECT_EQ(it_be32(chunks.ihdr, 0), 256u);
  EXPECT_EQ(it_be32(chunks.ihdr, 4), 256u);
  EXPECT_EQ(it_byte_at(chunks.ihdr, 8), 8u);   // bit depth
  EXPECT_EQ(it_byte_at(chunks.ihdr, 9), 2u);   // colour type: RGB
  EXPECT_EQ(it_byte_at(chunks.ihdr, 12), 0u);  // not interlaced
  ASSERT_GE(chunks.idat.size(), 2u);
  EXPECT_EQ(it_byte_at(chunks.idat, 0), 0x78u);  // zlib, 32 KB window
  EXPECT_EQ(it_byte_at(chunks.idat, 1), 0x9Cu);  // FLEVEL 2: the default level, 6
  // Every row starts with its filter type byte; "no filter search" leaves them all 0 (None).
  const std::size_t row = 1 + 256 * 3;
  std::vector<Bytef> raw(row * 256);
  uLongf raw_len = raw.size();
  ASSERT_EQ(uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(chunks.idat.data()),
                       chunks.idat.size()),
            Z_OK);
  ASSERT_EQ(raw_len, raw.size());
  for (std::size_t y = 0; y < 256; ++y) {
    ASSERT_EQ(raw[y * row], 0) << "row " << y;
    ASSERT_EQ(0, std::memcmp(&raw[y * row + 1], src.rgb.data() + y * 768, 768)) << "row " << y;
  }
}

TEST(MediaImage, PngReadsBackLosslessly) {
  test_files::ScratchDir dir("media-png-roundtrip");
  std::mt19937_64 rng(11);
  const RgbImage src = noise_image(31, 17, rng);
  it_write_file(dir / "n.png", encode_image(src, ImageFormat::kPng));
  const auto back = read_image_file(dir / "n.png");
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->width, 31);
  EXPECT_EQ(back->height, 17);
  EXPECT_EQ(back->rgb, src.rgb);
}

TEST(MediaImage, JpegIsQuality85Baseline444) {
  const RgbImage& src = bundled_images().at(0);
  const std::string jpg = encode_image(src, ImageFormat::kJpeg);
  ASSERT_GT(jpg.size(), 4u);
  EXPECT_EQ(it_byte_at(jpg, 0), 0xFFu);
  EXPECT_EQ(it_byte_at(jpg, 1), 0xD8u);
  const std::string sof = it_jpeg_segment(jpg, 0xC0);  // SOF0: baseline
  ASSERT_EQ(sof.size(), 6u + 3 * 3);
  EXPECT_EQ(it_byte_at(sof, 0), 8u);
  EXPECT_EQ((it_byte_at(sof, 1) << 8) | it_byte_at(sof, 2), 256u);  // height
  EXPECT_EQ((it_byte_at(sof, 3) << 8) | it_byte_at(sof, 4), 256u);  // width
  ASSERT_EQ(it_byte_at(sof, 5), 3u);
  // Each component: id, sampling factors (h << 4 | v), table. 0x11 everywhere is 4:4:4.
  for (int c = 0; c < 3; ++c) EXPECT_EQ(it_byte_at(sof, 6 + 3 * c + 1), 0x11u) << "component " << c;
  // Quality 85 scales the standard tables by 30 %: the luminance DC step 16 becomes 5.
  const std::string dqt = it_jpeg_segment(jpg, 0xDB);
  ASSERT_GE(dqt.size(), 65u);
  EXPECT_EQ(it_byte_at(dqt, 0), 0u);  // 8-bit table 0
  EXPECT_EQ(it_byte_at(dqt, 1), 5u);
  EXPECT_EQ(it_byte_at(dqt, 2), 3u);  // 11 × 0.3, rounded
}

TEST(MediaImage, JpegReadsBackClose) {
  test_files::ScratchDir dir("media-jpeg-roundtrip");
  const RgbImage& src = bundled_images().at(0);
  it_write_file(dir / "g.jpg", encode_image(src, ImageFormat::kJpeg));
  const auto back = read_image_file(dir / "g.jpg");
  ASSERT_TRUE(back.ok()) << back.error().describe();
  ASSERT_EQ(back->width, 256);
  ASSERT_EQ(back->height, 256);
  ASSERT_EQ(back->rgb.size(), src.rgb.size());
  double err = 0;
  for (std::size_t i = 0; i < src.rgb.size(); ++i) err += std::abs(back->rgb[i] - src.rgb[i]);
  EXPECT_LT(err / static_cast<double>(src.rgb.size()), 2.0);
}

TEST(MediaImage, BundledPicturesAreFourDistinct256Squares) {
  const auto& images = bundled_images();
  ASSERT_EQ(images.size(), 4u);
  EXPECT_EQ(&images, &bundled_images());  // made once
  for (const RgbImage& img : images) {
    EXPECT_EQ(img.width, 256);
    EXPECT_EQ(img.height, 256);
    ASSERT_EQ(img.rgb.size(), 256u * 256 * 3);
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i < img.rgb.size(); i += 3) {
      colours.insert((img.rgb[i] << 16) | (img.rgb[i + 1] << 8) | img.rgb[i + 2]);
    }
    EXPECT_GE(colours.size(), 2u);
  }
  for (std::size_t i = 0; i < images.size(); ++i) {
    for (std::size_t j = i + 1; j < images.size(); ++j) EXPECT_NE(images[i].rgb, images[j].rgb);
  }
}

// PNGs libpng writes for the test: grey, and RGBA whose alpha must be dropped.
std::string it_simple_png(int width, int height, png_uint_32 format,
                          const std::vector<std::uint8_t>& px) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = format;
  png_alloc_size_t size = 0;
  EXPECT_NE(png_image_write_to_memory(&image, nullptr, &size, 0, px.data(), 0, nullptr), 0);
  std::string out(size, '\0');
  EXPECT_NE(png_image_write_to_memory(&image, out.data(), &size, 0, px.data(), 0, nullptr), 0);
  out.resize(size);
  return out;
}

TEST(MediaImage, GreyAndAlphaPngsComeOutRgb) {
  test_files::ScratchDir dir("media-png-kinds");
  it_write_file(dir / "grey.png", it_simple_png(2, 1, PNG_FORMAT_GRAY, {10, 200}));
  const auto grey = read_image_file(dir / "grey.png");
  ASSERT_TRUE(grey.ok()) << grey.error().describe();
  EXPECT_EQ(grey->rgb, (std::vector<std::uint8_t>{10, 10, 10, 200, 200, 200}));
  it_write_file(dir / "rgba.png", it_simple_png(1, 1, PNG_FORMAT_RGBA, {1, 2, 3, 255}));
  const auto rgba = read_image_file(dir / "rgba.png");
  ASSERT_TRUE(rgba.ok()) << rgba.error().describe();
  EXPECT_EQ(rgba->rgb, (std::vector<std::uint8_t>{1, 2, 3}));
}

TEST(MediaImage, ContentDecidesTheFormatNotTheName) {
  test_files::ScratchDir dir("media-png-named-jpg");
  const RgbImage src = it_grey_2x2(1, 2, 3, 4);
  it_write_file(dir / "really-a-png.jpg", encode_image(src, ImageFormat::kPng));
  const auto back = read_image_file(dir / "really-a-png.jpg");
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->rgb, src.rgb);
}

std::string it_png_header_only(std::uint32_t width, std::uint32_t height) {
  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  it_put_be32(ihdr, width);
  it_put_be32(ihdr, height);
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);
  it_put_png_chunk(png, "IHDR", ihdr);
  it_put_png_chunk(png, "IDAT", "");
  it_put_png_chunk(png, "IEND", "");
  return png;
}

TEST(MediaImage, ReadErrorsNameTheFileAndTheProblem) {
  test_files::ScratchDir dir("media-image-errors");
  const auto expect_error = [&](const std::string& name, const std::string& needle) {
    const auto r = read_image_file(dir / name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error().kind, core::ErrorKind::kInput) << name;
    EXPECT_EQ(r.error().file, (dir / name).string());
    EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
  };
  expect_error("missing.png", "cannot open");
  it_write_file(dir / "words.png", "hello, I am not a picture");
  expect_error("words.png", "not a PNG or JPEG");
  it_write_file(dir / "empty.jpg", "");
  expect_error("empty.jpg", "empty");
  it_write_file(dir / "wide.png", it_png_header_only(20000, 10));
  expect_error("wide.png", "16384");
  it_write_file(dir / "big.png", it_png_header_only(12000, 12000));
  expect_error("big.png", "100000000");
  const std::string good = encode_image(bundled_images()[1], ImageFormat::kPng);
  it_write_file(dir / "cut.png", good.substr(0, good.size() / 2));
  expect_error("cut.png", "PNG");
  // A real JPEG whose frame header claims 20000 pixels of height.
  std::string jpg = encode_image(it_grey_2x2(0, 0, 0, 0), ImageFormat::kJpeg);
  const std::size_t sof = jpg.find("\xFF\xC0");
  ASSERT_NE(sof, std::string::npos);
  jpg[sof + 5] = static_cast<char>(20000 >> 8);
  jpg[sof + 6] = static_cast<char>(20000 & 0xFF);
  it_write_file(dir / "tall.jpg", jpg);
  expect_error("tall.jpg", "16384");
  it_write_file(dir / "cut.jpg", std::string("\xFF\xD8\xFF\xE0\x00\x10JFIF", 10));
  expect_error("cut.jpg", "JPEG");
}

}  // namespace
}  // namespace inferperf::media
