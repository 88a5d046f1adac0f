# Every Emscripten-specific build setting, in one place (Debian's emscripten 3.1.6).

# emcc runs acorn with the machine's Node, which does not look in Debian's module folder.
set(CMAKE_C_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)

# Exceptions are caught (nlohmann-json and std::bad_alloc must become a message, not an abort),
# with WebAssembly's own exception handling: JavaScript-emulated exceptions (-fexceptions) wrap
# every call that may throw in an invoke_* import, which made the wasm ~40% larger and slower.
add_compile_options(-fwasm-exceptions -msimd128)
add_link_options(-fwasm-exceptions)

# Link-time optimization (issue 11's budget): every file compiles to LLVM bitcode and the link
# optimizes the whole program at once (unused code across files goes, small functions inline
# across files). Measured on 2026-12-01: the page's wasm 466.6 -> 448.5 KB gzipped, training in
# the page as fast as before (scripts/bench.sh: native/browser 1.46 vs 1.78 without, same loss
# bits). Each file keeps its own -O3 / -Oz (below): LTO keeps the functions' size attributes.
# Debug builds skip it (fast links).
add_compile_options($<$<NOT:$<CONFIG:Debug>>:-flto>)
add_link_options($<$<NOT:$<CONFIG:Debug>>:-flto>)
# No run-time type information: nothing in the lab uses typeid or dynamic_cast; exceptions still
# carry their types (the compiler emits those for throw and catch). Measured: -3.3 KB gzipped
# (the type names of every std::function target and class with virtual functions).
add_compile_options(-fno-rtti)
# The field tables' one-line help (engine/base/fields.h) serves the CLI and the docs only: left
# out of the page (measured: the default page -N KB gzipped).
add_compile_definitions(ATTNLAB_FIELD_HELP=0)

# The page's script: the parts in web/js/, one idea each, joined in this order into the one
# lab.js the page loads (attnlab_configure_web_site). begin.js opens one scope and end.js closes
# it, so the parts share their names; each starts with two lines saying what it holds.
set(ATTNLAB_PAGE_SCRIPT begin page loader api url_state guest ime clipboard export a11y model_switch end)

# The parts' paths in that order. Configuring stops if one is missing or if web/js/ has a script
# the list does not name (it would be left out of the page without a word).
function(attnlab_page_script_parts out_var)
  set(dir "${CMAKE_SOURCE_DIR}/web/js")
  file(GLOB unlisted RELATIVE "${dir}" CONFIGURE_DEPENDS "${dir}/*.js")
  set(parts "")
  foreach(part IN LISTS ATTNLAB_PAGE_SCRIPT)
    if(NOT EXISTS "${dir}/${part}.js")
      message(FATAL_ERROR "web/js/${part}.js is missing (ATTNLAB_PAGE_SCRIPT in cmake/Emscripten.cmake names it)")
    endif()
    list(REMOVE_ITEM unlisted "${part}.js")
    list(APPEND parts "${dir}/${part}.js")
  endforeach()
  if(unlisted)
    list(JOIN unlisted ", " names)
    message(FATAL_ERROR "web/js/ has ${names}, which ATTNLAB_PAGE_SCRIPT (cmake/Emscripten.cmake) "
                        "does not list: add each where it belongs in the page script's order")
  endif()
  set(${out_var} "${parts}" PARENT_SCOPE)
endfunction()

# The C functions the page may call: every EMSCRIPTEN_KEEPALIVE function of the bridge
# (src/platform/web_bridge*.cpp: web_bridge.cpp and web_bridge_model.cpp, model mode's calls),
# read from the bridge at configure time, so EXPORTED_FUNCTIONS
# cannot drift from it; CMake configures again whenever the bridge or a part of the page's
# script (web/js/) changes. Every attnlab_* function a part wraps (cwrap) must be one of them,
# or configuring stops with a message.
# A program's own bridge file and script (the model build's checkpoint: web_checkpoint.cpp and
# web/checkpoint/checkpoint.js) come after out_var, as paths from the repository.
function(attnlab_bridge_exports out_var)
  file(GLOB bridge_files "${CMAKE_SOURCE_DIR}/src/platform/web_bridge*.cpp")
  set(bridge "src/platform/web_bridge*.cpp")  # as messages name it
  attnlab_page_script_parts(page_parts)
  foreach(extra IN LISTS ARGN)
    if(extra MATCHES "\\.cpp$")
      list(APPEND bridge_files "${CMAKE_SOURCE_DIR}/${extra}")
      set(bridge "${bridge} + ${extra}")
    else()
      list(APPEND page_parts "${CMAKE_SOURCE_DIR}/${extra}")
    endif()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${bridge_files} ${page_parts})
  set(code "")
  foreach(file IN LISTS bridge_files)
    file(READ "${file}" part)
    string(APPEND code "${part}\n")
  endforeach()
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
  foreach(page IN LISTS page_parts)
    file(READ "${page}" js)
    string(REGEX MATCHALL "cwrap\\('attnlab_[A-Za-z0-9_]+'" wrapped "${js}")
    foreach(call IN LISTS wrapped)
      string(REGEX REPLACE "^cwrap\\('(.*)'$" "\\1" name "${call}")
      if(NOT name IN_LIST names)
        list(JOIN names ", " listed)
        file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${page}")
        message(FATAL_ERROR "${shown} wraps ${name}, but ${bridge} has no EMSCRIPTEN_KEEPALIVE function "
                            "of that name (the bridge's functions: ${listed})")
      endif()
    endforeach()
  endforeach()
  list(TRANSFORM names PREPEND "_")
  list(JOIN names "," exports)
  set(exports "_main,${exports}")

  message(STATUS "Exported C functions (from the bridge): ${exports}")
  set(${out_var} "${exports}" PARENT_SCOPE)
