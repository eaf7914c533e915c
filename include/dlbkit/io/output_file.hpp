#pragma once
/// \file
/// The one writer of the files the tool produces (CSV tables, gnuplot scripts, tardiness
/// instances): a write that fails anywhere, down to the final flush on a full disk, is an
/// error naming the file, never a silent partial file; the file is replaced atomically
/// (io/atomic_file.hpp), so a failed write leaves an existing file as it was.

#include <string>
#include <string_view>

namespace dlbkit {

/// Writes `text` to the file at `path`, replacing it; flushes and closes it before checking.
/// Throws InputError naming the path and the system's reason when the file cannot be written.
void write_text_file(const std::string& path, std::string_view text);

}  // namespace dlbkit
