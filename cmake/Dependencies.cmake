# Every third-party dependency, as an imported/interface target. All of them come from Debian:
# binary packages for headers (Eigen, nlohmann-json, CLI11, doctest, native SDL2) and the
# `imgui` / `libsdl2` source packages unpacked into ${ATTNLAB_DEPS_DIR} by scripts/setup.sh.

# Headers that live directly in /usr/include are staged into the build folder one package at a
# time, so that the wasm build never sees the host's /usr/include (it would shadow emscripten's
# own C library headers).
function(attnlab_stage_headers name src_dir)
  if(NOT EXISTS "${src_dir}")
    message(FATAL_ERROR "${name}: ${src_dir} not found; run scripts/setup.sh")
  endif()
  set(dst "${CMAKE_BINARY_DIR}/staged-include")
  get_filename_component(leaf "${src_dir}" NAME)
  file(COPY "${src_dir}" DESTINATION "${dst}")
  set(${name}_STAGED "${dst}" PARENT_SCOPE)
endfunction()

# Eigen 3.4 (libeigen3-dev): its own folder, safe to add as is.
find_path(EIGEN3_INCLUDE_DIR Eigen/Dense PATHS /usr/include/eigen3 NO_CMAKE_FIND_ROOT_PATH REQUIRED)
add_library(attnlab_eigen INTERFACE)
target_include_directories(attnlab_eigen SYSTEM INTERFACE "${EIGEN3_INCLUDE_DIR}")
target_compile_definitions(attnlab_eigen INTERFACE EIGEN_MPL2_ONLY)
add_library(attnlab::eigen ALIAS attnlab_eigen)

# nlohmann-json 3.11 (nlohmann-json3-dev)
attnlab_stage_headers(json /usr/include/nlohmann)
add_library(attnlab_json INTERFACE)
target_include_directories(attnlab_json SYSTEM INTERFACE "${json_STAGED}")
add_library(attnlab::json ALIAS attnlab_json)

# Dear ImGui 1.86 from the `imgui` source package: the same sources for both builds.
set(IMGUI_DIR "${ATTNLAB_DEPS_DIR}/imgui")
if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui sources not found in ${IMGUI_DIR}; run scripts/setup.sh")
endif()
add_library(attnlab_imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp ${IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp
  ${IMGUI_DIR}/backends/imgui_impl_sdl.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(attnlab_imgui SYSTEM PUBLIC "${IMGUI_DIR}" "${IMGUI_DIR}/backends")
target_compile_definitions(attnlab_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
add_library(attnlab::imgui ALIAS attnlab_imgui)

if(EMSCRIPTEN)
  # SDL2 2.26.5 built for wasm by scripts/setup.sh (emscripten's -sUSE_SDL port needs the web),
  # with only the subsystems the lab uses.
  set(SDL2_WASM_DIR "${ATTNLAB_DEPS_DIR}/sdl2-wasm-min")
  if(NOT EXISTS "${SDL2_WASM_DIR}/lib/libSDL2.a")
    message(FATAL_ERROR "SDL2 for wasm not found in ${SDL2_WASM_DIR}; run scripts/setup.sh")
  endif()
  add_library(attnlab_sdl2 INTERFACE)
  target_include_directories(attnlab_sdl2 SYSTEM INTERFACE "${SDL2_WASM_DIR}/include/SDL2")
  target_link_libraries(attnlab_sdl2 INTERFACE "${SDL2_WASM_DIR}/lib/libSDL2.a")
  # WebGL2 / GLSL "#version 300 es" in ImGui's OpenGL3 backend.
  target_compile_definitions(attnlab_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
else()
  find_package(SDL2 REQUIRED)
  find_package(OpenGL REQUIRED)
  add_library(attnlab_sdl2 INTERFACE)
  target_include_directories(attnlab_sdl2 SYSTEM INTERFACE ${SDL2_INCLUDE_DIRS})
  target_link_libraries(attnlab_sdl2 INTERFACE ${SDL2_LIBRARIES} OpenGL::GL ${CMAKE_DL_LIBS})

  # CLI11 2.1 (libcli11-dev) and doctest 2.4 (doctest-dev): native only.
  attnlab_stage_headers(cli11 /usr/include/CLI)
  add_library(attnlab_cli11 INTERFACE)
  target_include_directories(attnlab_cli11 SYSTEM INTERFACE "${cli11_STAGED}")
  add_library(attnlab::cli11 ALIAS attnlab_cli11)

  find_path(DOCTEST_INCLUDE_DIR doctest/doctest.h REQUIRED)
  add_library(attnlab_doctest INTERFACE)
  target_include_directories(attnlab_doctest SYSTEM INTERFACE "${DOCTEST_INCLUDE_DIR}")
  add_library(attnlab::doctest ALIAS attnlab_doctest)
endif()
target_link_libraries(attnlab_imgui PUBLIC attnlab_sdl2)

# The UI font: DejaVu (fonts-dejavu-core) has Latin, Cyrillic, Greek and the maths signs the lab
# uses (Σ √ α · ⟨⟩ ≈ →). Cut with fontTools' subsetter to the letters learners type and the symbols
# the sources use (cmake/font_subset.py): ~23 KB gzipped. (Tables used DejaVu Sans Mono until
# 2026-12-03; the page's budget dropped it: DejaVu Sans's digits share one width.)
file(GLOB_RECURSE ATTNLAB_TEXT_SOURCES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/src/*.cpp" "${CMAKE_SOURCE_DIR}/src/*.h"
     "${CMAKE_SOURCE_DIR}/web/lessons/*.json")  # the lessons' texts (seed.json: the built-in one)
# Beside the font, <out_var>_RANGES: generated/<base>_ranges.h, the code points it holds as Dear
# ImGui's glyph ranges (ui/style.cpp rasterizes exactly those).
function(attnlab_subset_font out_var ttf)  # [--symbols-only]
  get_filename_component(base "${ttf}" NAME_WE)
  set(out "${CMAKE_BINARY_DIR}/fonts/${base}-subset.ttf")
  set(ranges "${CMAKE_BINARY_DIR}/generated/${base}_ranges.h")
  set(script "${CMAKE_SOURCE_DIR}/cmake/font_subset.py")
  add_custom_command(OUTPUT "${out}" "${ranges}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/fonts" "${CMAKE_BINARY_DIR}/generated"
    COMMAND /usr/bin/python3 "${script}" ${ARGN} --ranges "${ranges}" "${ttf}" "${out}" "${CMAKE_SOURCE_DIR}/src" "${CMAKE_SOURCE_DIR}/web/lessons"
    DEPENDS "${ttf}" "${script}" ${ATTNLAB_TEXT_SOURCES} COMMENT "Subsetting ${base}" VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${out_var}_RANGES "${ranges}" PARENT_SCOPE)
endfunction()
attnlab_subset_font(ATTNLAB_FONT_SANS /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
