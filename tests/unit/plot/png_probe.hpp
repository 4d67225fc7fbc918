// Test helper: decode a PNG (libpng) and count the pixels of given colours in a region, so a
// test can tell a chart with data drawn from an empty frame.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace inferperf::testing {

struct PngImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // 3 bytes per pixel, rows top to bottom
};

// Throws std::runtime_error when the file is not a PNG libpng can decode.
PngImage read_png(const std::string& path);

// Pixels inside the box (fractions of width and height) within `tolerance` (per channel) of any
// of the "#rrggbb" colours.
std::size_t count_colour_pixels(const PngImage& img, const std::vector<std::string>& colours,
                                double x0 = 0.05, double y0 = 0.05, double x1 = 0.95,
                                double y1 = 0.95, int tolerance = 6);

}  // namespace inferperf::testing
