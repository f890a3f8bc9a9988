/// The console's files, as SwiftPM embeds them (`resources: [.embedInCode("Assets")]` generates
/// `PackageResources`): no bundle is looked up at run time, so a statically linked binary serves them too.
enum ConsoleAssets {
    /// Every file by its name under `/.console/`; `index.html` is also the page at `/.console` itself.
    static let byName: [String: ConsoleAsset] = {
        let files: [(String, [UInt8])] = [
            ("index.html", PackageResources.index_html),
            ("console.css", PackageResources.console_css),
            ("api.js", PackageResources.api_js),
            ("session.js", PackageResources.session_js),
            ("tree.js", PackageResources.tree_js),
            ("rules.js", PackageResources.rules_js),
            ("cluster.js", PackageResources.cluster_js),
            ("charts.js", PackageResources.charts_js),
            ("playground.js", PackageResources.playground_js),
            ("query.js", PackageResources.query_js),
            ("namespaces.js", PackageResources.namespaces_js),
            ("main.js", PackageResources.main_js),
        ]
        return Dictionary(uniqueKeysWithValues: files.map { ($0.0, ConsoleAsset(name: $0.0, bytes: $0.1)) })
    }()
}
