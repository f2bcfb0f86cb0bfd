#include "activity/ActivitySampler.h"

namespace vgpu {

ActivitySampler::Channel ActivitySampler::channel(const std::string& name) {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it != names_.end()) return static_cast<Channel>(it - names_.begin());
  names_.push_back(name);
  values_.emplace_back(kMaxBuckets, 0);
  return static_cast<Channel>(names_.size() - 1);
}

std::vector<uint64_t> ActivitySampler::values(Channel c) const {
  const std::vector<uint64_t>& v = values_.at(c);
  return std::vector<uint64_t>(v.begin(), v.begin() + static_cast<long>(bucketCount()));
}

}  // namespace vgpu
