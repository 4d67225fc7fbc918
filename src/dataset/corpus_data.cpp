// The corpus bytes are linked in with .incbin: no run-time file lookup, and no multi-megabyte
// generated array for the compiler to chew through. INFERPERF_CORPUS_FILE is set by CMake.
#include <string_view>

#include "dataset/corpus.hpp"

#ifndef INFERPERF_CORPUS_FILE
#error "INFERPERF_CORPUS_FILE must name the corpus text"
#endif

__asm__(
    ".section .rodata\n"
    ".balign 16\n"
    ".globl inferperf_corpus_begin\n"
    ".globl inferperf_corpus_end\n"
    ".hidden inferperf_corpus_begin\n"
    ".hidden inferperf_corpus_end\n"
    "inferperf_corpus_begin:\n"
    ".incbin \"" INFERPERF_CORPUS_FILE
    "\"\n"
    "inferperf_corpus_end:\n"
    ".byte 0\n"
    ".previous\n");

extern "C" const char inferperf_corpus_begin[];
extern "C" const char inferperf_corpus_end[];

namespace inferperf::dataset {

std::string_view builtin_corpus_text() {
  return {inferperf_corpus_begin,
          static_cast<std::size_t>(inferperf_corpus_end - inferperf_corpus_begin)};
}

}  // namespace inferperf::dataset
