#include <dlbkit/io/temporary_files.hpp>

#include <array>
#include <atomic>
#include <cstdio>
#include <unistd.h>

namespace dlbkit {

namespace {

// Fixed slots of lock-free pointers, which a signal handler may read: room for the
// sections of 4096 workers and their outputs. A name that finds no slot is still removed
// by its destructor, only not by a signal. A destructor unregisters its name before it
// removes the file and frees the name; only a handler running on another thread within
// those few instructions could read a name being freed.
constexpr int kSlots = 8192;
std::array<std::atomic<const char*>, kSlots> registry{};

}  // namespace

TemporaryFile::TemporaryFile(std::string path) : path_(std::move(path)) {
  for (int i = 0; i < kSlots; ++i) {
    const char* none = nullptr;
    if (registry[static_cast<std::size_t>(i)].compare_exchange_strong(none, path_.c_str())) {
      slot_ = i;
      return;
    }
  }
}

TemporaryFile::~TemporaryFile() {
  if (kept_) return;
  keep();
  std::remove(path_.c_str());
}

void TemporaryFile::keep() {
  if (slot_ >= 0) registry[static_cast<std::size_t>(slot_)].store(nullptr);
  slot_ = -1;
  kept_ = true;
}

void remove_temporary_files() noexcept {
  for (std::atomic<const char*>& slot : registry)
    if (const char* path = slot.load(); path != nullptr) ::unlink(path);
}

}  // namespace dlbkit
