#pragma once
/// \file
/// How tasks and results travel between workers and ranks. A trivially copyable type
/// travels as its bytes (the fast path: one copy, no allocation). Any other type travels
/// through cereal's binary archive (https://uscilab.github.io/cereal/): std::string,
/// std::vector, std::array, std::map, std::optional, std::pair and std::tuple of such types
/// work as they are (this header includes their cereal support); a struct of your own
/// says which members travel:
///
/// ```
/// struct Board {
///   std::vector<int> queens;
///   template <class Archive> void serialize(Archive& ar) { ar(queens); }
/// };
/// ```
///
/// The archive is cereal's native-endian binary one: every rank of a run must share the
/// byte order and the type sizes (MPI between machines of one kind).
///
/// cereal's headers (Debian: libcereal-dev) are needed only where such a type travels: a
/// program whose tasks and results are all trivially copyable compiles without them.

#if __has_include(<cereal/archives/binary.hpp>)
#define DLBKIT_HAS_CEREAL 1
#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>
#endif

#include <cstddef>
#include <cstring>
#include <istream>
#include <ostream>
#include <span>
#include <streambuf>
#include <type_traits>
#include <vector>

namespace dlbkit {

/// True when T travels as its bytes, false when through cereal.
template <class T>
inline constexpr bool travels_as_bytes = std::is_trivially_copyable_v<T>;

namespace serialization_detail {

class ByteSink final : public std::streambuf {
public:
  explicit ByteSink(std::vector<std::byte>& out) : out_(out) {}

protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto* b = reinterpret_cast<const std::byte*>(s);
    out_.insert(out_.end(), b, b + n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) out_.push_back(static_cast<std::byte>(c));
    return c;
  }

private:
  std::vector<std::byte>& out_;
};

class ByteSource final : public std::streambuf {
public:
  explicit ByteSource(std::span<const std::byte> in) {
    // The get area is only read, never written through.
    char* p = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
    setg(p, p, p + in.size());
  }
};

#ifdef DLBKIT_HAS_CEREAL
template <class T>
void write_archive(const T& value, std::vector<std::byte>& out) {
  ByteSink sink(out);
  std::ostream stream(&sink);
  cereal::BinaryOutputArchive archive(stream);
  archive(value);
}

template <class T>
void read_archive(std::span<const std::byte> bytes, T& value) {
  ByteSource source(bytes);
  std::istream stream(&source);
  cereal::BinaryInputArchive archive(stream);
  archive(value);
}
#else
template <class T>
void no_cereal() {
  static_assert(travels_as_bytes<T>, "a type that is not trivially copyable travels through cereal, "
                                     "whose headers are not found (Debian: libcereal-dev)");
}
template <class T>
void write_archive(const T&, std::vector<std::byte>&) { no_cereal<T>(); }
template <class T>
void read_archive(std::span<const std::byte>, T&) { no_cereal<T>(); }
#endif

}  // namespace serialization_detail

/// Appends the bytes of `value` to `out`.
template <class T>
void append_bytes(const T& value, std::vector<std::byte>& out) {
  if constexpr (travels_as_bytes<T>) {
    // resize and memcpy, not insert(end, p, p + sizeof(T)): GCC 12 at -O3 warns of an overflow
    // in the latter's inlined memmove that cannot happen (-Wstringop-overflow).
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &value, sizeof(T));
  } else {
    serialization_detail::write_archive(value, out);
  }
}

/// Replaces `out` with the bytes of `value`.
template <class T>
void to_bytes(const T& value, std::vector<std::byte>& out) {
  out.clear();
  append_bytes(value, out);
}

/// The value to_bytes() wrote. Throws cereal::Exception when `bytes` end too soon.
template <class T>
T from_bytes(std::span<const std::byte> bytes) {
  T value{};
  if constexpr (travels_as_bytes<T>) {
    std::memcpy(&value, bytes.data(), sizeof(T));
  } else {
    serialization_detail::read_archive(bytes, value);
  }
  return value;
}

}  // namespace dlbkit
