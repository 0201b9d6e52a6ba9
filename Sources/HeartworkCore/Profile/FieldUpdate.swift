/// A change to an optional field: give it a value, or clear it. A field that is not being
/// changed is simply absent (`FieldUpdate<T>?` is nil), so "leave it" and "clear it" differ.
public enum FieldUpdate<Value: Sendable & Hashable>: Sendable, Hashable {
    case set(Value)
    case clear

    /// The value the field ends up with.
    public var value: Value? {
        switch self {
        case .set(let value): value
        case .clear: nil
        }
    }

    public func map<T>(_ transform: (Value) throws -> T) rethrows -> FieldUpdate<T> {
        switch self {
        case .set(let value): .set(try transform(value))
        case .clear: .clear
        }
    }
}
