// The pictures of the `assets` image source, drawn here rather than shipped as files: the binary
// stays self-contained and every picture is ours to use.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "media/image.hpp"

namespace inferperf::media {

namespace {

constexpr int kAssetSide = 256;

struct AssetRgb {
  std::uint8_t r, g, b;
};

RgbImage asset_draw(const std::function<AssetRgb(int x, int y)>& pixel) {
  RgbImage img{kAssetSide, kAssetSide, {}};
  img.rgb.reserve(static_cast<std::size_t>(kAssetSide) * kAssetSide * 3);
  for (int y = 0; y < kAssetSide; ++y) {
    for (int x = 0; x < kAssetSide; ++x) {
      const AssetRgb c = pixel(x, y);
      img.rgb.insert(img.rgb.end(), {c.r, c.g, c.b});
    }
  }
  return img;
}

std::uint8_t asset_byte(double v) {
  return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

// A fully saturated colour around the hue circle, `turn` in [0, 1).
AssetRgb asset_hue(double turn) {
  const double h = (turn - std::floor(turn)) * 6.0;
  const double rise = h - std::floor(h);
  const double up = 255.0 * rise;
  const double down = 255.0 * (1.0 - rise);
  switch (static_cast<int>(h)) {
    case 0:
      return {255, asset_byte(up), 0};
    case 1:
      return {asset_byte(down), 255, 0};
    case 2:
      return {0, 255, asset_byte(up)};
    case 3:
      return {0, asset_byte(down), 255};
    case 4:
      return {asset_byte(up), 0, 255};
    default:
      return {255, 0, asset_byte(down)};
  }
}

// Red across, green down, blue fading towards the lower right.
RgbImage asset_gradient() {
  return asset_draw([](int x, int y) {
    return AssetRgb{static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y),
                    static_cast<std::uint8_t>(255 - (x + y) / 2)};
  });
}

// An 8 × 8 board of orange and navy squares.
RgbImage asset_checkerboard() {
  return asset_draw([](int x, int y) {
    const bool light = ((x / 32) + (y / 32)) % 2 == 0;
    return light ? AssetRgb{240, 150, 30} : AssetRgb{20, 30, 90};
  });
}

// Rainbow rings 16 px wide around the centre, on white beyond the outermost ring.
RgbImage asset_rings() {
  return asset_draw([](int x, int y) {
    const double dx = x + 0.5 - kAssetSide / 2.0;
    const double dy = y + 0.5 - kAssetSide / 2.0;
    const int ring = static_cast<int>(std::hypot(dx, dy) / 16.0);
    if (ring >= 8) return AssetRgb{250, 250, 250};
    return asset_hue(ring / 8.0);
  });
}

// A yellow sun with a dark rim over sky-blue diagonal stripes.
RgbImage asset_sun() {
  return asset_draw([](int x, int y) {
    const double r = std::hypot(x + 0.5 - 170.0, y + 0.5 - 86.0);
    if (r < 52.0) return AssetRgb{255, 215, 40};
    if (r < 58.0) return AssetRgb{200, 90, 20};
    const bool stripe = ((x + y) / 24) % 2 == 0;
    return stripe ? AssetRgb{110, 180, 235} : AssetRgb{40, 100, 170};
  });
}

}  // namespace

const std::vector<RgbImage>& bundled_images() {
  static const std::vector<RgbImage> images = {asset_gradient(), asset_checkerboard(),
                                               asset_rings(), asset_sun()};
  return images;
}

}  // namespace inferperf::media
