import Foundation
import HeartworkCore
import HeartworkFormats
import OpenAPIKit
import Testing

@testable import HeartworkServer

/// The API description as a contract every test response is held to: the operation must
/// document the status it answered with, and a JSON body must match the documented schema
/// (types, required members, no undocumented members, enums, bounds, formats). OpenAPIKit
/// reads, validates and dereferences the document; the walk over the schema is ours (no
/// JSON Schema validator is in the mirror).
/// Immutable after init, so sharing it across test tasks is safe.
final class OpenAPIContract: @unchecked Sendable {
    static let shared: OpenAPIContract = {
        do {
            return try OpenAPIContract(Data(EmbeddedResources.openAPIDocument))
        } catch {
            fatalError("openapi.json cannot be read: \(error)")  // a test-time failure of our own document
        }
    }()

    struct Operation {
        let method: String
        let template: String
        let segments: [String]
        let operation: DereferencedOperation
    }

    let document: DereferencedDocument
    let operations: [Operation]

    init(_ data: Data) throws {
        let decoded = try JSONDecoder().decode(OpenAPI.Document.self, from: data)
        try decoded.validate()
        document = try decoded.locallyDereferenced()
        var operations = [Operation]()
        for (path, item) in document.paths {
            for endpoint in item.endpoints {
                operations.append(
                    Operation(
                        method: endpoint.method.rawValue.lowercased(), template: path.rawValue,
                        segments: path.components, operation: endpoint.operation))
            }
        }
        self.operations = operations
    }

    /// The documented operation a request reaches, if any. As the router does, a literal
    /// segment wins over a parameter (`/api/routines/order` before `/api/routines/{routineID}`).
    func operation(method: String, path: String) -> Operation? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let matching = operations.filter { operation in
            operation.method == method.lowercased() && operation.segments.count == parts.count
                && zip(operation.segments, parts).allSatisfy { template, part in template.hasPrefix("{") || template == part }
        }
        return matching.min { a, b in
            a.segments.map { $0.hasPrefix("{") ? 1 : 0 }.lexicographicallyPrecedes(b.segments.map { $0.hasPrefix("{") ? 1 : 0 })
        }
    }

    /// Every way the response breaks the contract (empty when it keeps it).
    func violations(method: String, uri: String, status: Int, contentType: String?, body: Data) -> [String] {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        guard let operation = operation(method: method, path: path) else { return [] }
        let name = "\(method.uppercased()) \(operation.template) → \(status)"
        let responses = operation.operation.responses
        guard let response = responses[status: status] ?? responses[.default] else {
            return ["\(name): status not documented (documented: \(responses.keys.map(\.rawValue).sorted().joined(separator: ", ")))"]
        }
        guard let contentType, !body.isEmpty else { return [] }
        let mediaType = contentType.split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? contentType
        guard mediaType.hasSuffix("json") else { return [] }
        guard let content = response.content.first(where: { $0.key.rawValue == mediaType })?.value else {
            return ["\(name): media type \(mediaType) not documented (documented: \(response.content.keys.map(\.rawValue).joined(separator: ", ")))"]
        }
        guard let schema = content.schema else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue.parse([UInt8](body))
        } catch {
            return ["\(name): the body is not JSON: \(error)"]
        }
        var issues = [String]()
        SchemaWalk.check(value, schema, path: "body", issues: &issues)
        return issues.map { "\(name): \($0)" }
    }
}

extension DereferencedResponse.Map {
    subscript(status status: Int) -> DereferencedResponse? {
        first { $0.key.rawValue == String(status) }?.value
    }

    subscript(_ key: OpenAPI.Response.StatusCode) -> DereferencedResponse? {
        first { $0.key == key }?.value
    }
}

