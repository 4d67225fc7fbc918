// Error values for fallible setup code; only main() turns them into messages and exit codes.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace inferperf::core {

// The most of an offending input an error message quotes, in bytes.
inline constexpr std::size_t kMaxExcerptBytes = 200;

// `text` as an error message quotes it: whole when it fits in `max_bytes`, else its first bytes
// up to a UTF-8 character boundary and "... (N bytes)", so a 200 MB line costs 200 bytes of
// stderr. Control characters become '?' so the excerpt cannot move the terminal's cursor.
std::string excerpt(std::string_view text, std::size_t max_bytes = kMaxExcerptBytes);

enum class ErrorKind { kConfig, kInput, kIo, kNetwork, kRun };

struct Error {
  ErrorKind kind = ErrorKind::kRun;
  std::string message;
  std::string file;  // input file the problem is in, if any
  int line = 0;      // 1-based line in that file, 0 when not applicable
  std::string field;

  std::string describe() const;
};

template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error e) : v_(std::move(e)) {}      // NOLINT(google-explicit-constructor)
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<Error>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace inferperf::core
