# Joins the page script's parts (web/js/*.js, in the order cmake/Emscripten.cmake lists) into the
# one lab.js the page loads. Run by the build: cmake -DOUTPUT=<file> -DPARTS=<a.js|b.js|...> -P this.
if(NOT OUTPUT OR NOT PARTS)
  message(FATAL_ERROR "join_page_script.cmake: give -DOUTPUT=<file> and -DPARTS=<part|part|...>")
endif()
string(REPLACE "|" ";" parts "${PARTS}")
set(script "")
foreach(part IN LISTS parts)
  file(READ "${part}" code)
  get_filename_component(name "${part}" NAME)
  string(APPEND script "// web/js/${name}\n${code}")  # a line to find each part in a Debug build
endforeach()
file(WRITE "${OUTPUT}" "${script}")
