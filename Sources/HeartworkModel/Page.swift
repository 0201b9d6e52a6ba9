/// A page of results: at most 100 rows, from an offset.
public struct Page: Sendable, Hashable {
    public var limit: Int
    public var offset: Int

    public init(limit: Int = 20, offset: Int = 0) {
        self.limit = max(1, min(limit, 100))
        self.offset = max(0, offset)
    }
}
