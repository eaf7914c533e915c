#include "huge_pages.hpp"

#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dlbkit {

namespace {
constexpr std::align_val_t kLine{64};
}  // namespace

#if defined(__linux__) && defined(MADV_HUGEPAGE)

namespace {
std::size_t whole_pages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
}  // namespace

void* allocate_huge(std::size_t bytes) {
  if (bytes < kHugePage) return ::operator new(bytes, kLine);
  const std::size_t size = whole_pages(bytes);
  // Map one huge page more than needed and trim both ends to 2 MiB boundaries.
  void* mapped = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > start) ::munmap(mapped, aligned - start);
  if (const std::uintptr_t end = start + size + kHugePage; end > aligned + size)
    ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // a request: refused, the pages stay small
  return reinterpret_cast<void*>(aligned);
}

void free_huge(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kHugePage) ::operator delete(p, kLine);
  else ::munmap(p, whole_pages(bytes));
}

void release_pages(void* p, std::size_t bytes) noexcept {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);  // a request
}

#else

void release_pages(void*, std::size_t) noexcept {}

void* allocate_huge(std::size_t bytes) { return ::operator new(bytes, kLine); }
void free_huge(void* p, std::size_t) noexcept { ::operator delete(p, kLine); }

#endif

}  // namespace dlbkit
