// The native programs' allocator policy: keep freed memory for the next allocation.
//
// Training allocates and frees the same large blocks every step (one gradient per sequence,
// 10 MB each, and the activations). glibc returns blocks that large to the kernel on free(),
// and the next malloc() gets fresh pages that the kernel must fault in and zero one by one:
// 30 million page faults in the first 12 minutes of the shipped model's run, a third of a core
// spent in the kernel. Keeping them (at most 32 MB per block through the heap, no trimming)
// made the same run 1.75x faster, bit for bit the same (docs/benchmarks.md). The browser's
// allocator never returns memory, so the page needs nothing of this.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attn {
namespace cli {

inline void KeepFreedMemory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // blocks up to 32 MB (glibc's largest) from the heap
  mallopt(M_TRIM_THRESHOLD, 1 << 30);   // and the heap's free top kept, up to 1 GB
#endif
}

}  // namespace cli
}  // namespace attn
