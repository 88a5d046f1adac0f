# Every Emscripten-specific build setting, in one place (Debian's emscripten 3.1.6).

# emcc runs acorn with the machine's Node, which does not look in Debian's module folder.
set(CMAKE_C_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)

# Exceptions are caught (nlohmann-json and std::bad_alloc must become a message, not an abort),
# with WebAssembly's own exception handling: JavaScript-emulated exceptions (-fexceptions) wrap
# every call that may throw in an invoke_* import, which made the wasm ~40% larger and slower.
add_compile_options(-fwasm-exceptions -msimd128)
add_link_options(-fwasm-exceptions)

# The C functions the page may call: every EMSCRIPTEN_KEEPALIVE function of the bridge
# (src/platform/web_bridge.cpp), read from the bridge at configure time, so EXPORTED_FUNCTIONS
# cannot drift from it; CMake configures again whenever the bridge or web/lab.js changes. Every
# attnlab_* function web/lab.js wraps must be one of them, or configuring stops with a message.
function(attnlab_bridge_exports out_var)
  set(bridge "${CMAKE_SOURCE_DIR}/src/platform/web_bridge.cpp")
  set(page "${CMAKE_SOURCE_DIR}/web/lab.js")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${bridge}" "${page}")
  file(READ "${bridge}" code)
  string(REGEX MATCHALL "EMSCRIPTEN_KEEPALIVE[^(;{}]*\\(" decls "${code}")
  set(names "")
  foreach(decl IN LISTS decls)
    if(NOT decl MATCHES "[ \t\n*&]([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\($")
      message(FATAL_ERROR "${bridge}: cannot read a function name in \"${decl}\" "
                          "(write EMSCRIPTEN_KEEPALIVE <return type> <name>(...) inside extern \"C\")")
    endif()
    list(APPEND names "${CMAKE_MATCH_1}")
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "${bridge} defines no EMSCRIPTEN_KEEPALIVE function: the page could call nothing")
  endif()
  file(READ "${page}" js)
  string(REGEX MATCHALL "cwrap\\('attnlab_[A-Za-z0-9_]+'" wrapped "${js}")
  foreach(call IN LISTS wrapped)
    string(REGEX REPLACE "^cwrap\\('(.*)'$" "\\1" name "${call}")
    if(NOT name IN_LIST names)
      list(JOIN names ", " listed)
      message(FATAL_ERROR "web/lab.js wraps ${name}, but ${bridge} has no EMSCRIPTEN_KEEPALIVE function "
                          "of that name (the bridge's functions: ${listed})")
    endif()
  endforeach()
  list(TRANSFORM names PREPEND "_")
  list(JOIN names "," exports)
  set(exports "_main,${exports}")
  file(WRITE "${CMAKE_BINARY_DIR}/exported_functions.txt" "${exports}\n")  # for a reader
  message(STATUS "Exported C functions (from the bridge): ${exports}")
  set(${out_var} "${exports}" PARENT_SCOPE)
endfunction()

function(attnlab_configure_web_target target)
  attnlab_bridge_exports(exported_functions)
  set(site "${CMAKE_BINARY_DIR}/site")
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME index SUFFIX ".js"           # index.js + index.wasm; the page is ours (web/)
    RUNTIME_OUTPUT_DIRECTORY "${site}")
  target_link_options(${target} PRIVATE
    -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2   # GLSL "#version 300 es"
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432
    -sMODULARIZE=1 -sEXPORT_NAME=createAttentionLab               # no globals but the factory
    -sENVIRONMENT=web
    -sDYNAMIC_EXECUTION=0                                         # no eval: strict CSP is fine
    -sFILESYSTEM=0                                                # no files: a smaller glue
    -sEXPORTED_FUNCTIONS=${exported_functions}                   # read from the bridge (above)
    -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString
    $<$<CONFIG:Debug>:-sASSERTIONS=2>)
  # The interface (Dear ImGui, the panels, the platform layer) is most of the code and none of
  # the hot loops: compiled for size. The engine, the JSON and the app keep -O3 (training speed).
  target_compile_options(${target} PRIVATE -Os)
  target_compile_options(attnlab_imgui PRIVATE -Os)
  # The page, its script and styles sit next to index.js; copied whenever one of them changes
  # (not only when the wasm relinks).
  file(GLOB web_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/web/*")
  set(copied "")
  foreach(f IN LISTS web_files)
    get_filename_component(name "${f}" NAME)
    add_custom_command(OUTPUT "${site}/${name}"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${f}" "${site}/${name}"
      DEPENDS "${f}" COMMENT "web/${name} -> site/" VERBATIM)
    list(APPEND copied "${site}/${name}")
  endforeach()
  add_custom_target(attnlab_site ALL DEPENDS ${copied})
endfunction()

# A command-line program for node (the benchmarks: scripts/bench.sh), not for the page:
# run with `node --no-experimental-fetch X.js` (emscripten 3.1.6's loader and Node 20's fetch).
function(attnlab_configure_node_target target)
  target_link_options(${target} PRIVATE -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1)
endfunction()
