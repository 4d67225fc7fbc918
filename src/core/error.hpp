// Error values for fallible setup code; only main() turns them into messages and exit codes.
#pragma once
#include <string>
#include <variant>
#include <vector>

namespace inferperf::core {

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
  T* operator->() { return &value(); }
  const Error& error() const { return std::get<Error>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace inferperf::core
