import Foundation
import HeartworkApp
import Hummingbird
import Mustache

/// Why the server cannot start: a resource it needs is missing or broken.
struct ResourceError: Error, CustomStringConvertible {
    let description: String
}
