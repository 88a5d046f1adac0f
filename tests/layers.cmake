cmake_minimum_required(VERSION 3.20)  # IN_LIST
# Checks that includes point one way (ARCHITECTURE.md): engine <- api <- app <- ui <- platform,
# gfx <- ui, platform; text (the translated strings) <- app, ui, platform. Run by ctest as `layers`: cmake -DSRC=<repo>/src -P tests/layers.cmake
# For each folder of src/: the project folders its files may include, and system headers it
# must not include (the app layer is tested without a window). Sub-folders follow their folder.
# Inside src/app/, the rooms (one sub-folder each: attention, whatif, training, model,
# normalization, lesson, page, exports, inspect) stand side by side, sealed: no file of a room, header or
# .cpp, includes another room or app/app.h or app/calls.h (AppState, in app.h, is composed of
# the rooms); it sees only its own folder, app/room.h (the interface every room gives the app)
# and app/lab_view.h (what the rooms publish to each other, and the requests and context a
# room's methods get). Only the files directly in src/app/ (app.*, calls.*) know every room.
set(allowed_engine   "engine")
set(allowed_model    "engine;model")
set(allowed_api      "engine;model;api")  # model: the tune rows of the state (finetune.h, issue 13)
set(allowed_text     "engine;api;model;text")  # the engine's and the API's messages, translated
set(allowed_app      "engine;api;model;text;app")  # model: the trained model's mode (issue 13)
set(allowed_gfx      "gfx")
set(allowed_ui       "engine;api;model;text;app;gfx;ui")
set(allowed_platform "engine;api;model;text;app;gfx;ui;platform")
set(allowed_cli      "engine;api;model;cli")
set(banned_app "imgui;SDL;GL/;GLES;emscripten")
set(banned_engine "${banned_app}")
set(banned_api "${banned_app}")
set(banned_model "${banned_app}")
set(banned_text "${banned_app}")

# What every room may see of the others: the interface a room gives the app, and the view the
# rooms publish (their results, read-only, and the few requests another room may make).
set(room_interfaces "room.h;lab_view.h")

set(problems "")
foreach(layer engine model api text app gfx ui platform cli)
  file(GLOB_RECURSE files "${SRC}/${layer}/*.h" "${SRC}/${layer}/*.cpp")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    set(room "")
    if(layer STREQUAL "app" AND f MATCHES "/app/([a-z_]+)/[^/]+\\.(h|cpp)$")
      set(room "${CMAKE_MATCH_1}")
    endif()
    # A room works on its own members and a RoomContext, never on AppState (room.h)
    if(room)
      file(STRINGS "${f}" app_state_lines REGEX "AppState")
      foreach(line IN LISTS app_state_lines)
        if(NOT line MATCHES "^[ \t]*//")
          list(APPEND problems "a room's code does not name AppState (it gets a RoomContext, app/lab_view.h): ${f}: ${line}")
        endif()
      endforeach()
    endif()
    foreach(line IN LISTS includes)
      if(room AND line MATCHES "#[ \t]*include[ \t]*\"app/([a-z_.]+)")
        if(NOT CMAKE_MATCH_1 STREQUAL room AND NOT CMAKE_MATCH_1 IN_LIST room_interfaces)
          list(APPEND problems "a room's file may include only its own room (src/app/${room}/), app/room.h and app/lab_view.h (not app/app.h, app/calls.h or another room): ${f}: ${line}")
        endif()
      endif()
      # The lesson's readout reads the other rooms only through what they publish (lab_view.h)
      if(f MATCHES "/app/lesson/lesson_readout\\.cpp$" AND line MATCHES "#[ \t]*include[ \t]*\"app/([a-z_./]+)\""
         AND NOT CMAKE_MATCH_1 MATCHES "^(lesson/|lab_view\\.h$)")
        list(APPEND problems "the lesson's readout reads the rooms through app/lab_view.h only: ${f}: ${line}")
      endif()
      # text/ says the API's refusals in one place only (refusal_message.*): the strings every
      # panel includes (i18n.h and the tables) do not bring the API with them
      if(layer STREQUAL "text" AND NOT f MATCHES "/refusal_message\\.(h|cpp)$" AND line MATCHES "#[ \t]*include[ \t]*\"api/")
        list(APPEND problems "only src/text/refusal_message.* may include src/api/: ${f}: ${line}")
      endif()
      if(line MATCHES "#[ \t]*include[ \t]*\"([a-z_]+)/")
        if(NOT CMAKE_MATCH_1 IN_LIST allowed_${layer})
          list(APPEND problems "src/${layer}/ may not include src/${CMAKE_MATCH_1}/: ${f}: ${line}")
        endif()
      endif()
      foreach(b IN LISTS banned_${layer})
        if(line MATCHES "#[ \t]*include[ \t]*[\"<]${b}")
          list(APPEND problems "src/${layer}/ must not need ${b}: ${f}: ${line}")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "includes against the layering of ARCHITECTURE.md:\n  ${text}")
endif()
message(STATUS "includes point one way (engine <- api <- app <- ui <- platform; text <- app; gfx <- ui, platform; app's rooms side by side)")
