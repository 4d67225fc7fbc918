#include "core/env_int.hpp"

#include <cerrno>
#include <cstdlib>

namespace inferperf::core {

EnvInt env_int(const char* name, std::int64_t min, std::int64_t max) {
  const char* v = std::getenv(name);
  if (!v || !*v) return {};
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || errno == ERANGE || n < min || n > max) return {EnvInt::State::kInvalid, 0};
  return {EnvInt::State::kValid, static_cast<std::int64_t>(n)};
}

}  // namespace inferperf::core
