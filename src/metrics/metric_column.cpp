#include "metrics/metric_column.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace inferperf::metrics {

namespace {

// Values read back per system call.
constexpr std::size_t kChunkValues = 64 * 1024;

// TMPDIR when it names a folder, else /tmp.
std::filesystem::path temporary_folder() {
  std::error_code ec;
  auto dir = std::filesystem::temp_directory_path(ec);
  return ec ? std::filesystem::path("/tmp") : dir;
}

int open_scratch_file(const std::filesystem::path& folder) {
  std::string name = folder / "inferperf-column-XXXXXX";
  const int fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) unlink(name.c_str());  // gone with the descriptor, whatever way the process ends
  return fd;
}

}  // namespace

ColumnScratch::~ColumnScratch() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::size_t> ColumnScratch::append(const void* data, std::size_t n) {
  if (fd_ < 0) fd_ = open_scratch_file(folder_ ? *folder_ : temporary_folder());
  if (fd_ < 0) return std::nullopt;
  const auto* p = static_cast<const char*>(data);
  std::size_t at = end_;
  for (std::size_t left = n; left > 0;) {
    const ssize_t w = ::pwrite(fd_, p, left, static_cast<off_t>(at));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return std::nullopt;
    p += w;
    left -= static_cast<std::size_t>(w);
    at += static_cast<std::size_t>(w);
  }
  const std::size_t offset = end_;
  end_ = at;
  return offset;
}

void ColumnScratch::read(void* out, std::size_t n, std::size_t offset) const {
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    const ssize_t r = ::pread(fd_, p, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      throw std::runtime_error(std::string("cannot read back a metric column's scratch file: ") +
                               (r < 0 ? std::strerror(errno) : "unexpected end of file"));
    }
    p += r;
    n -= static_cast<std::size_t>(r);
    offset += static_cast<std::size_t>(r);
  }
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

bool MetricColumn::spill(const std::shared_ptr<ColumnScratch>& scratch) {
  const std::size_t n = held_values();
  if (n == 0) return true;
  const auto offset = wide_ ? scratch->append(doubles_.data(), n * sizeof(double))
                            : scratch->append(floats_.data(), n * sizeof(float));
  if (!offset) return false;
  scratch_ = scratch;
  runs_.push_back({*offset, n, wide_});
  spilled_ += n;
  std::vector<float>().swap(floats_);
  std::vector<double>().swap(doubles_);
  return true;
}

template <class Fn>
void MetricColumn::for_each_spilled(Fn&& fn) const {
  std::vector<double> buffer;
  std::vector<float> narrow;
  for (const Run& run : runs_) {
    std::size_t offset = run.offset;
    for (std::size_t left = run.count; left > 0;) {
      const std::size_t k = std::min(left, kChunkValues);
      buffer.resize(k);
      if (run.wide) {
        scratch_->read(buffer.data(), k * sizeof(double), offset);
        offset += k * sizeof(double);
      } else {
        narrow.resize(k);
        scratch_->read(narrow.data(), k * sizeof(float), offset);
        std::copy(narrow.begin(), narrow.end(), buffer.begin());
        offset += k * sizeof(float);
      }
      left -= k;
      fn(buffer.data(), k);
    }
  }
}

void MetricColumn::visit(const std::function<void(const double*, std::size_t)>& fn) const {
  for_each_spilled(fn);
  if (wide_) {
    if (!doubles_.empty()) fn(doubles_.data(), doubles_.size());
    return;
  }
  std::vector<double> buffer;
  for (std::size_t at = 0; at < floats_.size(); at += kChunkValues) {
    const std::size_t k = std::min(floats_.size() - at, kChunkValues);
    buffer.assign(floats_.begin() + static_cast<std::ptrdiff_t>(at),
                  floats_.begin() + static_cast<std::ptrdiff_t>(at + k));
    fn(buffer.data(), k);
  }
}

std::vector<double> MetricColumn::values() const {
  std::vector<double> out;
  out.reserve(size());
  visit([&](const double* v, std::size_t k) { out.insert(out.end(), v, v + k); });
  return out;
}

double MetricColumn::sum() const {
  // In order and in double, as std::accumulate over values() would: the same sum, no copy.
  double total = 0.0;
  visit([&](const double* v, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) total += v[i];
  });
  return total;
}

void MetricColumn::clear() {
  std::vector<float>().swap(floats_);
  std::vector<double>().swap(doubles_);
  wide_ = false;
  scratch_.reset();
  std::vector<Run>().swap(runs_);
  spilled_ = 0;
}

}  // namespace inferperf::metrics
