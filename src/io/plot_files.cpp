#include <dlbkit/io/plot_files.hpp>
#include <dlbkit/io/gnuplot.hpp>

namespace dlbkit {

AtomicFile& PlotFiles::open(const std::string& path) { return *files_.emplace_back(std::make_unique<AtomicFile>(path)); }

void PlotFiles::add_text(const std::string& path, std::string_view text) {
  AtomicFile& file = open(path);
  file.write(text);
  file.close();  // a full disk is found here, before gnuplot reads the file
}

void PlotFiles::draw(const std::string& script_path, const std::string& png,
                     const std::function<std::string(const Names&)>& script) {
  open(png).close();  // gnuplot writes the picture by its name
  const Names written = [this](const std::string& path) {
    for (const auto& file : files_)
      if (file->path() == path) return file->written();
    return path;
  };
  run_gnuplot(script_path, script(written));
  open(script_path).write(script([](const std::string& path) { return path; }));
}

void PlotFiles::commit() {
  for (const auto& file : files_) file->close();
  for (const auto& file : files_) file->commit();
}

}  // namespace dlbkit
