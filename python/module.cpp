// dlbkit._dlbkit: the library behind the Python package dlbkit (python/dlbkit/__init__.py,
// which documents the API and turns Python values into the texts read here). The inputs go
// through the same functions as the CLI's (experiment_setup, parse_topology, the registries)
// and the results come out of the same to_json, so the two cannot drift.
// A guest in someone's process: it prints nothing and aborts on nothing; bad input raises.

#include <dlbkit/analysis/analyze_command.hpp>
#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/analysis/spectrum.hpp>
#include <dlbkit/apps/calibrate_command.hpp>
#include <dlbkit/apps/run_command.hpp>
#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/rounds/rounds_command.hpp>
#include <dlbkit/sim/cost_model.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/describe.hpp>
#include <dlbkit/topology/topology.hpp>
#include <dlbkit/workloads/advise_command.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/workloads/experiment_setup.hpp>
#include <dlbkit/workloads/phases_command.hpp>
#include "reproduce/reproduction.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

// JSON as the CLI prints it (invalid UTF-8 replaced); the package parses it with json.loads.
std::string json_text(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

py::dict param_dict(const std::string& name, const std::string& default_value, const std::string& description,
                    const std::string& accepted, const std::vector<std::string>& search = {}) {
  py::dict d;
  d["name"] = name;
  d["default"] = default_value;
  d["description"] = description;
  d["accepted"] = accepted;
  d["search"] = search;  // the values `dlbkit advise` tries besides the default
  return d;
}

// A registry's entries (strategies, workloads) as `dlbkit list` shows them.
template <class Info>
py::list components(const std::vector<Info>& items) {
  py::list out;
  for (const Info& item : items) {
    py::list params;
    for (const dlbkit::ParamSpec& p : item.params)
      params.append(param_dict(p.name, p.default_value, p.description, p.accepted(), p.search));
    py::dict d;
    d["name"] = item.name;
    d["description"] = item.description;
    d["source"] = item.source;
    d["params"] = params;
    out.append(d);
  }
  return out;
}

// Each preset with its fields; a field's default is the preset's value, as text.
py::list cost_models() {
  py::list out;
  for (const dlbkit::CostModelPreset& preset : dlbkit::cost_model_presets()) {
    const nlohmann::json fields = dlbkit::make_cost_model(preset.name).to_json();
    py::list params;
    for (const dlbkit::ParamSpec& p : dlbkit::cost_model_params()) {
      const auto it = fields.find(p.name);
      const std::string value = it == fields.end() ? p.default_value
                                : it->is_string()  ? it->get<std::string>()
                                                   : it->dump();
      params.append(param_dict(p.name, value, p.description, p.accepted()));
    }
    py::dict d;
    d["name"] = preset.name;
    d["description"] = preset.description;
    d["source"] = "";
    d["params"] = params;
    out.append(d);
  }
  return out;
}

// The inputs as texts, exactly as the CLI's options hold them; None keeps the CLI's default.
std::string simulate(std::string strategy, std::string topology, std::string workload, std::string cost,
                     std::map<std::string, std::string> params, std::map<std::string, std::string> workload_params,
                     std::map<std::string, std::string> cost_params, std::string seed, std::string execution,
                     std::optional<std::string> max_events, std::optional<std::string> max_seconds, bool per_node,
                     std::optional<std::string> speeds, std::optional<std::string> threads) {
  dlbkit::ExperimentInputs in{.strategy = std::move(strategy),
                              .topology = std::move(topology),
                              .workload = std::move(workload),
                              .cost = std::move(cost),
                              .params = std::move(params),
                              .workload_params = std::move(workload_params),
                              .cost_params = std::move(cost_params),
                              .seed = std::move(seed),
                              .execution = std::move(execution),
                              .speeds = std::move(speeds),
                              .threads = std::move(threads)};
  if (max_events) in.max_events = *max_events;
  if (max_seconds) in.max_seconds = *max_seconds;
  py::gil_scoped_release release;  // other Python threads run meanwhile; the run touches no Python object
  const dlbkit::ExperimentSetup setup = dlbkit::experiment_setup(in);
  return json_text(dlbkit::to_json(setup, dlbkit::run_experiment(setup), per_node));
}

// A reproduction as `dlbkit reproduce NAME --json` prints it (the same checks of its inputs).
std::string reproduce(const std::string& name, const std::string& out, int runs, unsigned jobs,
                      const std::map<std::string, std::string>& params) {
  const dlbkit::ReproductionInfo& info = dlbkit::builtin_reproductions().find(name);
  if (runs < 0) throw dlbkit::InputError("runs " + std::to_string(runs) + "; accepted: at least 1");
  if (jobs < 1) throw dlbkit::InputError("jobs 0; accepted: at least 1");
  dlbkit::Parameters::parse(info.params, params, "reproduction " + info.name);
  py::gil_scoped_release release;
  dlbkit::ReproductionResult report =
      info.run({.out_dir = out + "/" + info.name, .runs = runs > 0 ? runs : info.default_runs, .jobs = jobs,
                .params = params});
  report.data["name"] = info.name;
  report.data["files"] = report.files;
  report.data["text"] = report.text;
  return json_text(report.data);
}

// The values as a numpy array of this shape that owns them (no copy).
template <class T>
py::array_t<T> numpy_of(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule free(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::move(shape), owned->data(), free);
}

// `dlbkit rounds --json` and, with record_loads, the loads after every step as a 2-D array.
py::tuple rounds(dlbkit::RoundsInputs in) {
  dlbkit::RoundsResult report;
  {
    py::gil_scoped_release release;
    report = dlbkit::rounds_command(in);
  }
  py::object loads = py::none();
  if (in.record_loads) {
    const auto rows = static_cast<py::ssize_t>(report.loads.size() / report.nodes);
    loads = numpy_of(std::move(report.loads), {rows, static_cast<py::ssize_t>(report.nodes)});
  }
  return py::make_tuple(json_text(report.json), loads);
}

// A recorded run's tasks as columns: task, worker, index (its name), parent (-1 for a root),
// origin (a root's worker it started on, -1 for a child), duration_ns.
py::dict read_trace(const std::string& path) {
  dlbkit::TaskTree tree;
  {
    py::gil_scoped_release release;
    tree = dlbkit::load_task_trace(path);
  }
  const std::size_t n = tree.tasks();
  std::vector<std::int64_t> task(n), worker(n), index(n), parent(n, -1), origin(n, -1), duration(n);
  for (const auto& s : tree.sections)
    for (std::uint64_t k = 0; k < s.count; ++k) {
      worker[s.first + k] = s.worker;
      index[s.first + k] = static_cast<std::int64_t>(k);
    }
  for (std::size_t i = 0; i < n; ++i) {
    task[i] = static_cast<std::int64_t>(i);
    duration[i] = tree.duration[i];
    for (std::uint32_t c = tree.first_child[i]; c < tree.first_child[i + 1]; ++c) parent[tree.children[c]] = task[i];
  }
  for (std::size_t r = 0; r < tree.roots.size(); ++r) origin[tree.roots[r]] = tree.root_origin[r];
  const auto rows = static_cast<py::ssize_t>(n);
  py::dict columns;
  columns["task"] = numpy_of(std::move(task), {rows});
  columns["worker"] = numpy_of(std::move(worker), {rows});
  columns["index"] = numpy_of(std::move(index), {rows});
  columns["parent"] = numpy_of(std::move(parent), {rows});
  columns["origin"] = numpy_of(std::move(origin), {rows});
  columns["duration_ns"] = numpy_of(std::move(duration), {rows});
  columns["workers"] = tree.workers;
  return columns;
}

// `dlbkit phases --json` (the same checks and messages; the files of `write` written).
std::string phases(dlbkit::PhasesInputs in) {
  py::gil_scoped_release release;
  return json_text(dlbkit::to_json(dlbkit::phases_command(in)));
}

// vt's LB data as columns, one row per object of each phase: phase (its id), rank, object (its
// id), load, migratable; with memory in the data, footprint_bytes, working_bytes,
// serialized_bytes, shared_id (-1: none); with communications between objects, the bytes and
// messages each object sent and received. Also "ranks", the rank count.
py::dict read_vt_data(const std::string& stem) {
  dlbkit::VtDataSet data;
  {
    py::gil_scoped_release release;
    data = dlbkit::read_vt_data(stem);
  }
  std::vector<std::int64_t> phase, rank, shared_id;
  std::vector<std::uint64_t> object;
  std::vector<double> load, footprint, working, serialized, sent_bytes, received_bytes, sent, received;
  std::vector<bool> migratable;
  bool memory = false, communications = false;
  for (const dlbkit::VtPhase& p : data.phases) {
    const std::size_t first = load.size(), n = p.phase.objects.size();
    memory = memory || p.phase.has_memory;
    communications = communications || !p.phase.communications.empty();
    for (std::size_t i = 0; i < n; ++i) {
      const dlbkit::PhaseObject& o = p.phase.objects[i];
      phase.push_back(p.id);
      rank.push_back(p.phase.node_of[i]);
      object.push_back(o.id);
      load.push_back(o.load);
      migratable.push_back(o.migratable);
      footprint.push_back(o.memory.footprint_bytes);
      working.push_back(o.memory.working_bytes);
      serialized.push_back(o.memory.serialized_bytes);
      shared_id.push_back(o.memory.block < 0 ? -1 : p.phase.block_ids.at(static_cast<std::size_t>(o.memory.block)));
    }
    sent_bytes.resize(first + n);
    received_bytes.resize(first + n);
    sent.resize(first + n);
    received.resize(first + n);
    for (const dlbkit::ObjectCommunication& c : p.phase.communications) {
      sent_bytes[first + c.from] += c.bytes;
      sent[first + c.from] += c.messages;
      received_bytes[first + c.to] += c.bytes;
      received[first + c.to] += c.messages;
    }
  }
  const auto rows = static_cast<py::ssize_t>(load.size());
  py::dict columns;
  columns["phase"] = numpy_of(std::move(phase), {rows});
  columns["rank"] = numpy_of(std::move(rank), {rows});
  columns["object"] = numpy_of(std::move(object), {rows});
  columns["load"] = numpy_of(std::move(load), {rows});
  py::array_t<bool> flags(rows);
  std::copy(migratable.begin(), migratable.end(), flags.mutable_data());
  columns["migratable"] = flags;
  if (memory) {
    columns["footprint_bytes"] = numpy_of(std::move(footprint), {rows});
    columns["working_bytes"] = numpy_of(std::move(working), {rows});
    columns["serialized_bytes"] = numpy_of(std::move(serialized), {rows});
    columns["shared_id"] = numpy_of(std::move(shared_id), {rows});
  }
  if (communications) {
    columns["sent_bytes"] = numpy_of(std::move(sent_bytes), {rows});
    columns["received_bytes"] = numpy_of(std::move(received_bytes), {rows});
    columns["sent_messages"] = numpy_of(std::move(sent), {rows});
    columns["received_messages"] = numpy_of(std::move(received), {rows});
  }
  columns["ranks"] = data.ranks;
  return columns;
}

dlbkit::NodeId node_of(const dlbkit::Topology& t, long long v) {
  if (v < 0 || static_cast<unsigned long long>(v) >= t.size())
    throw dlbkit::InputError("node " + std::to_string(v) + " is not in " + t.spec() + "; accepted: 0 to " +
                             std::to_string(t.size() - 1));
  return static_cast<dlbkit::NodeId>(v);
}

// Every eigenvalue of the graph Laplacian D - A, increasing: from those of the diffusion
// matrix M = I - alpha (D - A) (the analysis layer's dense solver), mu = (1 - lambda) / alpha.
py::array_t<double> laplacian_spectrum(const dlbkit::Topology& t) {
  std::vector<double> mu;
  if (t.size() == 1) mu = {0.0};
  else {
    py::gil_scoped_release release;
    const double alpha = 1.0 / static_cast<double>(t.max_degree());
    const std::vector<double> lambda = dlbkit::diffusion_eigenvalues(dlbkit::DiffusionMatrix::uniform(t, alpha));
    for (double l : lambda) mu.push_back((1.0 - l) / alpha);
    std::sort(mu.begin(), mu.end());
    mu.front() = 0;  // the all-ones vector's, exactly 0 on a connected network (not 1e-15 of rounding)
  }
  return py::array_t<double>(static_cast<py::ssize_t>(mu.size()), mu.data());
}

}  // namespace

