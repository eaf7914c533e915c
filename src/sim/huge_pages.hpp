#pragma once
/// \file
/// Memory for the simulator's large arrays on 2 MiB pages, where the kernel gives them.
///
/// At a million nodes an event reads a few cache lines far apart in hundreds of megabytes.
/// With 4 KiB pages almost every such line also misses the processor's address translation
/// cache, and the page-table walk that follows costs about as much again; a 2 MiB page
/// covers 512 times as much. Linux backs a mapping advised so with transparent huge pages
/// when /sys/kernel/mm/transparent_hugepage/enabled says `always` or `madvise` and free
/// huge pages are at hand; otherwise the pages stay small and nothing else changes.
///
/// ```
/// std::vector<Node, dlbkit::HugePageAllocator<Node>> nodes(n);  // 2 MiB pages from 2 MiB on
/// ```

#include <cstddef>

namespace dlbkit {

/// At least `bytes`, aligned to 64 bytes: an allocation of 2 MiB or more is a mapping of
/// its own, aligned to 2 MiB, advised to use huge pages, committed page by page as it is
/// touched; a smaller one comes from operator new. Throws std::bad_alloc.
void* allocate_huge(std::size_t bytes);
/// Returns what allocate_huge(bytes) gave, with the same `bytes`.
void free_huge(void* p, std::size_t bytes) noexcept;

/// Gives the whole pages within [p, p + bytes) back to the system; they read as zeros when
/// touched again. For an array's part that this process never touches (a partition's
/// neighbours' nodes), so that it stops counting in the process's memory.
void release_pages(void* p, std::size_t bytes) noexcept;

/// The bytes below which allocate_huge uses operator new.
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

template <class T>
struct HugePageAllocator {
  static_assert(alignof(T) <= 64);
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_huge(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { free_huge(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace dlbkit
