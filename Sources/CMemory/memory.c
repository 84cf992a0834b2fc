#include "CMemory.h"

#if defined(__GLIBC__)
#include <malloc.h>

int workout_memory_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int workout_memory_set_arena_limit(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}
#else
int workout_memory_set_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}
int workout_memory_set_arena_limit(int arenas) {
    (void)arenas;
    return 0;
}
#endif
