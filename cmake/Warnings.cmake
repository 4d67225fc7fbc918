# Project-wide warning flags applied to every inferperf target.
add_library(inferperf_warnings INTERFACE)
target_compile_options(inferperf_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Wno-missing-field-initializers)
