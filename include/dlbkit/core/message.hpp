#pragma once
/// \file
/// A strategy message: a kind and a small trivially copyable body, so that every engine can
/// move it as plain bytes (the MPI engine sends it as is).
///
/// ```
/// struct LoadUpdate { std::int64_t load; };
/// ctx.send(neighbor, dlbkit::Message::make(kLoadUpdate, LoadUpdate{ctx.load()}));
/// ...
/// auto update = message.as<LoadUpdate>();
/// ```

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dlbkit {

struct Message {
  static constexpr std::size_t kBodyBytes = 32;

  std::uint16_t kind = 0;  ///< index into the strategy's message_kinds (StrategyInfo)
  std::uint16_t reserved[3] = {};  ///< zero: every byte of a message is defined
  std::array<std::byte, kBodyBytes> body{};

  template <class Body>
  static Message make(std::uint16_t kind, const Body& value) {
    static_assert(std::is_trivially_copyable_v<Body>, "a message body must be trivially copyable");
    static_assert(sizeof(Body) <= kBodyBytes, "a message body holds at most 32 bytes");
    Message m;
    m.kind = kind;
    std::memcpy(m.body.data(), &value, sizeof(Body));
    return m;
  }

  template <class Body>
  Body as() const {
    static_assert(std::is_trivially_copyable_v<Body> && sizeof(Body) <= kBodyBytes);
    Body value;
    std::memcpy(&value, body.data(), sizeof(Body));
    return value;
  }
};

static_assert(std::is_trivially_copyable_v<Message>);
static_assert(sizeof(Message) == 8 + Message::kBodyBytes, "no padding: messages travel as bytes");

}  // namespace dlbkit
