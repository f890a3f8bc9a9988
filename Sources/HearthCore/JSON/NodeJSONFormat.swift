/// How a tree is rendered as JSON: what clients see from `val()`/REST, or the lossless export form.
public enum NodeJSONFormat: Sendable, Hashable {
    /// What REST `GET` and `val()` return: priorities dropped, and children whose keys are all canonical
    /// non-negative integers (`0|[1-9][0-9]*`) with `maxKey < 2 × count` rendered as an array of length `maxKey + 1`
    /// with `null` in the gaps (Firebase's array rule).
    case plain
    /// `format=export` and socket payloads: never arrays; a node with a priority carries `".priority"`, and a leaf
    /// with a priority becomes `{".value": v, ".priority": p}`.
    case export
}
