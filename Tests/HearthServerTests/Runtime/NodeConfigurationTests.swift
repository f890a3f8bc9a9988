import HearthNet
import Testing

@testable import HearthNode
@testable import HearthServer

@Suite struct NodeConfigurationTests {
    /// By default the client memory budget never cuts off a write the node's own limits accept; a budget the
    /// operator sets is taken as it is.
    @Test func theDefaultClientMemoryBudgetFitsTheLargestImport() {
        var configuration = NodeConfiguration()
        configuration.maximumImportBytes = 64 * 1024 * 1024 * 1024
        #expect(configuration.effectiveMaximumClientMemory == configuration.maximumImportBytes + 64 * 1024 * 1024)
        configuration.maximumImportBytes = 1024
        #expect(configuration.effectiveMaximumClientMemory == HTTPServerConfiguration.defaultMaximumClientMemory)
        configuration.maximumClientMemory = 10 * 1024 * 1024
        #expect(configuration.effectiveMaximumClientMemory == 10 * 1024 * 1024)
    }
}
