import Foundation
import Testing

@testable import HeartworkServer

/// The embedded resources are the folder's files, all of them, and every template parses.
@Suite("Embedded resources")
struct ResourceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/HeartworkServer/Resources").standardized

    @Test func everyFileInTheFolderIsEmbeddedAndNothingElse() throws {
        let manager = FileManager.default
        let templates = try manager.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("templates").path)
            .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
        let statics = try manager.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("static").path)
        #expect(Set(templates) == Set(EmbeddedResources.templates.keys))
        #expect(Set(statics) == Set(EmbeddedResources.staticFiles.keys))
        for name in templates {
            let bytes = try Data(contentsOf: Self.folder.appendingPathComponent("templates/\(name).mustache"))
            #expect([UInt8](bytes) == EmbeddedResources.templates[name], "\(name) is not what is embedded (rebuild)")
        }
        #expect(try Data(contentsOf: Self.folder.appendingPathComponent("openapi.json")) == Data(EmbeddedResources.openAPIDocument))
        _ = try PageRenderer()
    }
}
