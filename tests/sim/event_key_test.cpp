#include "event_key.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace {

using dlbkit::EventKey;
using dlbkit::KeyMaker;

// Keys made one after the other, as the engine makes them (the start's creators at -1, then
// events in the order they are handled: by time, then rank at their instant), compare in the
// order they were made, whatever their type: the order of a sequence number.
TEST(EventKey, KeysCompareInTheOrderTheyAreMade) {
  KeyMaker keys;
  std::vector<EventKey> made;
  const auto make = [&](unsigned children) {
    for (unsigned c = 0; c < children; ++c) made.push_back(keys.next(c % 3));
  };
  for (std::uint64_t rank = 0; rank < 3; ++rank) {  // the start: the arrivals' creator, then nodes
    keys.creator(-1, rank);
    make(5);
  }
  for (dlbkit::SimTime t : {0, 7, 8}) {
    for (std::uint64_t rank = 0; rank < 4; ++rank) {
      keys.creator(t, rank);
      make(rank);  // the first event of the instant makes none
    }
  }
  keys.creator(9, (EventKey::kRanks - 1));
  make(2);
  for (std::size_t i = 1; i < made.size(); ++i) EXPECT_LT(made[i - 1], made[i]) << "key " << i;
  EXPECT_EQ(made[1].type(), 1u);
}

TEST(EventKey, BeyondItsRanksOrChildrenARunStopsWithAnError) {
  KeyMaker keys;
  EXPECT_THROW(keys.creator(5, EventKey::kRanks), std::runtime_error);
  keys.creator(5, 0);
  for (std::uint64_t c = 0; c < EventKey::kChildren; ++c) keys.next(0);
  EXPECT_THROW(keys.next(0), std::runtime_error);
}

}  // namespace
