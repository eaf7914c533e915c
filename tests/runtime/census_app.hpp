#pragma once
// Test support: a task of std::string and std::vector, a result of std::map and
// std::string, which travel through cereal. A word of letters spawns its extensions by one
// letter up to length 6; the result counts words by length and keeps the greatest word.

#include <dlbkit/runtime/runtime.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlbkit::test {

struct Word {
  std::string letters;
  std::vector<int> path;  // the letter indices, again, to travel as a vector
  template <class Archive>
  void serialize(Archive& ar) {
    ar(letters, path);
  }
};

struct Census {
  std::map<int, std::uint64_t> by_length;
  std::string greatest;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(by_length, greatest);
  }
};

inline Census census(Runtime& runtime) {
  return runtime.run(
      std::vector{Word{"", {}}},
      [](const Word& w, auto& ctx) {
        Census& c = ctx.result();
        ++c.by_length[static_cast<int>(w.letters.size())];
        if (w.letters > c.greatest) c.greatest = w.letters;
        for (std::size_t i = 0; i < w.path.size(); ++i)
          if (w.letters[i] != static_cast<char>('a' + w.path[i])) throw std::logic_error("a task arrived damaged");
        if (w.letters.size() == 6) return;
        for (int l = 0; l < 4; ++l) {
          Word child = w;
          child.letters += static_cast<char>('a' + l);
          child.path.push_back(l);
          ctx.spawn(child);
        }
      },
      Census{}, [](const Census& a, const Census& b) {
        Census c = a;
        for (const auto& [length, n] : b.by_length) c.by_length[length] += n;
        c.greatest = std::max(a.greatest, b.greatest);
        return c;
      });
}

}  // namespace dlbkit::test