PYBIND11_MODULE(_dlbkit, m) {
  m.doc() = "The C++ core of the dlbkit package; use `import dlbkit`.";

  // dlbkit::InputError (bad input) is a ValueError with the CLI's one-line message; any
  // other C++ exception a RuntimeError. pybind11's own exceptions go on to its translator.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const dlbkit::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const py::builtin_exception&) {
      throw;
    } catch (const py::error_already_set&) {
      throw;
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  py::class_<dlbkit::Topology>(m, "Topology", "An interconnection network, from dlbkit.topology(spec).")
      .def_property_readonly("spec", &dlbkit::Topology::spec, "the canonical spec, e.g. 'torus:4x4'")
      .def_property_readonly("size", &dlbkit::Topology::size, "the number of nodes")
      .def_property_readonly("degree", &dlbkit::Topology::max_degree, "the largest degree")
      .def_property_readonly("min_degree", &dlbkit::Topology::min_degree, "the smallest degree")
      .def_property_readonly("edges", &dlbkit::Topology::edge_count, "the number of undirected edges")
      .def_property_readonly(
          "diameter", [](const dlbkit::Topology& t) { return t.diameter(); },
          "the largest hop distance (a breadth-first search from every node for a large file graph)")
      .def(
          "neighbors",
          [](const dlbkit::Topology& t, long long v) {
            const auto nb = t.neighbors(node_of(t, v));
            return std::vector<dlbkit::NodeId>(nb.begin(), nb.end());
          },
          py::arg("v"), "node v's neighbours, in the stable order the strategies see")
      .def("distance", [](const dlbkit::Topology& t, long long u, long long v) { return t.distance(node_of(t, u), node_of(t, v)); },
           py::arg("u"), py::arg("v"), "the hop distance between nodes u and v")
      .def("_describe", [](const dlbkit::Topology& t) { return json_text(dlbkit::describe(t)); })
      .def("laplacian_spectrum", &laplacian_spectrum,
           "every eigenvalue of the graph Laplacian D - A, increasing, as a numpy array (by a dense solver: "
           "at most 2048 nodes, dlbkit::kDenseEigenLimit)")
      .def("__repr__", [](const dlbkit::Topology& t) { return "dlbkit.topology('" + t.spec() + "')"; });

  m.def("topology", [](const std::string& spec) { return dlbkit::parse_topology(spec); }, py::arg("spec"));
  m.def("simulate", &simulate, py::arg("strategy"), py::arg("topology"), py::arg("workload"), py::arg("cost"),
        py::arg("params"), py::arg("workload_params"), py::arg("cost_params"), py::arg("seed"), py::arg("execution"),
        py::arg("max_events"), py::arg("max_seconds"), py::arg("per_node"), py::arg("speeds"), py::arg("threads"));
  m.def(
      "rounds",
      [](std::string algorithm, std::string topology, std::string init, std::string until, std::string alpha,
         std::string lambda, std::string max_steps, std::string seed, std::string arrivals, std::string work,
         std::string warmup, std::string steps_per_period, std::string condition, std::string nna_transfer,
         std::string nna_time, std::string rounding, int threads, bool integer, bool trace, bool loads) {
        return rounds({.algorithm = std::move(algorithm), .topology = std::move(topology), .init = std::move(init),
                       .until = std::move(until), .alpha = std::move(alpha), .lambda = std::move(lambda),
                       .max_steps = std::move(max_steps), .seed = std::move(seed), .arrivals = std::move(arrivals),
                       .work = std::move(work), .warmup = std::move(warmup),
                       .steps_per_period = std::move(steps_per_period), .condition = std::move(condition),
                       .nna_transfer = std::move(nna_transfer), .nna_time = std::move(nna_time),
                       .rounding = std::move(rounding), .threads = threads, .integer = integer, .trace = trace,
                       .record_loads = loads});
      },
      py::arg("algorithm"), py::arg("topology"), py::arg("init"), py::arg("until"), py::arg("alpha"), py::arg("lambda_"),
      py::arg("max_steps"), py::arg("seed"), py::arg("arrivals"), py::arg("work"), py::arg("warmup"),
      py::arg("steps_per_period"), py::arg("condition"), py::arg("nna_transfer"), py::arg("nna_time"),
      py::arg("rounding"), py::arg("threads"), py::arg("integer"), py::arg("trace"), py::arg("loads"));
  m.def(
      "analyze_diffusion",
      [](std::string topology, std::string alpha, double factor) {
        py::gil_scoped_release release;
        return json_text(dlbkit::analyze_diffusion_command(
                             {.topology = std::move(topology), .alpha = std::move(alpha), .factor = factor})
                             .json);
      },
      py::arg("topology"), py::arg("alpha"), py::arg("factor"));
  m.def(
      "phases",
      [](std::string strategy, std::map<std::string, std::string> params, std::optional<std::string> workload,
         std::map<std::string, std::string> workload_params, std::optional<std::string> data,
         std::optional<std::int64_t> phase, std::optional<std::string> write, bool replay, std::string topology,
         std::optional<long long> phases_, std::optional<long long> every, std::optional<std::string> threshold,
         std::string cost, std::map<std::string, std::string> cost_params, std::string migration_cost,
         std::string migration_byte_cost, std::optional<std::string> memory_bound, std::uint64_t seed, bool optimal,
         std::optional<std::string> time_limit, std::optional<std::string> lbaf_config,
         std::optional<std::string> work_model, std::optional<std::string> charm_dump, bool as_protocol,
         std::optional<std::string> speeds, std::optional<std::string> devices, std::optional<std::string> offload,
         bool device_blind, std::optional<long long> memory_group) {
        return phases({.strategy = std::move(strategy), .params = std::move(params), .workload = std::move(workload),
                       .workload_params = std::move(workload_params), .data = std::move(data),
                       .charm_dump = std::move(charm_dump), .phase = phase,
                       .write = std::move(write), .replay = replay, .topology = std::move(topology),
                       .speeds = std::move(speeds),
                       .devices = std::move(devices),
                       .offload = std::move(offload),
                       .device_blind = device_blind,
                       .phases = phases_, .every = every, .threshold = std::move(threshold),
                       .rebalance = {.cost = std::move(cost), .cost_params = std::move(cost_params),
                                     .migration_cost = std::move(migration_cost),
                                     .migration_byte_cost = std::move(migration_byte_cost),
                                     .memory_bound = std::move(memory_bound),
                                     .memory_group = memory_group,
                                     .work_model = std::move(work_model)},
                       .seed = seed,
                       .optimal = optimal,
                       .time_limit = std::move(time_limit),
                       .as_protocol = as_protocol,
                       .lbaf_config = std::move(lbaf_config)});
      },
      py::arg("strategy"), py::arg("params"), py::arg("workload"), py::arg("workload_params"), py::arg("data"),
      py::arg("phase"), py::arg("write"), py::arg("replay"), py::arg("topology"), py::arg("phases"), py::arg("every"),
      py::arg("threshold"), py::arg("cost"), py::arg("cost_params"), py::arg("migration_cost"),
      py::arg("migration_byte_cost"), py::arg("memory_bound"), py::arg("seed"), py::arg("optimal"),
      py::arg("time_limit"), py::arg("lbaf_config"), py::arg("work_model"), py::arg("charm_dump"),
      py::arg("as_protocol"), py::arg("speeds"), py::arg("devices"), py::arg("offload"), py::arg("device_blind"),
      py::arg("memory_group"));
  // `dlbkit advise --json` (the same checks and messages): the inputs as texts, None an option not given.
  m.def(
      "advise",
      [](std::optional<std::string> workload, std::optional<std::string> trace, std::optional<std::string> data,
         std::string topology, std::string cost, std::map<std::string, std::string> cost_params, std::string seed,
         std::map<std::string, std::string> workload_params, std::optional<std::string> execution,
         std::optional<std::string> max_events, std::optional<std::string> max_seconds,
         std::optional<std::int64_t> phase, std::optional<long long> every, std::optional<std::string> threshold,
         std::optional<std::string> memory_bound, std::optional<std::string> migration_cost,
         std::optional<std::string> migration_byte_cost, bool as_protocol, unsigned jobs,
         std::optional<long long> memory_group) {
        const dlbkit::AdviseInputs in{.workload = std::move(workload), .trace = std::move(trace),
                                      .data = std::move(data), .topology = std::move(topology),
                                      .cost = std::move(cost), .cost_params = std::move(cost_params),
                                      .seed = std::move(seed), .workload_params = std::move(workload_params),
                                      .execution = std::move(execution), .max_events = std::move(max_events),
                                      .max_seconds = std::move(max_seconds), .phase = phase, .every = every,
                                      .threshold = std::move(threshold), .memory_bound = std::move(memory_bound),
                                      .migration_cost = std::move(migration_cost),
                                      .migration_byte_cost = std::move(migration_byte_cost),
                                      .memory_group = memory_group, .as_protocol = as_protocol, .jobs = jobs};
        py::gil_scoped_release release;
        return json_text(dlbkit::to_json(dlbkit::advise_command(in)));
      },
      py::arg("workload"), py::arg("trace"), py::arg("data"), py::arg("topology"), py::arg("cost"),
      py::arg("cost_params"), py::arg("seed"), py::arg("workload_params"), py::arg("execution"),
      py::arg("max_events"), py::arg("max_seconds"), py::arg("phase"), py::arg("every"), py::arg("threshold"),
      py::arg("memory_bound"), py::arg("migration_cost"), py::arg("migration_byte_cost"), py::arg("as_protocol"),
      py::arg("jobs"), py::arg("memory_group"));
  // `dlbkit run --json` (its warnings in the document only) and the cost model file of
  // `dlbkit calibrate`, with the same checks and messages; on the threads or sequential
  // engine: this module does not link the MPI one.
  m.def(
      "run",
      [](std::string app, std::vector<std::string> app_params, std::string strategy, std::vector<std::string> params,
         std::string topology, std::string engine, std::string workers, std::string seed, std::string check_tasks,
         std::string poll_interval, std::string max_delay, bool sequential, std::string record, std::string timeline,
         std::string timeline_nodes) {
        const dlbkit::RunInputs in{.app = std::move(app), .app_params = std::move(app_params),
                                   .strategy = std::move(strategy), .params = std::move(params),
                                   .topology = std::move(topology), .engine = std::move(engine),
                                   .workers = std::move(workers), .seed = std::move(seed),
                                   .check_tasks = std::move(check_tasks), .poll_interval = std::move(poll_interval),
                                   .max_delay = std::move(max_delay), .sequential = sequential,
                                   .record = std::move(record), .timeline = std::move(timeline),
                                   .timeline_nodes = std::move(timeline_nodes), .quiet = true};
        py::gil_scoped_release release;
        return json_text(dlbkit::to_json(dlbkit::run_command(in)));
      },
      py::arg("app"), py::arg("app_params"), py::arg("strategy"), py::arg("params"), py::arg("topology"),
      py::arg("engine"), py::arg("workers"), py::arg("seed"), py::arg("check_tasks"), py::arg("poll_interval"),
      py::arg("max_delay"), py::arg("sequential"), py::arg("record"), py::arg("timeline"), py::arg("timeline_nodes"));
  m.def(
      "calibrate",
      [](std::string output, std::string app, std::vector<std::string> app_params, std::string name, int repetitions,
         int app_runs, std::string poll_interval) {
        const dlbkit::CalibrateInputs in{.app = std::move(app), .app_params = std::move(app_params),
                                         .name = std::move(name), .repetitions = repetitions, .app_runs = app_runs,
                                         .poll_interval = std::move(poll_interval), .output = std::move(output)};
        py::gil_scoped_release release;
        return json_text(dlbkit::to_json(*dlbkit::calibrate_command(in)));
      },
      py::arg("output"), py::arg("app"), py::arg("app_params"), py::arg("name"), py::arg("repetitions"),
      py::arg("app_runs"), py::arg("poll_interval"));
  m.def("read_vt_data", &read_vt_data, py::arg("stem"));
  m.def("read_trace", &read_trace, py::arg("path"));
  m.def("reproduce", &reproduce, py::arg("name"), py::arg("out"), py::arg("runs"), py::arg("jobs"), py::arg("params"));
  m.def("reproductions", [] { return components(dlbkit::builtin_reproductions().all()); });
  m.def("strategies", [] { return components(dlbkit::builtin_strategies().all()); });
  m.def("workloads", [] { return components(dlbkit::builtin_workloads().all()); });
  m.def("cost_models", &cost_models);
}
