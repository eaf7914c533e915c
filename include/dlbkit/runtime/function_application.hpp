#pragma once
/// \file
/// An Application written as values: the roots, a function that executes one task, the
/// identity of the result and a reduction. dlbkit::Runtime::run(roots, execute, identity,
/// reduce) builds one; it is public for programs that call the engines themselves.
///
/// The roots are dealt round-robin: root i starts on worker i mod P.

#include <dlbkit/runtime/application.hpp>

#include <utility>
#include <vector>

namespace dlbkit {

/// `execute(const Task&, TaskContext<Task, Result>&)`; `reduce(const Result&, const Result&)
/// -> Result`, associative and commutative (std::plus<>{}, a maximum, ...).
template <class Task, class Result, class Execute, class Reduce>
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
    into = reduce_(std::as_const(into), other);
  }
  Result identity() const override { return identity_; }

private:
  std::vector<Task> roots_;
  Execute execute_;
  Result identity_;
  Reduce reduce_;
};

}  // namespace dlbkit
