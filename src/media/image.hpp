// Pictures for synthetic image inputs (AIPerf 0.11 §1.13): random noise, the bundled pictures, a
// user's folder, resized to the drawn size and encoded as PNG or JPEG.
#pragma once
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace inferperf::media {

// 8-bit RGB, 3 bytes per pixel, rows top to bottom.
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;
};

enum class ImageFormat { kPng, kJpeg };

// "image/png" | "image/jpeg".
std::string_view image_mime_type(ImageFormat f);
// "png" | "jpeg".
std::string_view image_format_name(ImageFormat f);

// Every pixel an independent uniform random RGB triple (AIPerf's `noise` source).
RgbImage noise_image(int width, int height, std::mt19937_64& rng);

// Bilinear resampling to width × height (both >= 1).
RgbImage resize_image(const RgbImage& src, int width, int height);

// PNG: 8-bit RGB, zlib level 6, no filter search. JPEG: quality 85, no chroma subsampling (4:4:4),
// RGB input. These are the settings AIPerf 0.11 encodes with.
std::string encode_image(const RgbImage& image, ImageFormat format);

// The `assets` source: four pictures drawn by this code (docs/decisions.md, "Bundled pictures"),
// made once on first use and shared read-only afterwards.
const std::vector<RgbImage>& bundled_images();

// Decodes a PNG or JPEG file to RGB (grey and palette images are expanded, alpha dropped). The
// error names the file and what is wrong with it.
core::Result<RgbImage> read_image_file(const std::filesystem::path& p);

}  // namespace inferperf::media
