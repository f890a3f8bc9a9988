/// Records the writer takes together: their frames back to back, as they go to disk, with the checksums still to be
/// filled in (`WALFrame.appendUnsealed`), and their LSNs.
///
/// One buffer for the whole batch rather than an array per record: a record's bytes are copied once, from its
/// encoder's buffer into this one, which the writer seals in place and writes as it is.
struct WALBatch {
    /// The records' unsealed frames, in LSN order.
    var frames: [UInt8]
    /// The records' LSNs, dense.
    let lsns: ClosedRange<UInt64>
}
