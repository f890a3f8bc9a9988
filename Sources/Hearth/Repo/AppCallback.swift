/// An app's closure, held by the repo and called only on the database's callback queue, one call at a time.
///
/// FirebaseDatabase's blocks are not `@Sendable` (an app's callbacks touch its own state on the main queue), and
/// neither are ours; this box is what lets the repo carry one from the app's thread to the callback queue.
struct AppCallback<Argument>: @unchecked Sendable {
    private let body: (Argument) -> Void

    init(_ body: @escaping (Argument) -> Void) {
        self.body = body
    }

    /// Calls the closure; only on the callback queue.
    func callAsFunction(_ argument: Argument) {
        self.body(argument)
    }
}
