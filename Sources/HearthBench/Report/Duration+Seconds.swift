extension Duration {
    /// The length in seconds, fractions included.
    var inSeconds: Double {
        Double(self.components.seconds) + Double(self.components.attoseconds) / 1e18
    }
}
