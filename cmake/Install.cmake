# `cmake --install` and the Debian package (`cpack -G DEB`), included by the top-level
# CMakeLists.txt in every tree except the fuzz one. What is installed (docs/deploy.md, Package):
#
#   bin/inferperf, bin/inferperf-mock-server
#   share/inferperf/tokenizers/builtin/        the builtin tokenizer, where the binary looks for it
#                                              (<binary dir>/../share/inferperf/tokenizers/builtin)
#   share/man/man1/inferperf.1.gz              manual pages generated from --help
#   share/man/man1/inferperf-mock-server.1.gz  (scripts/gen-man.sh)
#   share/bash-completion/completions/NAME     bash and zsh completion generated from --help
#   share/zsh/vendor-completions/_NAME         (scripts/gen-completions.sh)
#   share/doc/inferperf/README.md, docs/*.md
#
# The manual pages and completions are made in the build tree (under share/, beside the builtin
# tokenizer) each time a binary is relinked: a few seconds, part of the default target.
include(GNUInstallDirs)

# The binary finds its data relative to itself: bin/ and share/ must be siblings.
if(NOT CMAKE_INSTALL_BINDIR STREQUAL "bin" OR NOT CMAKE_INSTALL_DATADIR STREQUAL "share")
  message(WARNING "CMAKE_INSTALL_BINDIR=${CMAKE_INSTALL_BINDIR} CMAKE_INSTALL_DATADIR="
                  "${CMAKE_INSTALL_DATADIR}: the installed inferperf looks for its builtin "
                  "tokenizer in <binary dir>/../share/inferperf/tokenizers/builtin")
endif()

install(TARGETS inferperf inferperf-mock-server RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# src/tokenizer/CMakeLists.txt copies the builtin tokenizer into the build tree at configure time.
set(INFERPERF_BUILTIN_TREE ${PROJECT_BINARY_DIR}/share/inferperf/tokenizers/builtin)
if(EXISTS ${INFERPERF_BUILTIN_TREE}/tokenizer.json)
  install(DIRECTORY ${INFERPERF_BUILTIN_TREE}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/inferperf/tokenizers)
endif()

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")

# Manual page and completion files of one program, generated from its --help after it is linked
# (sanitizer trees run it too: leak checking is off for these runs).
set(INFERPERF_GENERATED_SHELL_FILES "")
function(inferperf_help_files target see_also)
  set(man ${PROJECT_BINARY_DIR}/share/man/man1/${target}.1.gz)
  set(bash ${PROJECT_BINARY_DIR}/share/bash-completion/completions/${target})
  set(zsh ${PROJECT_BINARY_DIR}/share/zsh/vendor-completions/_${target})
  set(run ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 bash)
  set(common ${PROJECT_SOURCE_DIR}/scripts/help-table.sh)
  add_custom_command(
    OUTPUT ${man}
    COMMAND ${run} ${PROJECT_SOURCE_DIR}/scripts/gen-man.sh $<TARGET_FILE:${target}> ${man} ${see_also}
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/scripts/gen-man.sh ${common}
    COMMENT "Generating the manual page of ${target} from its --help"
    VERBATIM)
  add_custom_command(
    OUTPUT ${bash} ${zsh}
    COMMAND ${run} ${PROJECT_SOURCE_DIR}/scripts/gen-completions.sh $<TARGET_FILE:${target}> ${bash} ${zsh}
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/scripts/gen-completions.sh ${common}
    COMMENT "Generating the bash and zsh completion of ${target} from its --help"
    VERBATIM)
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${bash} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${zsh} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  set(INFERPERF_GENERATED_SHELL_FILES ${INFERPERF_GENERATED_SHELL_FILES} ${man} ${bash} ${zsh}
      PARENT_SCOPE)
endfunction()
inferperf_help_files(inferperf "inferperf-mock-server(1)")
inferperf_help_files(inferperf-mock-server "inferperf(1)")
add_custom_target(inferperf_help_files ALL DEPENDS ${INFERPERF_GENERATED_SHELL_FILES})

# The Debian package: cmake --build --preset release && (cd build/release && cpack -G DEB).
set(INFERPERF_PACKAGE_MAINTAINER "inferperf maintainers <inferperf@localhost>"
    CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME inferperf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR inferperf)
set(CPACK_PACKAGE_CONTACT "${INFERPERF_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "native LLM inference benchmarking client (AIPerf-compatible)")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "inferperf measures OpenAI-compatible inference servers (vLLM, SGLang, TensorRT-LLM, NIM,
Dynamo, llama.cpp): time to first token, inter-token latency, throughput and goodput under
closed-loop concurrency, open-loop request rates, traces and multi-turn sessions. It accepts
NVIDIA AIPerf 0.11's profile options and writes the same artifact files.

The package has the inferperf client, the inferperf-mock-server test server, the builtin
tokenizer, manual pages, and bash and zsh completion.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${INFERPERF_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries' packages come from dpkg-shlibdeps (dpkg-dev) and are added to these.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ca-certificates")
# `inferperf plot` draws PNG and SVG charts with gnuplot in the font its charts name.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/" "/\\\\.cache/" "/artifacts/" "/node_modules/")
include(CPack)
