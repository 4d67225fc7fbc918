# Project-wide warning flags applied to every inferperf target.
add_library(inferperf_warnings INTERFACE)
target_compile_options(inferperf_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough -Wno-missing-field-initializers
  # GCC 12 reports false positives for std::string copies (-Wrestrict, GCC bug 105329); clang
  # (the fuzz preset) has no such option.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
