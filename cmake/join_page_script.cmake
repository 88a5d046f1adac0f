# Joins the page script's parts (web/js/*.js, in the order cmake/Emscripten.cmake lists) into the
# one lab.js the page loads, with the page's messages (src/text/page.json) put in after the first
# part (begin.js, which opens the script's scope) as `var PAGE_TEXT = {"en": {...}, "ru": {...}};`.
# Run by the build: cmake -DOUTPUT=<file> -DPARTS=<a.js|b.js|...> -DTEXT=<page.json> -P this.
cmake_minimum_required(VERSION 3.20)  # string(JSON)
if(NOT OUTPUT OR NOT PARTS OR NOT TEXT)
  message(FATAL_ERROR "join_page_script.cmake: give -DOUTPUT=<file>, -DPARTS=<part|part|...> and -DTEXT=<page.json>")
endif()

# The messages: both languages with the same keys, each a string (a missing translation stops
# the build rather than showing "undefined" on the page).
file(READ "${TEXT}" text)
string(JSON en_count ERROR_VARIABLE bad LENGTH "${text}" en)
if(bad)
  message(FATAL_ERROR "${TEXT}: not {\"en\": {...}, \"ru\": {...}}: ${bad}")
endif()
string(JSON ru_count ERROR_VARIABLE bad LENGTH "${text}" ru)
if(bad OR NOT en_count EQUAL ru_count)
  message(FATAL_ERROR "${TEXT}: \"en\" has ${en_count} messages, \"ru\" ${ru_count} ${bad}")
endif()
math(EXPR last "${en_count} - 1")
foreach(i RANGE ${last})
  string(JSON key MEMBER "${text}" en ${i})
  string(JSON type ERROR_VARIABLE bad TYPE "${text}" ru "${key}")
  if(bad OR NOT type STREQUAL "STRING")
    message(FATAL_ERROR "${TEXT}: \"${key}\" has no Russian string")
  endif()
endforeach()
string(STRIP "${text}" text)

string(REPLACE "|" ";" parts "${PARTS}")
set(script "")
set(first TRUE)
foreach(part IN LISTS parts)
  file(READ "${part}" code)
  get_filename_component(name "${part}" NAME)
  string(APPEND script "// web/js/${name}\n${code}")  # a line to find each part in a Debug build
  if(first)
    string(APPEND script "// src/text/page.json\nvar PAGE_TEXT = ${text};\n")
    set(first FALSE)
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${script}")
