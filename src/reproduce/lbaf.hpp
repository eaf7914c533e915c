#pragma once
/// \file
/// phases-lbaf (docs/phases.md, "Beside LBAF"): tempered on every InformAndTransfer
/// configuration Sandia's LBAF ships, and on its thousands-tasks data under the hundreds-tasks
/// configuration, beside LBAF's own results. LBAF runs in Python and is not deterministic: its
/// figures are those scripts/lbaf-peer.sh measured (5 runs: median, min and max), kept here
/// with the commit they ran at; ours run from LBAF's configuration files and data (`-p
/// lbaf=PATH`, an LBAF checkout), seeds 1 to --runs.

#include "reproduce/reproduction.hpp"

namespace dlbkit {

ReproductionInfo phases_lbaf_reproduction();

}  // namespace dlbkit