/// A JSON value checked against a (dereferenced) JSON Schema.
enum SchemaWalk {
    static func check(_ value: JSONValue, _ schema: DereferencedJSONSchema, path: String, issues: inout [String]) {
        if value == .null, schema.nullable { return }
        if let allowed = schema.allowedValues, !allowed.contains(where: { same(value, $0.value) }) {
            issues.append("\(path): \(describe(value)) is not one of \(allowed.map { "\($0.value ?? "null")" })")
        }
        switch schema {
        case .null:
            if value != .null { issues.append("\(path): expected null, found \(describe(value))") }
        case .boolean:
            if case .bool = value {} else { issues.append("\(path): expected a boolean, found \(describe(value))") }
        case .number(_, let context):
            guard case .number(let number) = value else { return issues.append("\(path): expected a number, found \(describe(value))") }
            checkBounds(number, minimum: context.minimum.map { ($0.value, $0.exclusive) }, maximum: context.maximum.map { ($0.value, $0.exclusive) }, path: path, issues: &issues)
        case .integer(_, let context):
            guard case .number(let number) = value, number == number.rounded() else {
                return issues.append("\(path): expected an integer, found \(describe(value))")
            }
            checkBounds(
                number, minimum: context.minimum.map { (Double($0.value), $0.exclusive) }, maximum: context.maximum.map { (Double($0.value), $0.exclusive) }, path: path,
                issues: &issues)
        case .string(let core, let context):
            guard case .string(let text) = value else { return issues.append("\(path): expected a string, found \(describe(value))") }
            if text.count < context.minLength { issues.append("\(path): shorter than \(context.minLength)") }
            if let maximum = context.maxLength, text.count > maximum { issues.append("\(path): longer than \(maximum)") }
            if let pattern = context.pattern, text.range(of: pattern, options: .regularExpression) == nil {
                issues.append("\(path): '\(text)' does not match \(pattern)")
            }
            switch core.format.rawValue {
            case "date-time": if RFC3339.parse(text) == nil { issues.append("\(path): '\(text)' is not a date-time") }
            case "date": if CalendarDay(iso: text) == nil { issues.append("\(path): '\(text)' is not a date") }
            default: break
            }
        case .object(_, let context):
            guard case .object(let members) = value else { return issues.append("\(path): expected an object, found \(describe(value))") }
            let names = Set(members.map(\.key))
            for required in context.requiredProperties where !names.contains(required) {
                issues.append("\(path).\(required): required but missing")
            }
            for (key, member) in members {
                if let property = context.properties[key] {
                    check(member, property, path: "\(path).\(key)", issues: &issues)
                } else {
                    switch context.additionalProperties {
                    case .a(false)?: issues.append("\(path).\(key): not documented")
                    case .b(let schema)?: check(member, schema, path: "\(path).\(key)", issues: &issues)
                    default: break
                    }
                }
            }
        case .array(_, let context):
            guard case .array(let elements) = value else { return issues.append("\(path): expected an array, found \(describe(value))") }
            if elements.count < context.minItems { issues.append("\(path): fewer than \(context.minItems) items") }
            if let maximum = context.maxItems, elements.count > maximum { issues.append("\(path): more than \(maximum) items") }
            if let items = context.items {
                for (index, element) in elements.enumerated() { check(element, items, path: "\(path)[\(index)]", issues: &issues) }
            }
        case .all(of: let schemas, core: _):
            for schema in schemas { check(value, schema, path: path, issues: &issues) }
        case .one(of: let schemas, core: _), .any(of: let schemas, core: _):
            let passing = schemas.filter { schema in
                var local = [String]()
                check(value, schema, path: path, issues: &local)
                return local.isEmpty
            }
            if passing.isEmpty { issues.append("\(path): matches none of \(schemas.count) alternatives") }
        case .not(let schema, core: _):
            var local = [String]()
            check(value, schema, path: path, issues: &local)
            if local.isEmpty { issues.append("\(path): matches a schema it must not") }
        case .fragment:
            break
        }
    }

    private static func checkBounds(_ number: Double, minimum: (Double, Bool)?, maximum: (Double, Bool)?, path: String, issues: inout [String]) {
        if let (bound, exclusive) = minimum, exclusive ? number <= bound : number < bound { issues.append("\(path): \(number) is below \(bound)") }
        if let (bound, exclusive) = maximum, exclusive ? number >= bound : number > bound { issues.append("\(path): \(number) is above \(bound)") }
    }

    private static func same(_ value: JSONValue, _ allowed: Any?) -> Bool {
        switch (value, allowed) {
        case (.null, nil): true
        case (.string(let text), let other as String): text == other
        case (.bool(let flag), let other as Bool): flag == other
        case (.number(let number), let other as Int): number == Double(other)
        case (.number(let number), let other as Double): number == other
        default: false
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let number): "\(number)"
        case .string(let text): "'\(text.prefix(40))'"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
