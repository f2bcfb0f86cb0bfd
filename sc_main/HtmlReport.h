// vgpu-sim --report FILE.html: one self-contained page (inline CSS, JavaScript and SVG; no
// network, no libraries) with the run's charts: occupancy over time, bandwidth over time per
// level, issue rate, stall breakdown, LDS conflict histogram, and per-kernel, cache and traffic
// tables. Fed from the --stats JSON, whose "activity" object holds the time series.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace vgpu {

std::string renderHtmlReport(const nlohmann::json& stats);

}  // namespace vgpu
