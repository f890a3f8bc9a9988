package import HearthCore

/// The binary form of a list of transactions (`u32 n`, then `n × u64`), shared by the log's `forget` entries and
/// the shard calls that ask for one.
extension TransactionID {
    package static func encode(_ transactions: [TransactionID], into bytes: inout [UInt8]) {
        BinaryWriter.append(UInt32(truncatingIfNeeded: transactions.count), to: &bytes)
        for transaction in transactions { BinaryWriter.append(transaction.rawValue, to: &bytes) }
    }

    package static func decodeList(from reader: inout BinaryReader) throws(BinaryDecodingError) -> [TransactionID] {
        let count = Int(try reader.readUInt32())
        var transactions: [TransactionID] = []
        transactions.reserveCapacity(min(count, 1 << 16))
        for _ in 0..<count { transactions.append(TransactionID(rawValue: try reader.readUInt64())) }
        return transactions
    }
}
