#include "png_probe.hpp"

#include <png.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace inferperf::testing {

PngImage read_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw std::runtime_error(path + ": " + image.message);
  image.format = PNG_FORMAT_RGB;
  PngImage out;
  out.width = static_cast<int>(image.width);
  out.height = static_cast<int>(image.height);
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr)) {
    const std::string msg = image.message;
    png_image_free(&image);
    throw std::runtime_error(path + ": " + msg);
  }
  return out;
}

std::size_t count_colour_pixels(const PngImage& img, const std::vector<std::string>& colours,
                                double x0, double y0, double x1, double y1, int tolerance) {
  std::vector<std::array<int, 3>> want;
  for (const auto& c : colours) {
    const long v = std::strtol(c.c_str() + 1, nullptr, 16);
    want.push_back({static_cast<int>((v >> 16) & 255), static_cast<int>((v >> 8) & 255),
                    static_cast<int>(v & 255)});
  }
  std::size_t n = 0;
  const int xa = static_cast<int>(x0 * img.width), xb = static_cast<int>(x1 * img.width);
  const int ya = static_cast<int>(y0 * img.height), yb = static_cast<int>(y1 * img.height);
  for (int y = ya; y < yb; ++y)
    for (int x = xa; x < xb; ++x) {
      const auto* p = &img.rgb[(static_cast<std::size_t>(y) * img.width + x) * 3];
      for (const auto& w : want)
        if (std::abs(p[0] - w[0]) <= tolerance && std::abs(p[1] - w[1]) <= tolerance &&
            std::abs(p[2] - w[2]) <= tolerance) {
          ++n;
          break;
        }
    }
  return n;
}

}  // namespace inferperf::testing
