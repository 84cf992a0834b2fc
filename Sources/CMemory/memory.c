#include "CMemory.h"

#if defined(__GLIBC__)
#include <malloc.h>

int workout_memory_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
#else
int workout_memory_set_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}
#endif
