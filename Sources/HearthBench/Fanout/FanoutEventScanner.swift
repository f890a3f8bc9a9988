/// Finds a run's events in one listener's inbound bytes, however the stream is cut into reads: each event carries
/// `marker` followed by its write's number in `FanoutOptions.writeDigits` decimal digits. A pure value.
struct FanoutEventScanner {
    private let marker: [UInt8]
    /// The end of the last read that may begin an event the next read completes.
    private var carry: [UInt8] = []

    init(marker: [UInt8]) {
        precondition(!marker.isEmpty, "an event marker has at least one byte")
        self.marker = marker
    }

    /// Scans the next bytes of the stream; `found` hears each event's write number, in stream order.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, _ found: (Int) -> Void) {
        self.carry.append(contentsOf: bytes)
        let length = self.marker.count + FanoutOptions.writeDigits
        var start = 0
        var kept = max(0, self.carry.count - length + 1)
        self.carry.withUnsafeBufferPointer { data in
            while start + length <= data.count {
                guard let at = Self.find(self.marker, in: data, from: start, before: data.count - length + 1) else {
                    return
                }
                if let number = Self.number(in: data, at: at + self.marker.count) {
                    found(number)
                    kept = max(kept, at + length)
                }
                start = at + 1
            }
        }
        self.carry.removeFirst(min(kept, self.carry.count))
    }

    /// The first position at or after `start` and before `end` where `marker` begins. (Hand-written: the standard
    /// library's `firstRange(of:)` made the harness spend six times the CPU per event.)
    private static func find(
        _ marker: [UInt8], in data: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int
    ) -> Int? {
        var at = start
        while at < end {
            if data[at] == marker[0] {
                var matched = 1
                while matched < marker.count, data[at + matched] == marker[matched] { matched += 1 }
                if matched == marker.count { return at }
            }
            at += 1
        }
        return nil
    }

    /// The write number in the digits at `position`, or nil when they are not all digits.
    private static func number(in data: UnsafeBufferPointer<UInt8>, at position: Int) -> Int? {
        var value = 0
        for offset in 0..<FanoutOptions.writeDigits {
            let byte = data[position + offset]
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}
