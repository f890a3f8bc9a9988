import HearthTestKit
import Testing

@Suite struct SimulatedDiskTests {
    @Test func syncedRecordsSurviveEveryCrash() {
        var random = SeededRandom(seed: 3)
        for _ in 0..<200 {
            var disk = SimulatedDisk()
            for n in 0..<5 { disk.append([UInt8(n)]) }
            disk.sync()
            for n in 5..<9 { disk.append([UInt8(n)]) }
            let recovered = disk.crash(using: &random)
            #expect(recovered.records.count >= 5 && recovered.records.count <= 9)
            #expect(recovered.records == (0..<recovered.records.count).map { [UInt8($0)] })
            #expect(recovered.corruptedDurableRecord == nil)
            #expect(disk.durableCount == recovered.records.count)
        }
    }

    @Test func crashesLoseSomeUnsyncedWritesAndTearSome() {
        var random = SeededRandom(seed: 4)
        var lost = 0
        var torn = 0
        for _ in 0..<200 {
            var disk = SimulatedDisk()
            for n in 0..<4 { disk.append([UInt8(n)]) }
            let recovered = disk.crash(using: &random)
            if recovered.records.count < 4 { lost += 1 }
            if recovered.tornTail { torn += 1 }
        }
        #expect(lost > 50 && torn > 20)
    }

    @Test func aCorruptedDurableRecordStopsRecoveryThere() {
        var disk = SimulatedDisk()
        for n in 0..<5 { disk.append([UInt8(n)]) }
        disk.sync()
        disk.corrupt(durableRecord: 2)
        let recovered = disk.recover()
        #expect(recovered.records == [[0], [1]])
        #expect(recovered.corruptedDurableRecord == 2)
        disk.dropFirst(3)
        #expect(disk.recover().corruptedDurableRecord == nil)
        #expect(disk.recover().records == [[3], [4]])
    }
}