endfunction()

# Dear ImGui's built-in font, ProggyClean, is never drawn (the lab adds its DejaVu fonts before
# the atlas is built, ui/style.cpp), but its data (12 KB of base85 text, 9.6 KB gzipped) stays in
# the wasm because ImFontAtlas::AddFontDefault refers to it; 1.86 has no switch to leave it out
# (IMGUI_DISABLE_DEFAULT_FONT came later). The page's build compiles a copy of imgui_draw.cpp in
# which AddFontDefault adds nothing (returns null) and so refers to no data; configuring stops if
# the ImGui sources no longer have the lines this edits.
function(attnlab_imgui_without_default_font)
  get_target_property(sources attnlab_imgui SOURCES)
  list(FILTER sources INCLUDE REGEX "/imgui_draw\\.cpp$")
  if(NOT sources)
    message(FATAL_ERROR "attnlab_imgui has no imgui_draw.cpp to compile without the default font")
  endif()
  list(GET sources 0 original)
  file(READ "${original}" code)
  set(from "const char* ttf_compressed_base85 = GetDefaultCompressedFontDataTTFBase85();")
  set(to "const char* ttf_compressed_base85 = NULL; // the lab's page: no built-in font (cmake/Emscripten.cmake)\n    if (!ttf_compressed_base85) return NULL;")
  string(FIND "${code}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${original}: AddFontDefault no longer reads \"${from}\" (cmake/Emscripten.cmake edits that line)")
  endif()
  string(REPLACE "${from}" "${to}" code "${code}")
  set(copy "${CMAKE_BINARY_DIR}/generated/imgui_draw_no_default_font.cpp")
  file(WRITE "${copy}.tmp" "// Generated by cmake/Emscripten.cmake from ${original}: do not edit.\n${code}")
  configure_file("${copy}.tmp" "${copy}" COPYONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${original}")
  get_target_property(all attnlab_imgui SOURCES)
  list(TRANSFORM all REPLACE ".*/imgui_draw\\.cpp$" "${copy}")
  set_target_properties(attnlab_imgui PROPERTIES SOURCES "${all}")
endfunction()

find_program(ATTNLAB_TERSER terser)
if(NOT ATTNLAB_TERSER)
  message(FATAL_ERROR "terser not found (Debian package terser); run scripts/setup.sh")
endif()
set(ATTNLAB_TERSE_ARGS --compress passes=2 --mangle --ecma 2017)
find_program(ATTNLAB_CLEANCSS cleancss)
if(NOT ATTNLAB_CLEANCSS)
  message(FATAL_ERROR "cleancss not found (Debian package cleancss); run scripts/setup.sh")
endif()
option(ATTNLAB_WASM_PROFILING "keep the functions' names in the wasm (profiling; not for the shipped page)" OFF)
set(ATTNLAB_WASM_OPT_NAMES "")
if(ATTNLAB_WASM_PROFILING)
  set(ATTNLAB_WASM_OPT_NAMES -g)  # wasm-opt keeps the name section only with -g
endif()
find_program(ATTNLAB_WASM_OPT wasm-opt)  # binaryen, which Debian's emscripten depends on
if(NOT ATTNLAB_WASM_OPT)
  message(FATAL_ERROR "wasm-opt not found (Debian package binaryen); run scripts/setup.sh")
endif()
set(ATTNLAB_WASM_FEATURES --enable-simd --enable-exception-handling --enable-bulk-memory --enable-sign-ext
    --enable-mutable-globals --enable-nontrapping-float-to-int)

# One program of the page: `name`.js + `name`.wasm in site/. The page has two builds of the lab
# from the same objects (CMakeLists.txt): index (the default page, without the model's code) and
# index-model (everything; the page's script switches to it when model mode is chosen,
# web/js/model_switch.js).
function(attnlab_configure_web_program target name)
  attnlab_bridge_exports(exported_functions ${ARGN})
  file(WRITE "${CMAKE_BINARY_DIR}/exported_functions-${name}.txt" "${exported_functions}\n")  # for a reader
  set(site "${CMAKE_BINARY_DIR}/site")
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${name} SUFFIX ".js"           # name.js + name.wasm; the page is ours (web/)
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
    # WebGL2 only, and the lab enables no extension (the heatmap's R32F texture is core):
    # no code that enables every extension at start-up (~50 ms of the first frame), no WebGL 1
    # workarounds, no GLES error emulation.
    -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0 -sGL_SUPPORT_SIMPLE_ENABLE_EXTENSIONS=0
    -sGL_EXTENSIONS_IN_PREFIXED_FORMAT=0 -sGL_TRACK_ERRORS=0 -sGL_POOL_TEMP_BUFFERS=0
    -sGL_WORKAROUND_SAFARI_GETCONTEXT_BUG=0
    # emmalloc: a smaller allocator than dlmalloc; TextDecoder is in every WebGL2 browser
    -sMALLOC=emmalloc -sTEXTDECODER=2
    # The Module properties emscripten's glue reads: only those web/js/loader.js passes (its
    # own onLab* callbacks are read by the lab's code, not the glue): no glue for the others.
    "-sINCOMING_MODULE_JS_API=[canvas,print,printErr,instantiateWasm,onAbort]"
    # Size (issue 11): the link step optimizes for size (wasm-opt -Oz; the JavaScript glue is
    # minified afterwards, below). Debug keeps the glue readable and the assertions.
    $<$<NOT:$<CONFIG:Debug>>:-Oz>
    $<$<CONFIG:Debug>:-sASSERTIONS=2>
    # Profiling (scripts/bench.sh --model-page --profile): keep the functions' names, so that
    # Chromium's profiler names them instead of wasm-function[N].
    $<$<BOOL:${ATTNLAB_WASM_PROFILING}>:--profiling-funcs>)
  # The JavaScript glue: emcc only strips its whitespace (its minifier, Closure, is not in
  # Debian); terser (Debian package `terser`, installed by scripts/setup.sh) shortens the names
  # and the code, after every link.
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${ATTNLAB_TERSER} "${site}/${name}.js" ${ATTNLAB_TERSE_ARGS} -o "${site}/${name}.js"
      COMMENT "terser: minifying ${name}.js" VERBATIM)
    # A second size pass over the whole module until it stops shrinking (about 1.8 KB gzipped
    # off index.wasm, which the page's 500 KB budget needs since the what-if engine); the
    # features are the ones the lab compiles with (SIMD, wasm exceptions, bulk memory).
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${ATTNLAB_WASM_OPT} -Oz --converge ${ATTNLAB_WASM_FEATURES} ${ATTNLAB_WASM_OPT_NAMES}
              "${site}/${name}.wasm" -o "${site}/${name}.wasm"
      COMMENT "wasm-opt: a second -Oz pass over ${name}.wasm" VERBATIM)
  endif()
