// Runs `f` and expects an InputError (bad user input) whose message contains every one of
// `parts`: the check shared by the tests of the platform reader and the command line.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "common/Error.h"

namespace vgpu::test {

template <typename F>
void expectInputError(F&& f, std::initializer_list<const char*> parts) {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown";
  } catch (const InputError& e) {
    const std::string what = e.what();
    for (const char* part : parts) EXPECT_NE(what.find(part), std::string::npos) << what;
  }
}

}  // namespace vgpu::test
