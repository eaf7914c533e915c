#pragma once
// Test support: vt's LB data files that the reader must refuse.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dlbkit::test {

/// read_vt_data(stem) must throw one line containing every one of `parts`.
inline void expect_refused(const std::string& stem, const std::vector<std::string>& parts) {
  try {
    read_vt_data(stem);
    ADD_FAILURE() << "read " << stem;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& part : parts) EXPECT_NE(message.find(part), std::string::npos) << message << " / " << part;
  }
}

}  // namespace dlbkit::test