endfunction()

# What both programs share: how the libraries compile for the page, and the page's own files.
function(attnlab_configure_web_site)
  set(site "${CMAKE_BINARY_DIR}/site")
  # Only the engine's numerics are hot loops (training, experiments): they keep -O3. The rest —
  # JSON, the app's state, the texts, Dear ImGui, the panels, the platform layer — is most of the
  # code and runs a few times per frame at most: compiled for size. Optimization levels never
  # change a result's bits here: no -ffast-math, -ffp-contract=off (CMakeLists.txt) and
  # WebAssembly has no fused multiply-add.
  # In the engine only the products (kernels.cpp: where training's time goes) keep -O3; the rest
  # of it is compiled for size too, training's other files included: measured on 2026-12-01,
  # -O3 there cost 26 KB gzipped (the page's budget is 500 KB) for 1.6x the page's training speed
  # (scripts/bench.sh: 1996 vs 1272 steps/s on the default task, plenty for the lab's tasks).
  # The model's layers (attn_model) are the exception: only the full build (index-model.wasm,
  # fetched when model mode is chosen, outside the default page's budget) links them, and the
  # page's forward pass of 128 tokens runs through them (docs/benchmarks.md, the model's forward).
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    foreach(t attn_ui_objs attnlab_imgui attn_api attn_app attn_text attn_model_io
                attn_model_fields attn_model_absent attn_inspect attn_inspect_absent attn_prediction_ui)
      target_compile_options(${t} PRIVATE -Oz)
    endforeach()
    target_compile_options(attn_engine PRIVATE -Oz)
    # the products every engine file calls (a source's options come after its target's: -O3 wins)
    set_property(SOURCE "${CMAKE_SOURCE_DIR}/src/engine/linalg/kernels.cpp" DIRECTORY "${CMAKE_SOURCE_DIR}"
                 APPEND PROPERTY COMPILE_OPTIONS -O3)
  endif()
  # Dear ImGui's demo and metrics windows are never shown; no files in the browser.
  target_compile_definitions(attnlab_imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_DISABLE_METRICS_WINDOW
                                                   IMGUI_DISABLE_FILE_FUNCTIONS)
  attnlab_imgui_without_default_font()
  # Dear ImGui's target is made before this file's add_compile_options: LTO for it too.
  target_compile_options(attnlab_imgui PRIVATE $<$<NOT:$<CONFIG:Debug>>:-flto> -fno-rtti)
  # The page and its styles sit next to index.js; copied whenever one of them changes (not only
  # when the wasm relinks).
  file(GLOB web_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/web/*")
  set(copied "")
  foreach(f IN LISTS web_files)
    get_filename_component(name "${f}" NAME)
    if(IS_DIRECTORY "${f}")
      continue()  # web/js, web/model, web/tune: below
    endif()
    if(name MATCHES "\\.css$" AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
      # The styles without their comments and spaces (clean-css, Debian package `cleancss`;
      # about 0.7 KB gzipped of the default page's 500 KB).
      add_custom_command(OUTPUT "${site}/${name}"
        COMMAND ${ATTNLAB_CLEANCSS} -O1 -o "${site}/${name}" "${f}"
        DEPENDS "${f}" COMMENT "web/${name} -> site/ (minified)" VERBATIM)
    else()
      add_custom_command(OUTPUT "${site}/${name}"
        COMMAND ${CMAKE_COMMAND} -E copy_if_different "${f}" "${site}/${name}"
        DEPENDS "${f}" COMMENT "web/${name} -> site/" VERBATIM)
    endif()
    list(APPEND copied "${site}/${name}")
  endforeach()
  # The page's script: its parts (web/js/, ATTNLAB_PAGE_SCRIPT's order) and its messages
  # (src/text/page.json) joined into one file, then minified like the programs' glue (attnlab_configure_web_program); Debug keeps it as joined.
  attnlab_page_script_parts(page_parts)
  list(JOIN page_parts "|" parts_arg)
  set(joined "${CMAKE_BINARY_DIR}/generated/lab.js")
  add_custom_command(OUTPUT "${joined}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${joined}" "-DPARTS=${parts_arg}"
            "-DTEXT=${CMAKE_SOURCE_DIR}/src/text/page.json"
            -P "${CMAKE_SOURCE_DIR}/cmake/join_page_script.cmake"
    DEPENDS ${page_parts} "${CMAKE_SOURCE_DIR}/src/text/page.json" "${CMAKE_SOURCE_DIR}/cmake/join_page_script.cmake"
    COMMENT "web/js/*.js + src/text/page.json -> lab.js (joined)" VERBATIM)
  if(CMAKE_BUILD_TYPE STREQUAL "Debug")
    add_custom_command(OUTPUT "${site}/lab.js"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${joined}" "${site}/lab.js"
      DEPENDS "${joined}" COMMENT "lab.js -> site/" VERBATIM)
  else()
    add_custom_command(OUTPUT "${site}/lab.js"
      COMMAND ${ATTNLAB_TERSER} "${joined}" ${ATTNLAB_TERSE_ARGS} -o "${site}/lab.js"
      DEPENDS "${joined}" COMMENT "lab.js -> site/ (minified)" VERBATIM)
  endif()
  list(APPEND copied "${site}/lab.js")
  # Opening a checkpoint (web/checkpoint/checkpoint.js): fetched by lab.js only when a model is
  # opened or the model's build runs, outside the default page's payload; minified like lab.js.
  set(ckpt "${CMAKE_SOURCE_DIR}/web/checkpoint/checkpoint.js")
  if(CMAKE_BUILD_TYPE STREQUAL "Debug")
    add_custom_command(OUTPUT "${site}/checkpoint.js" COMMAND ${CMAKE_COMMAND} -E copy_if_different "${ckpt}" "${site}/checkpoint.js"
      DEPENDS "${ckpt}" COMMENT "web/checkpoint/checkpoint.js -> site/" VERBATIM)
  else()
    add_custom_command(OUTPUT "${site}/checkpoint.js" COMMAND ${ATTNLAB_TERSER} "${ckpt}" ${ATTNLAB_TERSE_ARGS} -o "${site}/checkpoint.js"
      DEPENDS "${ckpt}" COMMENT "web/checkpoint/checkpoint.js -> site/ (minified)" VERBATIM)
  endif()
  list(APPEND copied "${site}/checkpoint.js")
  # The trained model (model mode, issue 13): the files its manifest lists, fetched by the page
  # (web/js/model_switch.js) only when the mode is chosen (never by the default page).
  foreach(name MANIFEST.sha256 config.json tokenizer.json model.safetensors eval.json heads.json)
    add_custom_command(OUTPUT "${site}/model/${name}"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${CMAKE_SOURCE_DIR}/web/model/${name}" "${site}/model/${name}"
      DEPENDS "${CMAKE_SOURCE_DIR}/web/model/${name}" COMMENT "web/model/${name} -> site/model/" VERBATIM)
    list(APPEND copied "${site}/model/${name}")
  endforeach()
  add_custom_target(attnlab_site ALL DEPENDS ${copied})
  # "Train it more"'s built-in texts (model mode): fetched by the page (web/js/model_switch.js)
  # only when the mode is chosen, like the model's files.
  set(tune_texts "")
  foreach(name en.txt ru.txt)
    add_custom_command(OUTPUT "${site}/tune/${name}"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${CMAKE_SOURCE_DIR}/web/tune/${name}" "${site}/tune/${name}"
      DEPENDS "${CMAKE_SOURCE_DIR}/web/tune/${name}" COMMENT "web/tune/${name} -> site/tune/" VERBATIM)
    list(APPEND tune_texts "${site}/tune/${name}")
  endforeach()
  add_custom_target(attnlab_tune_texts ALL DEPENDS ${tune_texts})
  # The lessons (web/lessons/: the built-in one, seed.json, and any an author adds): fetched by
  # the lab when a lesson is first needed (platform/web_bridge.cpp) or named by #lessonUrl.
  file(GLOB lesson_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/web/lessons/*.json")
  set(lessons "")
  foreach(f IN LISTS lesson_files)
    get_filename_component(name "${f}" NAME)
    add_custom_command(OUTPUT "${site}/lessons/${name}"
      COMMAND ${CMAKE_COMMAND} -E copy_if_different "${f}" "${site}/lessons/${name}"
      DEPENDS "${f}" COMMENT "web/lessons/${name} -> site/lessons/" VERBATIM)
    list(APPEND lessons "${site}/lessons/${name}")
  endforeach()
  add_custom_target(attnlab_lessons ALL DEPENDS ${lessons})
endfunction()

# A command-line program for node (the benchmarks: scripts/bench.sh), not for the page:
# run with `node --no-experimental-fetch X.js` (emscripten 3.1.6's loader and Node 20's fetch).
function(attnlab_configure_node_target target)
  target_link_options(${target} PRIVATE -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1)
endfunction()

# The full build (index-model.wasm, fetched when model mode is chosen; outside the default page's
# budget) gets the whole engine a second time, at -O3: the model's forward pass and the panels
# after it (heads, normalizers, steps, PCA, information, contributions, what-if) run through it.
# Linked as objects, these come before the engine's archive, whose -Oz copies of the same files
# are then never pulled in. The same glob as the engine's own (ENGINE_SOURCES), so that a new
# engine file is fast in model mode without being named here. Measured on 2026-12-03
# (docs/benchmarks.md), setState of 121 tokens in model mode, median of 30 in one page: 81-82 ms
# with the engine at -Oz, 63-68 with the hot files at -O3, 62-67 with the whole engine at -O3;
# the default page stays as it was.
function(attnlab_model_build_fast_engine target)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/src/engine/*.cpp")
  add_library(attn_engine_fast OBJECT ${files})
  target_link_libraries(attn_engine_fast PRIVATE attnlab::eigen)
  target_include_directories(attn_engine_fast PRIVATE "${CMAKE_SOURCE_DIR}/src")
  target_compile_options(attn_engine_fast PRIVATE -ffp-contract=off)
  # paths the default page does without (kernels.cpp: the one-row product of the model's logits)
  target_compile_definitions(attn_engine_fast PRIVATE ATTNLAB_ENGINE_FAST=1)
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:attn_engine_fast>)
endfunction()
