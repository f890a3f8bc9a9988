import CHearthSystem

/// Where the C allocator puts big buffers, so that the memory of a big request goes back to the system once the
/// request is done.
///
/// glibc maps allocations above a threshold (128 KiB at start) on their own and unmaps them when freed, but raises
/// the threshold to the size of each mapped buffer that is freed (up to 32 MiB). After one 16 MB request body, every
/// later buffer of that size came from the heap, and its pages stayed with the process once freed: a node that took
/// a 16 MB JSON array kept several copies' worth of pages it no longer used. A fixed threshold turns that
/// adjustment off. It costs one mapping and one unmapping per big buffer, and big buffers are few (request bodies,
/// log batches, snapshot blocks).
public enum LargeAllocations {
    /// Allocations of at least this many bytes are mapped on their own.
    public static let threshold = 1 << 20

    /// Fixes the threshold for the whole process; returns false when the allocator refused (it then keeps glibc's
    /// adjusting threshold, which only costs memory).
    @discardableResult
    public static func returnToTheSystemWhenFreed() -> Bool {
        chearth_set_mmap_threshold(Int32(Self.threshold)) == 1
    }
}
