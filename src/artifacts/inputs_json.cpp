#include "artifacts/inputs_json.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string_view>

#include "artifacts/run_folder.hpp"

namespace inferperf::artifacts {

namespace fs = std::filesystem;

namespace {

struct InputsFileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

// `text` (a dump at indent 2) indented by `pad` more spaces, as it sits inside the document.
void append_indented(std::string& out, const std::string& text, std::string_view pad) {
  out.append(pad);
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    out.append(text, start, nl + 1 - start);
    out.append(pad);
  }
  out.append(text, start, std::string::npos);
}

fs::path inputs_tmp_path(const fs::path& path) {
  return fs::path(path.string() + ".tmp");
}

}  // namespace

std::optional<std::uint64_t> free_bytes_at(const fs::path& dir) {
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(st.f_bavail) * static_cast<std::uint64_t>(st.f_frsize);
}

core::Result<bool> reserve_inputs_json(const fs::path& path, std::uint64_t bytes) {
  const fs::path tmp = inputs_tmp_path(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return core::Error{core::ErrorKind::kIo, "cannot be written", path.string(), 0, ""};
  // fallocate(2), not posix_fallocate: where the file system cannot reserve, glibc's emulation
  // would write every block, on the way to the first request.
  const int rc = bytes > 0 && ::fallocate(fd, 0, 0, static_cast<off_t>(bytes)) != 0 ? errno : 0;
  ::close(fd);
  if (rc == 0) return true;
  std::error_code ec;
  fs::remove(tmp, ec);
  if (rc == ENOSPC || rc == EDQUOT || rc == EFBIG)
    return core::Error{core::ErrorKind::kIo, kInputsNoRoom + std::string(std::strerror(rc)),
                       path.string(), 0, ""};
  return false;  // nothing reserved (EOPNOTSUPP...): written as it comes
}

core::Result<InputsJsonStats> write_inputs_json(
    const fs::path& path, std::size_t conversations,
    const std::function<InputsEntry(std::size_t)>& entry_of, const InputsJsonWrite& how) {
  const fs::path tmp = inputs_tmp_path(path);
  auto io_error = [&](const std::string& what) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return core::Error{core::ErrorKind::kIo, what, path.string(), 0, ""};
  };
  // A reserved file is written over from its start (its blocks stay allocated) and cut to size.
  std::unique_ptr<std::FILE, InputsFileCloser> f(
      std::fopen(tmp.c_str(), how.reserved ? "r+b" : "wb"));
  if (!f) return io_error("cannot be written");
  InputsJsonStats stats;
  std::string chunk = "{\n  \"data\": [";
  for (std::size_t i = 0; i < conversations; ++i) {
    if (how.cancel && how.cancel->load(std::memory_order_relaxed)) return io_error("not finished");
    InputsEntry e = entry_of(i);
    nlohmann::ordered_json entry;
    entry["session_id"] = std::move(e.session_id);
    stats.payloads += e.payloads.size();
    entry["payloads"] = std::move(e.payloads);
    chunk += i == 0 ? "\n" : ",\n";
    append_indented(chunk, entry.dump(2, ' ', false, nlohmann::json::error_handler_t::replace),
                    "    ");
    if (chunk.size() > (1u << 20) || i + 1 == conversations) {
      if (std::fwrite(chunk.data(), 1, chunk.size(), f.get()) != chunk.size())
        return io_error("write failed (disk full?)");
      stats.bytes += chunk.size();
      chunk.clear();
    }
    ++stats.conversations;
  }
  chunk += conversations == 0 ? "]\n}" : "\n  ]\n}";
  if (std::fwrite(chunk.data(), 1, chunk.size(), f.get()) != chunk.size() ||
      std::fflush(f.get()) != 0)
    return io_error("write failed (disk full?)");
  stats.bytes += chunk.size();
  if (how.reserved && ::ftruncate(fileno(f.get()), static_cast<off_t>(stats.bytes)) != 0)
    return io_error("write failed (disk full?)");
  if (std::fclose(f.release()) != 0) return io_error("write failed (disk full?)");
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return io_error("cannot be renamed into place: " + ec.message());
  return stats;
}

core::Result<std::vector<InputsEntry>> read_inputs_json(const fs::path& dir) {
  const fs::path inputs = dir / kInputsFileName;
  std::ifstream in(inputs);
  if (!in) return core::Error{core::ErrorKind::kIo, "cannot be read", inputs.string()};
  const auto doc = nlohmann::ordered_json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.contains("data") || !doc["data"].is_array())
    return core::Error{core::ErrorKind::kInput, "not an inputs.json document", inputs.string()};
  std::vector<InputsEntry> entries;
  for (const auto& entry : doc["data"]) {
    InputsEntry e;
    e.session_id = entry.value("session_id", "");
    if (auto p = entry.find("payloads"); p != entry.end() && p->is_array()) e.payloads = *p;
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace inferperf::artifacts
