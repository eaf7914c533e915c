#pragma once
// A file's bytes as a string, and a string as a file's bytes: for tests that write, cut or
// read back files.

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace dlbkit::test {

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace dlbkit::test
