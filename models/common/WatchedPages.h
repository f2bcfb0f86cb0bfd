// Pages of device memory whose bytes a block inside the GPU keeps a derived copy of (the
// decoded instructions of the instruction decode cache): the memory tells that block when such
// a page is written, by any path (the host port, a kernel store, an atomic, a debugger's
// transport_dbg write), so the copy can be dropped. For that
// the memory revokes DMI over a page when it becomes watched and, while it is, grants DMI there
// that allows reads only (and only to a request to read), so that no write can bypass it
// (IEEE 1666-2011, the direct memory interface: a target invalidates the pointers it can no
// longer honour; a grant says which accesses it allows). Reads need no report: an instruction
// cache hit on such a page takes its bytes through that DMI.
#pragma once

#include <cstdint>

namespace vgpu {

// Watched pages are this many bytes, aligned to their size.
constexpr uint64_t kWatchedPageBytes = 4096;
constexpr unsigned kWatchedPageShift = 12;
static_assert(kWatchedPageBytes == uint64_t{1} << kWatchedPageShift);

// Told when a watched page is written. The page is no longer watched then: watch it again once
// something derived from its new bytes is kept.
class PageWriteListener {
 public:
  virtual ~PageWriteListener() = default;
  // `page` is a page number (address >> kWatchedPageShift).
  virtual void watchedPageWritten(uint64_t page) = 0;
};

// The memory side: watches pages for one listener.
class PageWatcher {
 public:
  virtual ~PageWatcher() = default;
  // From now until the page is next written, writes to it are reported to `listener`.
  virtual void watchPage(uint64_t page, PageWriteListener& listener) = 0;
};

}  // namespace vgpu
