import Foundation
import PackagePlugin

/// Compiles a target's `Resources/` folder into the binary as `PackageResources.<name>`
/// (the names SwiftPM's `embedInCode` gives), through string literals that compile in a
/// second; see Sources/EmbedResources/main.swift for the figure.
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Resources")
        var files = [URL]()
        if let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                if url.lastPathComponent.hasPrefix(".") { continue }
                files.append(url)
            }
        }
        files.sort { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "PackageResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(target.name)'s resources (\(files.count) files)",
                executable: try context.tool(named: "EmbedResources").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
