// Platforms: JSON descriptions of a GPU (platforms/*.json, built into the binary) or a user's
// own JSON file, turned into a PlatformConfig. Every parameter may be written as a plain number
// or as {"value": V, "unit": "...", "source": "..."}; the unit and source document the figure.
#pragma once

#include <string>
#include <vector>

#include "common/PlatformConfig.h"

namespace vgpu {

struct PlatformSummary {
  std::string name;
  std::string description;
  std::vector<std::string> aliases;  // other names --platform accepts for it ("mi50")
};

// The built-in platform an alias names ("mi50" -> "vega20"), or `name` itself when it is not an
// alias. Aliases are the product names the platforms model, as users and README write them.
std::string resolvePlatformAlias(const std::string& name);

// Built-in platform names with descriptions, sorted by name.
std::vector<PlatformSummary> builtinPlatforms();

// A built-in platform by name, or a JSON file by path (anything ending in .json or containing
// a '/'). Throws InputError naming the problem (unknown name: lists the built-in ones).
PlatformConfig loadPlatform(const std::string& nameOrPath);

// Parses platform JSON; `origin` names it in error messages.
PlatformConfig parsePlatform(const std::string& json, const std::string& origin);

}  // namespace vgpu
