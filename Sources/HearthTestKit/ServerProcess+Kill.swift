import Foundation
import HearthSystem

extension ServerProcess {
    /// Runs `writers` blocking load generators against the server, each on its own connection and thread, and
    /// SIGKILLs the server once `milliseconds` have passed and `ready()` holds (the load has done what the test needs
    /// before the crash, however long a loaded machine takes to get there; two minutes at most); returns once the
    /// server has exited.
    ///
    /// Each generator calls `write(writer, sequence, client)` for sequence 1, 2, … until it returns false (the
    /// request failed, as every request does once the server is gone) or the server has been killed.
    public func killDuringLoad(
        writers: Int, afterMilliseconds milliseconds: Int, once ready: @escaping @Sendable () -> Bool = { true },
        write: @escaping @Sendable (_ writer: Int, _ sequence: Int, _ client: HTTPTestClient) -> Bool
    ) async {
        let port = self.port
        let process = self.process
        let stop = Flag()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try? await onDedicatedThread {
                        guard let client = try? HTTPTestClient(port: port, timeoutSeconds: 2) else { return }
                        var sequence = 0
                        while !stop.isSet {
                            sequence += 1
                            guard write(writer, sequence, client) else { return }
                        }
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(milliseconds))
                _ = await eventually(seconds: 120, every: 0.01) { ready() }
                process.signal(SIGKILL)
                stop.set()
            }
        }
        await self.exited()
    }
}
