#include "metrics/metric_column.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace inferperf::metrics {

namespace {

// A spilled run: how many values follow and their width (4: floats, 8: doubles).
struct RunHeader {
  std::uint64_t count;
  std::uint64_t width;
};

// Values read back per system call.
constexpr std::size_t kChunkValues = 64 * 1024;

int open_scratch_file() {
  std::error_code ec;
  const auto dir = std::filesystem::temp_directory_path(ec);
  std::string name = (ec ? std::filesystem::path("/tmp") : dir) / "inferperf-column-XXXXXX";
  const int fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) unlink(name.c_str());  // gone with the descriptor, whatever way the process ends
  return fd;
}

// Writes at `offset` (advanced past what was written): a failed spill leaves its partial run
// beyond the file's used length, where the next spill writes over it and no read looks.
bool write_all(int fd, const void* data, std::size_t n, std::size_t& offset) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
    offset += static_cast<std::size_t>(w);
  }
  return true;
}

void read_all(int fd, void* data, std::size_t n, std::size_t offset) {
  auto* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw std::runtime_error("cannot read back a metric column's scratch file");
    p += r;
    n -= static_cast<std::size_t>(r);
    offset += static_cast<std::size_t>(r);
  }
}

}  // namespace

MetricColumn::~MetricColumn() {
  if (fd_ >= 0) ::close(fd_);
}

MetricColumn::MetricColumn(MetricColumn&& other) noexcept
    : wide_(other.wide_),
      floats_(std::move(other.floats_)),
      doubles_(std::move(other.doubles_)),
      fd_(std::exchange(other.fd_, -1)),
      spilled_(std::exchange(other.spilled_, 0)),
      file_bytes_(std::exchange(other.file_bytes_, 0)) {}

MetricColumn& MetricColumn::operator=(MetricColumn&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    wide_ = other.wide_;
    floats_ = std::move(other.floats_);
    doubles_ = std::move(other.doubles_);
    fd_ = std::exchange(other.fd_, -1);
    spilled_ = std::exchange(other.spilled_, 0);
    file_bytes_ = std::exchange(other.file_bytes_, 0);
  }
  return *this;
}

void MetricColumn::reserve(std::size_t n) {
  if (wide_) {
    doubles_.reserve(n);
  } else {
    floats_.reserve(n);
  }
}

void MetricColumn::push(double x) {
  if (!wide_) {
    const auto f = static_cast<float>(x);
    // Bit-exact round trips only (NaN never compares equal, so it widens: still exact).
    if (static_cast<double>(f) == x && (x != 0 || std::signbit(f) == std::signbit(x))) {
      floats_.push_back(f);
      return;
    }
    wide_ = true;
    doubles_.reserve(std::max(floats_.capacity(), floats_.size() + 1));
    doubles_.assign(floats_.begin(), floats_.end());
    std::vector<float>().swap(floats_);
  }
  doubles_.push_back(x);
}

bool MetricColumn::spill() {
  const std::size_t n = held_values();
  if (n == 0) return true;
  if (fd_ < 0) fd_ = open_scratch_file();
  if (fd_ < 0) return false;
  const RunHeader header{n, wide_ ? 8u : 4u};
  std::size_t end = file_bytes_;
  const bool written = write_all(fd_, &header, sizeof header, end) &&
                       (wide_ ? write_all(fd_, doubles_.data(), n * sizeof(double), end)
                              : write_all(fd_, floats_.data(), n * sizeof(float), end));
  if (!written) return false;  // the values stay in memory; the file's used length is unchanged
  file_bytes_ = end;
  spilled_ += n;
  std::vector<float>().swap(floats_);
  std::vector<double>().swap(doubles_);
  return true;
}

template <class Fn>
void MetricColumn::for_each_spilled(Fn&& fn) const {
  std::vector<double> buffer;
  std::vector<float> narrow;
  std::size_t offset = 0;
  while (offset < file_bytes_) {
    RunHeader header{};
    read_all(fd_, &header, sizeof header, offset);
    offset += sizeof header;
    for (std::uint64_t left = header.count; left > 0;) {
      const std::size_t k = std::min<std::size_t>(left, kChunkValues);
      buffer.resize(k);
      if (header.width == 8) {
        read_all(fd_, buffer.data(), k * sizeof(double), offset);
      } else {
        narrow.resize(k);
        read_all(fd_, narrow.data(), k * sizeof(float), offset);
        std::copy(narrow.begin(), narrow.end(), buffer.begin());
      }
      offset += k * header.width;
      left -= k;
      fn(buffer.data(), k);
    }
  }
}

std::vector<double> MetricColumn::values() const {
  std::vector<double> out;
  out.reserve(size());
  for_each_spilled([&](const double* v, std::size_t k) { out.insert(out.end(), v, v + k); });
  if (wide_) {
    out.insert(out.end(), doubles_.begin(), doubles_.end());
  } else {
    out.insert(out.end(), floats_.begin(), floats_.end());
  }
  return out;
}

double MetricColumn::sum() const {
  // In order and in double, as std::accumulate over values() would: the same sum, no copy.
  double total = 0.0;
  for_each_spilled([&](const double* v, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) total += v[i];
  });
  if (wide_) {
    for (double x : doubles_) total += x;
  } else {
    for (float x : floats_) total += static_cast<double>(x);
  }
  return total;
}

void MetricColumn::clear() {
  std::vector<float>().swap(floats_);
  std::vector<double>().swap(doubles_);
  wide_ = false;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  spilled_ = 0;
  file_bytes_ = 0;
}

}  // namespace inferperf::metrics
