# Every Emscripten-specific build setting, in one place (Debian's emscripten 3.1.6).

# emcc runs acorn with the machine's Node, which does not look in Debian's module folder.
set(CMAKE_C_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)

# Exceptions are caught (nlohmann-json and std::bad_alloc must become a message, not an abort).
add_compile_options(-fexceptions -msimd128)
add_link_options(-fexceptions -sDISABLE_EXCEPTION_CATCHING=0)

function(attnlab_configure_web_target target)
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
    -sEXPORTED_FUNCTIONS=_main,_attnlab_get_state,_attnlab_set_state,_attnlab_get_trace,_attnlab_paste,_attnlab_train,_attnlab_get_training,_attnlab_get_normalization,_attnlab_run_normalization
    -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString
    $<$<CONFIG:Debug>:-sASSERTIONS=2>)
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
