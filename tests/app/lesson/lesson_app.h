// A fresh app for the lesson's tests (test_lesson.cpp, test_authored.cpp): InitApp'd state.
#pragma once

#include "app/app.h"

struct LessonApp {
  app::AppState s;
  LessonApp() { app::InitApp(s); }
};
