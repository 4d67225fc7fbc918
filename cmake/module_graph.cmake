# The allowed dependencies between the module libraries (src/*/CMakeLists.txt): each string is one
# layer, lowest first, and a module may link only modules of lower layers. inferperf_module() checks
# its DEPS against this list at configure time; scripts/check-layering.sh checks the #includes, and
# scripts/gen-module-graph.sh writes docs/module-graph.md from it. A new module goes into the lowest
# layer above everything it links.
set(INFERPERF_MODULE_LAYERS
  "core sse"                                                                   # 0: foundations
  "records tokenizer transport health config telemetry_data artifact_names media"  # 1: on core only
  "metrics dataset timing ui telemetry plot observe"                           # 2
  "report endpoint"                                                            # 3
  "worker sweep artifacts"                                                     # 4
  "app"                                                                        # 5: the commands
)
# Known links against the layering, as "from>to" ("config>metrics"), each with a comment saying
# why; the one place such a debt may be written down. None today.
set(INFERPERF_MODULE_LINK_EXCEPTIONS "")
# inferperf_* targets that are no module (interface targets for third-party flags): the only ones a
# module may link besides the modules of lower layers.
set(INFERPERF_NON_MODULE_TARGETS asio warnings)

# The layer of module `name` (without the inferperf_ prefix) in `out`; -1 when it has none.
function(inferperf_module_layer name out)
  set(index 0)
  foreach(layer IN LISTS INFERPERF_MODULE_LAYERS)
    string(REPLACE " " ";" members "${layer}")
    if(name IN_LIST members)
      set(${out} ${index} PARENT_SCOPE)
      return()
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} -1 PARENT_SCOPE)
endfunction()

# Fails the configuration when module `name` links a module of its own layer or a higher one.
function(inferperf_check_module_layer name)
  inferperf_module_layer(${name} own)
  if(own EQUAL -1)
    message(FATAL_ERROR "module graph: module '${name}' is in no layer of cmake/module_graph.cmake; "
                        "add it to the lowest layer above every module it links")
  endif()
  foreach(dep IN LISTS ARGN)
    if(NOT dep MATCHES "^inferperf_(.+)$")
      continue()
    endif()
    set(to ${CMAKE_MATCH_1})
    inferperf_module_layer(${to} layer)
    if(layer EQUAL -1 AND NOT to IN_LIST INFERPERF_NON_MODULE_TARGETS)
      message(FATAL_ERROR "module graph: inferperf_${name} links inferperf_${to}, which is neither "
                          "a module of cmake/module_graph.cmake nor one of "
                          "INFERPERF_NON_MODULE_TARGETS")
    endif()
    if(layer EQUAL -1 OR "${name}>${to}" IN_LIST INFERPERF_MODULE_LINK_EXCEPTIONS)
      continue()  # an interface target (inferperf_asio), or a known exception
    endif()
    if(NOT layer LESS own)
      message(FATAL_ERROR "module graph: inferperf_${name} (layer ${own}) links inferperf_${to} "
                          "(layer ${layer}); a module may link only modules of lower layers "
                          "(cmake/module_graph.cmake, docs/architecture.md)")
    endif()
  endforeach()
endfunction()
