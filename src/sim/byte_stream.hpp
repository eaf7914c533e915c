#pragma once
/// \file
/// Plain values and arrays of them as bytes, for what the processes of a run exchange
/// (ProcessGroup). The processes are copies of one program on one kind of machine, so
/// values travel in their own representation.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace dlbkit {

class ByteWriter {
public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    append(&value, sizeof(T));
  }
  /// The count, then the items.
  template <class T>
  void put_all(std::span<const T> items) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(static_cast<std::uint64_t>(items.size()));
    append(items.data(), items.size_bytes());
  }
  std::vector<std::byte>& bytes() { return bytes_; }

private:
  void append(const void* from, std::size_t n) {
    if (n == 0) return;
    const std::size_t at = bytes_.size();
    bytes_.resize(at + n);
    std::memcpy(bytes_.data() + at, from, n);
  }

  std::vector<std::byte> bytes_;
};

class ByteReader {
public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  /// Passes over a value.
  template <class T>
  ByteReader& skip() {
    take(sizeof(T));
    return *this;
  }
  /// Calls f with each item that put_all wrote, without an array of them.
  template <class T, class F>
  void for_each(F&& f) {
    const auto count = get<std::uint64_t>();
    if (count > (bytes_.size() - at_) / sizeof(T)) short_read();
    for (std::uint64_t i = 0; i < count; ++i) f(get<T>());
  }
  template <class T>
  std::vector<T> get_all() {
    const auto count = get<std::uint64_t>();
    if (count > (bytes_.size() - at_) / sizeof(T)) short_read();
    std::vector<T> items(count);
    if (count > 0) std::memcpy(items.data(), take(count * sizeof(T)), count * sizeof(T));
    return items;
  }

private:
  const std::byte* take(std::size_t n) {
    if (n > bytes_.size() - at_) short_read();
    const std::byte* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  [[noreturn]] static void short_read() {
    throw std::logic_error("a process of the simulation sent fewer bytes than it should");
  }

  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace dlbkit
