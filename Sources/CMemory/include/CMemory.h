#ifndef WORKOUT_CMEMORY_H
#define WORKOUT_CMEMORY_H

/// Makes the C allocator serve blocks of at least `bytes` from their own mappings, returned
/// to the system when freed (glibc's M_MMAP_THRESHOLD, which otherwise adapts upward after
/// large frees and then keeps large blocks in the heap). Returns 1 on success, 0 where the
/// allocator has no such setting.
int workout_memory_set_mmap_threshold(int bytes);

/// Caps the number of malloc arenas the C allocator keeps (glibc's M_ARENA_MAX, otherwise
/// eight per core, one taken by each thread that allocates while the others are busy).
/// Returns 1 on success, 0 where the allocator has no such setting.
int workout_memory_set_arena_limit(int arenas);

/// Gives the system back the free memory of every malloc arena, not only the top of the main
/// heap (glibc's malloc_trim(0): "Since glibc 2.8 this function frees memory in all arenas
/// and in all chunks with whole free pages", malloc_trim(3)). Walks every arena under its
/// lock: for rare use, not per request. Returns 1 when memory was given
/// back, 0 when none could be, or where the allocator has no such call.
int workout_memory_trim(void);

#endif
