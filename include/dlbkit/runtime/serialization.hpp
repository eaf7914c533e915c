#pragma once
/// \file
/// How tasks and results travel between workers and ranks. A trivially copyable type
/// travels as its bytes (the fast path: one copy, no allocation). A std::vector or
/// std::basic_string of trivially copyable elements (std::vector<Particle>, std::string)
/// travels as one block: its element count (8 bytes), then its elements' bytes in one copy,
/// padding included, never element by element (the same bytes as cereal's for arithmetic
/// elements, and for structs without padding). Any other type travels
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
/// program whose tasks and results all travel as bytes or blocks compiles without them.

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
#include <cstdint>
#include <cstring>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <type_traits>
#include <vector>

namespace dlbkit {

/// True when T travels as its bytes, false when through cereal.
template <class T>
inline constexpr bool travels_as_bytes = std::is_trivially_copyable_v<T>;

namespace serialization_detail {

template <class T>
struct Block : std::false_type {};
template <class E, class A>
struct Block<std::vector<E, A>> : std::bool_constant<std::is_trivially_copyable_v<E> && !std::is_same_v<E, bool>> {};
template <class C, class Traits, class A>
struct Block<std::basic_string<C, Traits, A>> : std::is_trivially_copyable<C> {};

}  // namespace serialization_detail

/// True when T travels as one block: a std::vector or std::basic_string of trivially copyable
/// elements (not std::vector<bool>, which holds no array of them).
template <class T>
inline constexpr bool travels_as_block = serialization_detail::Block<T>::value;

/// The bytes a value travels as, without writing them: a type that travels as its bytes or as
/// a block has its size known; any other type, none (std::nullopt: only its serialisation
/// tells).
template <class T>
std::optional<std::size_t> known_size(const T& value) {
  if constexpr (travels_as_bytes<T>) return sizeof(T);
  else if constexpr (travels_as_block<T>) return sizeof(std::uint64_t) + value.size() * sizeof(typename T::value_type);
  else return std::nullopt;
}

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
  static_assert(travels_as_bytes<T> || travels_as_block<T>,
                "a type that is not trivially copyable (nor a vector or string of such) travels through cereal, "
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
  } else if constexpr (travels_as_block<T>) {
    const std::uint64_t count = value.size();
    const std::size_t length = count * sizeof(typename T::value_type), at = out.size();
    out.resize(at + sizeof count + length);
    std::memcpy(out.data() + at, &count, sizeof count);
    if (length > 0) std::memcpy(out.data() + at + sizeof count, value.data(), length);
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

/// The value to_bytes() wrote. Throws cereal::Exception when `bytes` end too soon
/// (std::length_error for a block).
template <class T>
T from_bytes(std::span<const std::byte> bytes) {
  T value{};
  if constexpr (travels_as_bytes<T>) {
    std::memcpy(&value, bytes.data(), sizeof(T));
  } else if constexpr (travels_as_block<T>) {
    using Element = typename T::value_type;
    std::uint64_t count = 0;
    if (bytes.size() >= sizeof count) std::memcpy(&count, bytes.data(), sizeof count);
    if (bytes.size() < sizeof count || count > (bytes.size() - sizeof count) / sizeof(Element))
      throw std::length_error("dlbkit::from_bytes: a block's bytes end before its elements");
    value.resize(count);
    if (count > 0) std::memcpy(value.data(), bytes.data() + sizeof count, count * sizeof(Element));
  } else {
    serialization_detail::read_archive(bytes, value);
  }
  return value;
}

}  // namespace dlbkit
