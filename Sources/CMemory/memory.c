#include "CMemory.h"

// __GLIBC__ comes from <features.h>, which nothing above includes: without it the test below
// was always false, and every setting here compiled to the stubs at the end.
#if defined(__linux__)
#include <features.h>
#endif

#if defined(__GLIBC__)
#include <malloc.h>

int workout_memory_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int workout_memory_set_arena_limit(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

int workout_memory_trim(void) {
    return malloc_trim(0);
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
int workout_memory_trim(void) {
    return 0;
}
#endif
