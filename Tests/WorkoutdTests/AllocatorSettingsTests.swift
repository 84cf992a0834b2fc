import CMemory
import Testing

/// The C allocator's settings reach glibc (they once compiled to stubs that did nothing).
@Suite struct AllocatorSettingsTests {
    @Test("On glibc, the mmap threshold and arena cap are accepted")
    func settingsTakeEffect() {
        #if os(Linux)
        #expect(workout_memory_set_mmap_threshold(1 << 20) == 1)
        #expect(workout_memory_set_arena_limit(8) == 1)
        #endif
    }
}
