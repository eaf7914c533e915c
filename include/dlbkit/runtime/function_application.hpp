#pragma once
/// \file
/// An Application written as values: the roots, a function that executes one task, the
/// identity of the result and a reduction. dlbkit::Runtime::run(roots, execute, identity,
/// reduce) builds one; it is public for programs that call the engines themselves.
///
/// The roots are dealt round-robin: root i starts on worker i mod P.

#include <dlbkit/runtime/application.hpp>

#include <type_traits>
#include <utility>
#include <vector>

namespace dlbkit {

/// `reduce(Result& into, const Result& other)` returning nothing, as Application::combine.
template <class Reduce, class Result>
concept reduces_in_place = std::is_invocable_v<const Reduce&, Result&, const Result&> &&
                           std::is_void_v<std::invoke_result_t<const Reduce&, Result&, const Result&>>;

/// A reduction of Results in either shape: in place, or `reduce(const Result&, const
/// Result&) -> Result`.
template <class Reduce, class Result>
concept reduction_for = reduces_in_place<Reduce, Result> ||
                        std::is_invocable_r_v<Result, const Reduce&, const Result&, const Result&>;

/// `execute(const Task&, TaskContext<Task, Result>&)`; `reduce` a reduction_for<Result>,
/// associative and commutative (std::plus<>{}, a maximum, ...).
template <class Task, class Result, class Execute, reduction_for<Result> Reduce>
class FunctionApplication final : public Application<Task, Result> {
public:
  FunctionApplication(std::vector<Task> roots, Execute execute, Result identity, Reduce reduce)
      : roots_(std::move(roots)),
        execute_(std::move(execute)),
        identity_(std::move(identity)),
        reduce_(std::move(reduce)) {}

  std::vector<Task> roots(NodeId worker, std::size_t workers) const override {
    std::vector<Task> mine;
    for (std::size_t i = worker; i < roots_.size(); i += workers) mine.push_back(roots_[i]);
    return mine;
  }
  void execute(const Task& task, TaskContext<Task, Result>& ctx) override { execute_(task, ctx); }
  void combine(Result& into, const Result& other) const override {
    if constexpr (reduces_in_place<Reduce, Result>) reduce_(into, other);
    else into = reduce_(std::as_const(into), other);
  }
  Result identity() const override { return identity_; }

private:
  std::vector<Task> roots_;
  Execute execute_;
  Result identity_;
  Reduce reduce_;
};

}  // namespace dlbkit
