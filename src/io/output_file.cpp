#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/io/output_file.hpp>

namespace dlbkit {

void write_text_file(const std::string& path, std::string_view text) {
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

}  // namespace dlbkit
