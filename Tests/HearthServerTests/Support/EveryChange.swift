import HearthCore

@testable import HearthDatabase

/// A listener that hears every change of the default namespace and does nothing with it: registered, it makes the
/// read view keep every old root for the change it reports, as a real listener at the root would.
final class EveryChange: ChangeListener {
    let namespace = "default"
    let path = Path.root
    func changed(_ change: CommittedChange) {}
}
