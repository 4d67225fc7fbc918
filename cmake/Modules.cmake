# inferperf_module(NAME SOURCES ... DEPS ...): one static library per src/<module>.
function(inferperf_module name)
  cmake_parse_arguments(M "" "" "SOURCES;DEPS" ${ARGN})
  inferperf_check_module_layer(${name} ${M_DEPS})  # cmake/module_graph.cmake
  add_library(inferperf_${name} STATIC ${M_SOURCES})
  target_include_directories(inferperf_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(inferperf_${name} PUBLIC ${M_DEPS} PRIVATE inferperf_warnings)
endfunction()

# Test code is compiled without optimisation in every tree, and without UBSan's checks in the
# ASan+UBSan tree (the code under test keeps the tree's flags): at -O3 the release tree's test
# files cost about two and a half times the CPU of -O0, UBSan about 1.6 times that of ASan alone,
# and nothing a test file does itself needs either (docs/decisions.md, "CI time").
function(inferperf_test_code target)
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    target_compile_options(${target} PRIVATE -O0)
  endif()
  if(INFERPERF_SANITIZE)
    target_compile_options(${target} PRIVATE -fno-sanitize=undefined)
  endif()
endfunction()

# inferperf_test(NAME LABEL SOURCES ... DEPS ... [TIMEOUT S] [RUN_SERIAL]): one GoogleTest binary
# registered with CTest. RUN_SERIAL: its tests run with nothing else beside them (timing-sensitive).
function(inferperf_test name label)
  cmake_parse_arguments(T "RUN_SERIAL" "TIMEOUT" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  inferperf_test_code(${name})
  target_link_libraries(${name} PRIVATE ${T_DEPS} GTest::gtest GTest::gtest_main GTest::gmock inferperf_warnings)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(INFERPERF_SANITIZE OR INFERPERF_TSAN)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * 3")
  endif()
  set(serial "")
  if(T_RUN_SERIAL)
    set(serial RUN_SERIAL TRUE)
  endif()
  gtest_discover_tests(${name} PROPERTIES LABELS ${label} TIMEOUT ${T_TIMEOUT} ${serial}
                       DISCOVERY_TIMEOUT 60)
endfunction()
